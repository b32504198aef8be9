package bot

import (
	"context"
	"strings"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/render"
	"github.com/bashni/bashni/rules"
)

// Inline mode: "@bot" in any chat offers a challenge as White, Black or by
// lot. The chosen offer is posted by Telegram as an inline message with
// Accept and Cancel buttons; once accepted, the game is played on that
// message. Inline messages cannot take an uploaded file in an edit, so each
// board is first uploaded to the media chat (telegram.media_chat_id) or, if
// none is set, to the DM of a player who has started the bot (and deleted
// there at once); the edit then reuses its file_id.

func (b *Bot) onInlineQuery(ctx context.Context, q *tgbotapi.InlineQuery) error {
	u, lang := b.touch(ctx, q.From, false)
	from := player(q.From)
	// "@bot russian": the offers are for that ruleset.
	variant := rules.Bashni
	for _, w := range strings.Fields(q.Query) {
		if v, ok := variantWord(w); ok {
			variant = v
		}
	}
	var challenges []*play.Challenge
	for _, color := range []string{play.ColorWhite, play.ColorBlack, play.ColorRandom} {
		c, err := b.svc.Challenge(ctx, play.ChallengeRequest{From: from, Color: color, Variant: variant, Lang: lang})
		if err != nil {
			return err
		}
		challenges = append(challenges, c)
	}
	answer := func(photoID string) {
		var results []any
		for i, c := range challenges {
			text, kb := b.challengeCard(lang, c)
			title := b.texts.T(lang, "inline_title_"+[]string{play.ColorWhite, play.ColorBlack, play.ColorRandom}[i])
			if variant != rules.Bashni {
				title += " · " + b.texts.T(lang, "btn_rules_"+variant.String())
			}
			if b.cfg.BoardImageURL != nil {
				url := b.cfg.BoardImageURL(startBoardID, "0")
				r := tgbotapi.NewInlineQueryResultPhotoWithThumb(c.ID, url, url)
				r.Title, r.Description = title, b.texts.T(lang, "inline_description")
				r.Caption, r.ParseMode, r.ReplyMarkup = text, tgbotapi.ModeHTML, &kb
				results = append(results, r)
				continue
			}
			if photoID != "" {
				r := tgbotapi.NewInlineQueryResultCachedPhoto(c.ID, photoID)
				r.Title, r.Description = title, b.texts.T(lang, "inline_description")
				r.Caption, r.ParseMode, r.ReplyMarkup = text, tgbotapi.ModeHTML, &kb
				results = append(results, r)
				continue
			}
			r := tgbotapi.NewInlineQueryResultArticleHTML(c.ID, title, text)
			r.Description = b.texts.T(lang, "inline_description")
			kb = acceptAsText(kb)
			r.ReplyMarkup = &kb
			results = append(results, r)
		}
		b.send(outbox.Reply{Req: tgbotapi.InlineConfig{InlineQueryID: q.ID, Results: results, CacheTime: 0, IsPersonal: true}})
	}
	// The offer is a photo of the start board when one can be had, so the
	// game can be shown on it later (a text message cannot become a photo):
	// by URL when the boards are served, else uploaded once.
	if b.cfg.BoardImageURL != nil {
		answer("")
		return nil
	}
	if id, ok := b.startPhoto.Load().(string); ok && id != "" {
		answer(id)
		return nil
	}
	chat, dm := b.cfg.MediaChatID, false
	if chat == 0 && u.CanDM && !u.Blocked {
		chat, dm = u.ID, true
	}
	if chat == 0 {
		answer("")
		return nil
	}
	png, err := b.render.PNG(rules.Start(rules.Bashni), render.Options{})
	if err != nil {
		return err
	}
	b.upload(chat, dm, png, func(fileID string) {
		if fileID != "" {
			b.startPhoto.Store(fileID)
		}
		answer(fileID)
	})
	return nil
}

// acceptAsText is the keyboard kb of an offer posted as text: its Accept
// says so (ArgText), so that the game is made knowing its card is text and
// no edit of it is tried as a photo that Telegram would refuse.
func acceptAsText(kb tgbotapi.InlineKeyboardMarkup) tgbotapi.InlineKeyboardMarkup {
	for _, row := range kb.InlineKeyboard {
		for i, btn := range row {
			if btn.CallbackData == nil {
				continue
			}
			if cb, err := ParseCallback(*btn.CallbackData); err == nil && cb.Kind == KindAccept {
				cb.Arg = ArgText
				data := cb.Encode()
				row[i].CallbackData = &data
			}
		}
	}
	return kb
}

// onInlineAccept starts the game of an accepted inline challenge on its
// inline message.
func (b *Bot) onInlineAccept(ctx context.Context, q *tgbotapi.CallbackQuery, g *play.Game) {
	b.takeOverInline(g, q.InlineMessageID)
}

// takeOverInline makes inline message inlineID g's card: recorded, then
// redrawn, and the first player told.
func (b *Bot) takeOverInline(g *play.Game, inlineID string) {
	b.background(func(ctx context.Context) {
		stored, err := b.svc.SetCard(ctx, g.ID(), 0, 0, inlineID)
		if err != nil {
			b.log.Warn("inline card not recorded", "game", g.ID(), "err", err)
			return
		}
		b.editCard(stored, cardView{lang: cardLang(stored)}, "", nil)
		b.notifyStart(ctx, stored)
	})
}
