package bot

import (
	"context"
	"errors"
	"fmt"
	"html"
	"net/http"
	"strconv"
	"strings"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/texts"
)

// Edits notify nobody, so after each move the player to move gets one new
// message: a DM with a link to the game if they have started the bot (one
// live DM per game: the previous one is deleted), otherwise a short mention
// in the game's chat, removed once they move.
//
// The game record keeps, per user, the message id of that notice: positive
// for a DM (chat = the user), negative for a mention (chat = the game's).

func noticeRef(messageID int, dm bool) int {
	if dm {
		return messageID
	}
	return -messageID
}

// chatReplyID wraps a request to a chat known by id only.
func chatReplyID(chatID int64, req tgbotapi.Chattable) outbox.Reply {
	r := outbox.Reply{Req: req, ChatID: chatID, Group: chatID < 0}
	if chatID > 0 {
		r.UserID = chatID
	}
	return r
}

// deleteNotice deletes a turn notice recorded as ref (see noticeRef).
func (b *Bot) deleteNotice(g *play.Game, userID int64, ref int) {
	chat, id := g.ChatID(), -ref
	if ref > 0 {
		chat, id = userID, ref
	}
	b.send(chatReplyID(chat, tgbotapi.NewDeleteMessage(chat, id)))
}

// noticesNow reports whether the player to move is told at once after each
// move. Otherwise (play.Config.NoticeDelay) the clock tells them only if
// they have not moved within the delay: players who answer as they see the
// board need no notice, and in a group each notice, and each deletion of
// the one before, would spend the bot's 20 messages a minute that the
// board's own edits need.
func (b *Bot) noticesNow() bool { return b.svc.Config().NoticeDelay <= 0 }

// notifyTurn tells the player to move that it is their move.
func (b *Bot) notifyTurn(ctx context.Context, g *play.Game, last string) {
	c, p := g.ToMove()
	if m, ok := g.Mirrored(); !p.Human() || g.ChatID() == p.UserID || ok && m.ChatID() == p.UserID {
		return // the AI, or a game in the player's own private chat
	}
	u, err := b.svc.User(ctx, p.UserID)
	if err != nil && !isNotFound(err) {
		b.log.Warn("no notice sent", "game", g.ID(), "err", err)
		return
	}
	if u != nil && !u.Notify {
		return // they turned turn notices off in /settings
	}
	opponent := g.Player(c.Opponent())
	if u != nil && u.CanDM && !u.Blocked {
		// The link button says where the game is; the text names the
		// opponent (group titles are not stored).
		lang := texts.Lang(u.Lang)
		text := b.texts.T(lang, "your_move_dm", "Opponent", opponent.Name, "Last", last)
		if last == "" {
			text = b.texts.T(lang, "game_started_dm", "Opponent", opponent.Name, "Side", b.texts.SideName(lang, c))
		}
		m := outMessage{chatID: p.UserID, text: text}
		if link := messageLink(g.ChatID(), g.MessageID()); link != "" {
			kb := tgbotapi.NewInlineKeyboardMarkup(tgbotapi.NewInlineKeyboardRow(tgbotapi.NewInlineKeyboardButtonURL(b.texts.T(lang, "btn_open_game"), link)))
			m.markup = &kb
		}
		r := m.reply()
		b.sendNotice(g, p.UserID, r, true, func() {
			// They blocked the bot, or never started it: this turn is
			// announced in the game's chat instead.
			b.mentionTurn(g, p, last)
		})
		return
	}
	b.mentionTurn(g, p, last)
}

// mentionTurn tells the player to move, by a mention in the game's group.
func (b *Bot) mentionTurn(g *play.Game, p play.Player, last string) {
	if g.ChatID() >= 0 {
		return
	}
	c, _ := g.ToMove()
	lang := cardLang(g)
	text := b.texts.T(lang, "your_move_mention", "Player", mention(p), "Last", last)
	if last == "" {
		text = b.texts.T(lang, "game_started_mention", "Player", mention(p), "Side", b.texts.SideName(lang, c))
	}
	text += drawOfferLine(b.texts, lang, g, p)
	m := outMessage{chatID: g.ChatID(), text: text, parseMode: tgbotapi.ModeHTML, replyTo: g.MessageID()}
	b.sendNotice(g, p.UserID, m.reply(), false, nil)
}

// sendNotice sends a turn notice and records it, deleting the one before.
// A game's notice still waiting to be sent (Telegram paces groups to about
// 20 messages a minute) is replaced by the next one: only the player to
// move needs telling.
// forbidden, if set, runs when Telegram refused the notice with 403.
//
// The notice carries the game's version (outbox.Reply.Version): one older
// than a notice the chat was given since is dropped, not sent in its
// place. A DM refused with 403 is announced in the group only then, and by
// that time the player may have moved and the next player's mention be
// waiting in the group's queue: the stale mention must not replace it.
func (b *Bot) sendNotice(g *play.Game, userID int64, r outbox.Reply, dm bool, forbidden func()) {
	r.Key, r.Version = "notice:"+g.ID(), g.Version()
	r.Done = func(msg *tgbotapi.Message, err error) {
		if err != nil && forbidden != nil && isForbidden(err) {
			forbidden()
			return
		}
		if err != nil || msg == nil {
			return
		}
		b.background(func(ctx context.Context) {
			prev, err := b.svc.SetNotice(ctx, g.ID(), userID, noticeRef(msg.MessageID, dm))
			if errors.Is(err, play.ErrStale) || errors.Is(err, play.ErrGameOver) {
				// They moved (or the game ended) while it was on its way.
				b.deleteNotice(g, userID, noticeRef(msg.MessageID, dm))
				return
			}
			if err != nil {
				b.log.Warn("notice not recorded", "game", g.ID(), "err", err)
				return
			}
			if prev != 0 {
				b.deleteNotice(g, userID, prev)
			}
		})
	}
	b.send(r)
}

// isForbidden reports whether Telegram answered 403: the user blocked the
// bot, or never started it.
func isForbidden(err error) bool {
	if e, ok := errors.AsType[*tgbotapi.Error](err); ok {
		return e.Code == http.StatusForbidden || strings.HasPrefix(e.Message, "Forbidden")
	}
	if e, ok := errors.AsType[tgbotapi.Error](err); ok {
		return e.Code == http.StatusForbidden || strings.HasPrefix(e.Message, "Forbidden")
	}
	return false
}

// mention links a player's name so Telegram notifies them.
func mention(p play.Player) string {
	return fmt.Sprintf(`<a href="tg://user?id=%d">%s</a>`, p.UserID, html.EscapeString(p.Name))
}

// messageLink links to a message in a supergroup (t.me/c/<id>/<msg>);
// basic groups and private chats have no such links.
func messageLink(chatID int64, messageID int) string {
	s := strconv.FormatInt(chatID, 10)
	if !strings.HasPrefix(s, "-100") || messageID == 0 {
		return ""
	}
	return fmt.Sprintf("https://t.me/c/%s/%d", s[4:], messageID)
}
