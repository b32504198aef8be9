package outbox

import (
	"encoding/json"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// Reply is one request to send, with what the outbox needs to pace it and
// whom to tell about the result.
type Reply struct {
	// Req is the request: a send, an edit, a deletion, a callback answer.
	Req tgbotapi.Chattable
	// Call, when Req is nil, is a request for a method tgbotapi v5.5.1 has
	// no config for (setMessageReaction), sent by name with its params.
	Call *Call
	// Lazy, when Req and Call are nil, is a request made only when it is
	// sent: Resolve (SetResolver) turns it into the request then. It is
	// small JSON, and what the journal keeps: a game's card edit is kept
	// as "card of game G", not as the picture, and drawn as the game is
	// stored at the moment of sending, so a card never shows an older
	// board than one already shown, and the edits waiting for a chat's
	// pace (Key) cost one drawing. ChatID or InlineMessageID must be set.
	Lazy json.RawMessage
	// InlineMessageID is the inline message a Lazy reply edits, when it
	// has no chat: its queue and pace are the inline message's, as for
	// any edit of one.
	InlineMessageID string
	// ChatID keys pacing and ordering. When zero it is taken from the
	// request's ChatID field; edits of inline messages are keyed by their
	// inline message id instead.
	ChatID int64
	// Group selects the stricter group pacing. Negative chat ids (groups,
	// supergroups, channels) get it anyway.
	Group bool
	// UserID is the user of a private chat: a 403 then means the user
	// blocked the bot, and Options.OnBlocked is told.
	UserID int64
	// Silent sends the message without a notification sound (the request's
	// DisableNotification, where it has one).
	Silent bool
	// Key, if set, makes the reply replace a reply with the same Key that
	// still waits in its chat's queue: the older one is done with
	// ErrSuperseded, unsent, and the newer one queues at the back as any
	// reply does, never ahead of what was queued before it. Telegram
	// allows a group about 20 messages a minute, edits included, so in a
	// quick game the card's edits would queue up and show boards long
	// gone; keyed by the card, only the latest waits. A reply already
	// being sent is not replaced.
	Key string
	// Delay, with a Key, holds the reply in its queue for at least this
	// long, giving way meanwhile to a newer reply with the same Key: a
	// board that is about to be replaced (the player's move, while the AI
	// thinks for a moment) is better not sent, since each message spends
	// the chat's pace that the next one needs.
	Delay time.Duration
	// Version, with a Key and Options.Pacer, is the version of what the
	// reply shows (a game's card): a reply older than one any replica has
	// shown for the Key is dropped (ErrSuperseded) rather than sent.
	Version int64
	// Record, if set, is what the message is to be recorded as once sent
	// (small JSON, e.g. "the poll of game G's turn P"), kept with the reply
	// in the journal: whichever process sends it, this one or another that
	// took it over after a crash, hands it with Telegram's answer to the
	// Recorder (SetRecorder) before the reply is forgotten. What only Done
	// would record is lost with the process that enqueued it; a message
	// whose id must be stored (a poll: its answers name nothing but the
	// poll's id) is recorded this way.
	Record json.RawMessage
	// Done, if set, is called once with the outcome after the last attempt.
	// msg is set when the method returned a Message. Done runs on the
	// sending goroutine of the chat: it must not block, but may Enqueue.
	Done func(msg *tgbotapi.Message, err error)
}

// Call is a Bot API request by method name. tgbotapi's Chattable keeps its
// methods unexported, so a method the library predates goes out through
// its MakeRequest, which takes any method and parameters.
type Call struct {
	Method string
	Params tgbotapi.Params
}
