package loadtest

import (
	"sync"
	"sync/atomic"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/internal/telegramtest"
)

// event is a message the bot sent or edited, as the fake recorded it.
type event struct {
	method    string // canonical: "sendPhoto", "editMessageMedia", ...
	chatID    int64
	messageID int
	markup    *tgbotapi.InlineKeyboardMarkup
	at        time.Time // when the fake had recorded the call
}

// watched are the methods whose messages the players look at.
var watched = map[string]bool{
	"sendMessage":            true,
	"sendPhoto":              true,
	"editMessageMedia":       true,
	"editMessageText":        true,
	"editMessageReplyMarkup": true,
}

// events passes the messages the fake reports (telegramtest's OnMessage)
// to whoever watches their chat.
type events struct {
	mu    sync.Mutex
	chats map[int64]chan event

	dropped atomic.Int64 // events a full channel could not take
}

// eventBuffer is how many events a chat's channel holds; a player reads
// them as they come, so a full one means a player has stopped.
const eventBuffer = 256

func newEvents() *events { return &events{chats: make(map[int64]chan event)} }

// watch returns the channel of events in a chat.
func (e *events) watch(chatID int64) <-chan event {
	e.mu.Lock()
	defer e.mu.Unlock()
	ch := make(chan event, eventBuffer)
	e.chats[chatID] = ch
	return ch
}

func (e *events) unwatch(chatID int64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.chats, chatID)
}

// observe reports a message the fake has just recorded, before the bot has
// the fake's answer.
func (e *events) observe(c telegramtest.Call, m telegramtest.Msg) {
	if !watched[c.Method] {
		return
	}
	at := time.Now()
	e.mu.Lock()
	ch := e.chats[m.ChatID]
	e.mu.Unlock()
	if ch == nil {
		return
	}
	select {
	case ch <- event{method: c.Method, chatID: m.ChatID, messageID: m.ID, markup: m.ReplyMarkup, at: at}:
	default:
		e.dropped.Add(1)
	}
}
