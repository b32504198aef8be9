package bot

import (
	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
)

// editInlineCard shows the board on an inline message: upload, then edit
// with the uploaded photo's file_id. An offer posted as text (nowhere to
// upload a photo then) stays text: the board is drawn in characters. It is
// the eager form, for views drawn as decided (a tower picked); the board
// as it stands goes lazily (editInlineBoard, resolveInline).
func (b *Bot) editInlineCard(g *play.Game, v cardView, png []byte) {
	caption := b.caption(g, v)
	kb := b.keyboard(g, v)
	asText := func() { b.send(outbox.Reply{Req: b.inlineText(g, caption, kb)}) }
	if g.InlineText() {
		asText()
		return
	}
	// Below, a text message not known as such (a game accepted before
	// games knew it) is found out by Telegram's refusal; the view, a
	// moment's, then goes as text from this process's memory, and the
	// lazy edits learn it for good (inlineRefused).
	if b.cfg.BoardImageURL != nil {
		b.send(outbox.Reply{
			Req:  b.inlineByURL(g, v, caption, kb),
			Done: onNoMedia(asText), // an offer posted as text before the boards were served
		})
		return
	}
	chat, dm := b.mediaChat(g)
	if chat == 0 {
		asText()
		return
	}
	b.upload(chat, dm, png, func(fileID string) {
		if fileID == "" {
			asText()
			return
		}
		b.send(outbox.Reply{Req: inlineByFile(g, fileID, caption, kb), Done: onNoMedia(asText)}) // the offer was posted as text
	})
}

// onNoMedia calls then when an edit of an inline message failed because
// the message has no photo (an offer posted as text).
func onNoMedia(then func()) func(*tgbotapi.Message, error) {
	return func(_ *tgbotapi.Message, err error) {
		if noMedia(err) {
			then()
		}
	}
}

// noMedia reports whether err is Telegram's refusal to edit a message
// without media (a text message) into a photo.
func noMedia(err error) bool {
	return err != nil && strings.Contains(err.Error(), "no media")
}

// inlineText is the inline card edit as text: caption and the board drawn
// in characters.
func (b *Bot) inlineText(g *play.Game, caption string, kb tgbotapi.InlineKeyboardMarkup) tgbotapi.EditMessageTextConfig {
	return tgbotapi.EditMessageTextConfig{
		BaseEdit:  tgbotapi.BaseEdit{InlineMessageID: g.InlineMessageID(), ReplyMarkup: &kb},
		Text:      htmlName(caption) + "\n<pre>" + textBoard(g.Position()) + "</pre>",
		ParseMode: tgbotapi.ModeHTML,
	}
}

// inlineByURL is the inline card edit whose board Telegram fetches
// itself; the URL names its version.
func (b *Bot) inlineByURL(g *play.Game, v cardView, caption string, kb tgbotapi.InlineKeyboardMarkup) tgbotapi.EditMessageMediaConfig {
	media := tgbotapi.NewInputMediaPhoto(tgbotapi.FileURL(b.cfg.BoardImageURL(g.ID(), boardVersion(g, v))))
	media.Caption = caption
	return tgbotapi.EditMessageMediaConfig{
		BaseEdit: tgbotapi.BaseEdit{InlineMessageID: g.InlineMessageID(), ReplyMarkup: &kb},
		Media:    media,
	}
}

// inlineByFile is the inline card edit with a board uploaded before.
func inlineByFile(g *play.Game, fileID, caption string, kb tgbotapi.InlineKeyboardMarkup) tgbotapi.EditMessageMediaConfig {
	media := tgbotapi.NewInputMediaPhoto(tgbotapi.FileID(fileID))
	media.Caption = caption
	return tgbotapi.EditMessageMediaConfig{
		BaseEdit: tgbotapi.BaseEdit{InlineMessageID: g.InlineMessageID(), ReplyMarkup: &kb},
		Media:    media,
	}
}

// inlineRefused is the outbox's Refused: a lazy edit of an inline card
// that Telegram refused because the message has no media (an offer posted
// as text, accepted before games knew it, so that the edit was tried as a
// photo) is recorded as text on its game (play.Service.SetInlineText) and
// queued again as text, kept in the journal. Both come before the journal
// forgets the refused edit, in whichever process sent it: a crash before
// them has the next process send the edit again (as text if the record
// was made, else refused and here again), so the edit is never lost.
func (b *Bot) inlineRefused(ctx context.Context, raw json.RawMessage, err error) {
	var lc lazyCard
	if json.Unmarshal(raw, &lc) != nil || lc.Inline == "" || lc.Text || !noMedia(err) {
		return
	}
	if err := b.svc.SetInlineText(ctx, lc.Game, lc.Inline); err != nil {
		b.log.Warn("an inline card not recorded as text", "game", lc.Game, "err", err)
	}
	if r, err := lazyInline(lazyCard{Game: lc.Game, Inline: lc.Inline, Text: true}); err == nil {
		b.send(r)
	}
}

// resolveInline draws the lazy edit lc of game g's inline card, g as
// stored now: by URL when the boards are served, else uploaded now (the
// upload waits for its chat's pace; the edit goes once it has its
// file_id), else, or when the upload fails, as text.
func (b *Bot) resolveInline(ctx context.Context, g *play.Game, lc lazyCard) tgbotapi.Chattable {
	v := cardView{lang: cardLang(g), thinking: g.Active() && g.IsAITurn()}
	caption, kb := b.caption(g, v), b.keyboard(g, v)
	switch {
	case lc.Text || g.InlineText():
	case b.cfg.BoardImageURL != nil:
		return b.inlineByURL(g, v, caption, kb)
	default:
		chat, dm := b.mediaChat(g)
		if chat == 0 {
			break
		}
		png, err := b.boardPNG(g, v, "")
		if err != nil {
			b.log.Error("drawing the board", "game", g.ID(), "err", err)
			break
		}
		if fileID := b.uploadNow(ctx, chat, dm, png); fileID != "" {
			return inlineByFile(g, fileID, caption, kb)
		}
	}
	return b.inlineText(g, caption, kb)
}

// uploadNow is upload, waited for: the file_id, "" on failure.
func (b *Bot) uploadNow(ctx context.Context, chat int64, dm bool, png []byte) string {
	got := make(chan string, 1)
	b.upload(chat, dm, png, func(fileID string) { got <- fileID })
	select {
	case id := <-got:
		return id
	case <-ctx.Done():
		return ""
	}
}

// upload sends a board to chat to get its file_id (deleting it again when
// chat is someone's DM) and calls then with the id ("" on failure).
func (b *Bot) upload(chat int64, dm bool, png []byte, then func(fileID string)) {
	up := tgbotapi.NewPhoto(chat, tgbotapi.FileBytes{Name: "board.png", Bytes: png})
	up.DisableNotification = true
	r := chatReplyID(chat, up)
	r.Done = func(msg *tgbotapi.Message, err error) {
		if err != nil || msg == nil || len(msg.Photo) == 0 {
			b.log.Warn("board upload failed", "chat", chat, "err", err)
			then("")
			return
		}
		then(msg.Photo[len(msg.Photo)-1].FileID) // the largest size
		if dm {
			b.send(chatReplyID(chat, tgbotapi.NewDeleteMessage(chat, msg.MessageID)))
		}
	}
	b.send(r)
}

// mediaChat is where inline boards are uploaded: the configured media chat,
// else the DM of a player who can be sent messages (dm true).
func (b *Bot) mediaChat(g *play.Game) (chat int64, dm bool) {
	if b.cfg.MediaChatID != 0 {
		return b.cfg.MediaChatID, false
	}
	for _, p := range []int64{g.White().UserID, g.Black().UserID} {
		if p == 0 {
			continue
		}
		if u, err := b.svc.User(b.bgCtx, p); err == nil && u.CanDM && !u.Blocked {
			return p, true
		}
	}
	return 0, false
}

// textBoard draws a position in text, for where no photo can go: the top
// piece of each tower, a digit for taller towers' heights.
func textBoard(p rules.Position) string {
	var sb strings.Builder
	for rank := 7; rank >= 0; rank-- {
		fmt.Fprintf(&sb, "%d ", rank+1)
		for file := 0; file < 8; file++ {
			s, ok := rules.SquareAt(file, rank)
			if !ok {
				sb.WriteString(" ·")
				continue
			}
			t := p.Tower(s)
			switch {
			case t.Empty():
				sb.WriteString(" _")
			case t.Height() > 1:
				fmt.Fprintf(&sb, "%c%d", t.Top().Letter(), min(t.Height(), 9))
			default:
				sb.WriteString(" " + t.Top().String())
			}
		}
		sb.WriteByte('\n')
	}
	sb.WriteString("   a b c d e f g h")
	return sb.String()
}
