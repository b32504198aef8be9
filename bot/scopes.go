package bot

import tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

// Where a button may be tapped. Callback data can be forged (a client may
// send any data for any of the bot's messages), so a button posted only
// in private chats must not work in a group, nor a group's in private
// (issue 38: forged private-chat taps posted 30 photos in a group).
// Every callback kind declares its places here, beside tapRoutes; a kind
// with none is refused everywhere (TestEveryTapRouteHasAScope), and a tap
// from elsewhere is answered with a toast and changes nothing.
type Scope uint8

const (
	InPrivate Scope = 1 << iota
	InGroup
	InInline // an inline message (inline mode): no chat
	Anywhere = InPrivate | InGroup | InInline
)

// tapScopes maps a callback kind to where its buttons are posted.
var tapScopes = map[string]Scope{
	// A game's card, its end and its offers: wherever games are played.
	KindPick: Anywhere, KindAccept: Anywhere, KindDecline: Anywhere, KindCancel: Anywhere,
	KindDrawYes: Anywhere, KindDrawNo: Anywhere, KindResign: Anywhere, KindResignNo: Anywhere,
	KindRematch: Anywhere, KindRematchOK: Anywhere, KindRematchNo: Anywhere,
	KindPDN: Anywhere, KindReplay: Anywhere, KindTowers: Anywhere,
	// Menus and settings answer where they were asked for.
	KindMenu: Anywhere, KindLevel: Anywhere, KindVariant: Anywhere, KindColor: Anywhere,
	KindLang: Anywhere, KindSetting: Anywhere,
	// A group's own things: its tournament.
	KindTourJoin: InGroup, KindTourLeave: InGroup, KindTourPause: InGroup,
	KindTourSetup: InGroup,
}

// tapPlace is where q was tapped.
func tapPlace(q *tgbotapi.CallbackQuery) Scope {
	switch {
	case q.Message == nil || q.Message.Chat == nil:
		return InInline
	case q.Message.Chat.IsPrivate():
		return InPrivate
	}
	return InGroup
}

// tapAllowed reports whether a button of kind may be tapped where q was.
func tapAllowed(kind string, q *tgbotapi.CallbackQuery) bool {
	return tapScopes[kind]&tapPlace(q) != 0
}
