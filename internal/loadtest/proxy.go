package loadtest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// event is a message the bot sent or edited, as the fake answered it.
type event struct {
	method    string // canonical lower case: "sendphoto", "editmessagemedia", ...
	chatID    int64
	messageID int
	markup    *tgbotapi.InlineKeyboardMarkup
	at        time.Time // when the fake's answer reached the proxy
}

// watched are the methods whose answers (a Message) are reported.
var watched = map[string]bool{
	"sendmessage":            true,
	"sendphoto":              true,
	"editmessagemedia":       true,
	"editmessagetext":        true,
	"editmessagereplymarkup": true,
}

// proxy passes Bot API calls to the fake and reports the messages sent and
// edited to whoever watches their chat.
type proxy struct {
	rp *httputil.ReverseProxy

	mu    sync.Mutex
	chats map[int64]chan event

	calls   atomic.Int64
	dropped atomic.Int64 // events a full channel could not take
}

// eventBuffer is how many events a chat's channel holds; a player reads
// them as they come, so a full one means a player has stopped.
const eventBuffer = 256

func newProxy(target string) (*proxy, error) {
	u, err := url.Parse(target)
	if err != nil {
		return nil, err
	}
	p := &proxy{chats: make(map[int64]chan event)}
	p.rp = &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) { r.SetURL(u) },
		// The default transport keeps two idle connections per host; the
		// bot's outbox sends more at once than that, and a new connection
		// per call would measure the kernel rather than the bot.
		Transport: &http.Transport{
			MaxIdleConns: 256, MaxIdleConnsPerHost: 256, IdleConnTimeout: time.Minute,
		},
		ModifyResponse: p.observe,
	}
	return p, nil
}

func (p *proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.calls.Add(1)
	p.rp.ServeHTTP(w, r)
}

// watch returns the channel of events in a chat.
func (p *proxy) watch(chatID int64) <-chan event {
	p.mu.Lock()
	defer p.mu.Unlock()
	ch := make(chan event, eventBuffer)
	p.chats[chatID] = ch
	return ch
}

func (p *proxy) unwatch(chatID int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.chats, chatID)
}

// observe reads the fake's answer to a watched method and reports the
// message in it. The body is put back for the bot unchanged.
func (p *proxy) observe(resp *http.Response) error {
	path := resp.Request.URL.Path
	method := strings.ToLower(path[strings.LastIndexByte(path, '/')+1:])
	if !watched[method] {
		return nil
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	if err != nil {
		return nil // the bot sees the short body and deals with it
	}
	at := time.Now()
	var answer struct {
		OK     bool `json:"ok"`
		Result struct {
			MessageID int `json:"message_id"`
			Chat      struct {
				ID int64 `json:"id"`
			} `json:"chat"`
			ReplyMarkup *tgbotapi.InlineKeyboardMarkup `json:"reply_markup"`
		} `json:"result"`
	}
	if json.Unmarshal(body, &answer) != nil || !answer.OK {
		return nil
	}
	ev := event{method: method, chatID: answer.Result.Chat.ID, messageID: answer.Result.MessageID, markup: answer.Result.ReplyMarkup, at: at}
	p.mu.Lock()
	ch := p.chats[ev.chatID]
	p.mu.Unlock()
	if ch == nil {
		return nil
	}
	select {
	case ch <- ev:
	default:
		p.dropped.Add(1)
	}
	return nil
}
