package bot

import (
	"context"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/texts"
)

// drawOfferNotice tells the opponent of a draw offer, since the card's
// edit (which shows the offer, with its buttons) notifies nobody. The
// Accept and Decline buttons are on the card alone: every way an offer
// ends (a tap, the Mini App, a move, resignation, the end of the game)
// redraws the card, so no other message can keep buttons for an offer
// that is gone.
//
// In a group the card is the offer: a mention there would spend one of
// the group's twenty messages a minute that the board's edits need, and
// tell the whole group. The one asked is told in their private chat if
// they started the bot (drawOfferDM); otherwise they read it on the card
// when they next look at it, which they do to move. A mirrored game's
// cards are in the players' private chats: the opponent is told on their
// own card's chat, by a reply to it.
func (b *Bot) drawOfferNotice(ctx context.Context, g *play.Game, lang, from string, to play.Player) {
	if g.ChatID() == 0 {
		return
	}
	b.locateCard(g, nil)
	if g.ChatID() < 0 {
		b.drawOfferDM(ctx, g, from, to)
		return
	}
	if m, ok := g.Mirrored(); ok {
		// Told on the opponent's own card, in the language it is written
		// in.
		if m.ChatID() == to.UserID {
			g = m
		}
		lang = cardLang(g)
	}
	b.send(outMessage{chatID: g.ChatID(), text: b.texts.T(lang, "draw_offered", "From", htmlName(from), "To", mention(to)),
		parseMode: tgbotapi.ModeHTML, noPreview: true, replyTo: g.MessageID()}.reply())
}

// drawOfferDM tells to, in their private chat and language, of a draw
// offered in a group game, with a link to the card where it is answered:
// if they started the bot and take notices (/settings). Every such DM says
// the same, so one waiting stands for all the offers made meanwhile.
func (b *Bot) drawOfferDM(ctx context.Context, g *play.Game, from string, to play.Player) {
	if !to.Human() {
		return
	}
	u, err := b.svc.User(ctx, to.UserID)
	if err != nil || !u.CanDM || u.Blocked || !u.Notify {
		return // not a failure: the card shows the offer
	}
	lang := texts.Lang(u.Lang)
	m := outMessage{chatID: to.UserID, text: b.texts.T(lang, "draw_offered_dm", "From", from)}
	if link := messageLink(g.ChatID(), g.MessageID()); link != "" {
		kb := tgbotapi.NewInlineKeyboardMarkup(tgbotapi.NewInlineKeyboardRow(tgbotapi.NewInlineKeyboardButtonURL(b.texts.T(lang, "btn_open_game"), link)))
		m.markup = &kb
	}
	// Keyed by the game: a newer offer's DM replaces one still waiting in
	// to's chat, so however fast offers and declines come (a script at the
	// Mini App), to's lane holds at most one of them and to is told at
	// most once a pace of their chat, never once an offer.
	r := m.reply()
	r.Key = "drawdm:" + g.ID()
	b.send(r)
}

// drawOfferLine is a line of p's turn mention in a group when the
// opponent's draw offer waits for p's answer: the offer itself mentioned
// nobody (drawOfferNotice), and this message is sent anyway.
func drawOfferLine(words *texts.Catalog, lang string, g *play.Game, p play.Player) string {
	by := g.DrawOfferBy()
	if by == 0 || by == p.UserID {
		return ""
	}
	name := g.White().Name
	if g.Black().UserID == by {
		name = g.Black().Name
	}
	return "\n" + words.T(lang, "caption_draw_offer", "Player", htmlName(name))
}
