package bot

import tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

// Where a button may be tapped. Callback data can be forged (a client may
// send any data for any of the bot's messages), so a button posted only
// in private chats must not work in a group, nor a group's in private
// (issue 38: forged "next lesson" taps posted 30 lesson photos in a group).
// Every callback kind declares its places here, beside tapRoutes; a kind
// with none is refused everywhere (TestEveryTapRouteHasAScope), and a tap
// from elsewhere is answered with a toast and changes nothing.
type where uint8

const (
	inPrivate where = 1 << iota
	inGroup
	inInline // an inline message (inline mode): no chat
	anywhere = inPrivate | inGroup | inInline
)

// tapScopes maps a callback kind to where its buttons are posted.
var tapScopes = map[string]where{
	// A game's card, its end and its offers: wherever games are played.
	KindPick: anywhere, KindAccept: anywhere, KindDecline: anywhere, KindCancel: anywhere,
	KindDrawYes: anywhere, KindDrawNo: anywhere, KindResign: anywhere, KindResignNo: anywhere,
	KindRematch: anywhere, KindRematchOK: anywhere, KindRematchNo: anywhere,
	KindPDN: anywhere, KindReplay: anywhere, KindAnalyse: anywhere, KindTowers: anywhere,
	// Menus and settings answer where they were asked for.
	KindMenu: anywhere, KindLevel: anywhere, KindVariant: anywhere, KindColor: anywhere,
	KindLang: anywhere, KindSetting: anywhere,
	// The course and the puzzles are private (/learn and /puzzle send
	// groups there).
	KindLesson: inPrivate, KindLessonNext: inPrivate, KindPuzzle: inPrivate, KindPuzzleNext: inPrivate,
	// A group's own things: its team game, tournament and daily puzzle.
	KindVote: inGroup, KindTourJoin: inGroup, KindTourLeave: inGroup, KindTourPause: inGroup,
	KindTourSetup: inGroup, KindDaily: inGroup,
}

// tapPlace is where q was tapped.
func tapPlace(q *tgbotapi.CallbackQuery) where {
	switch {
	case q.Message == nil || q.Message.Chat == nil:
		return inInline
	case q.Message.Chat.IsPrivate():
		return inPrivate
	}
	return inGroup
}

// tapAllowed reports whether a button of kind may be tapped where q was.
func tapAllowed(kind string, q *tgbotapi.CallbackQuery) bool {
	return tapScopes[kind]&tapPlace(q) != 0
}
