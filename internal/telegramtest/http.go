package telegramtest

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// handler answers one Bot API method. It runs with s.mu held and returns
// the result object, or the failure to answer with.
type handler func(s *Server, c *Call) (any, *Failure)

// described is a result that Telegram answers with a description beside it,
// as setWebhook does ("Webhook was set").
type described struct {
	value       any
	description string
}

// methods maps lower-cased method names (Telegram ignores their case) to the
// canonical name and the handler. getUpdates blocks, so serveHTTP calls it
// directly.
var methods = map[string]struct {
	name string
	h    handler
}{
	"getme":                  {"getMe", (*Server).getMe},
	"getupdates":             {"getUpdates", nil},
	"sendmessage":            {"sendMessage", (*Server).sendMessage},
	"sendphoto":              {"sendPhoto", (*Server).sendPhoto},
	"senddocument":           {"sendDocument", (*Server).sendDocument},
	"sendanimation":          {"sendAnimation", (*Server).sendAnimation},
	"editmessagetext":        {"editMessageText", (*Server).editMessageText},
	"editmessagecaption":     {"editMessageCaption", (*Server).editMessageCaption},
	"editmessagemedia":       {"editMessageMedia", (*Server).editMessageMedia},
	"editmessagereplymarkup": {"editMessageReplyMarkup", (*Server).editMessageReplyMarkup},
	"deletemessage":          {"deleteMessage", (*Server).deleteMessage},
	"setmessagereaction":     {"setMessageReaction", (*Server).setMessageReaction},
	"sendpoll":               {"sendPoll", (*Server).sendPoll},
	"stoppoll":               {"stopPoll", (*Server).stopPoll},
	"answercallbackquery":    {"answerCallbackQuery", (*Server).answerCallbackQuery},
	"answerinlinequery":      {"answerInlineQuery", (*Server).answerInlineQuery},
	"sendchataction":         {"sendChatAction", (*Server).sendChatAction},
	"setmycommands":          {"setMyCommands", (*Server).setMyCommands},
	"deletemycommands":       {"deleteMyCommands", (*Server).deleteMyCommands},
	"getmycommands":          {"getMyCommands", (*Server).getMyCommands},
	"setwebhook":             {"setWebhook", (*Server).setWebhook},
	"deletewebhook":          {"deleteWebhook", (*Server).deleteWebhook},
	"getwebhookinfo":         {"getWebhookInfo", (*Server).getWebhookInfo},
	"getchat":                {"getChat", (*Server).getChat},
	"getchatmember":          {"getChatMember", (*Server).getChatMember},
	"getfile":                {"getFile", (*Server).getFile},
}

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	at := time.Now()
	if rest, ok := strings.CutPrefix(r.URL.Path, "/file/bot"); ok {
		s.serveFile(w, r, rest)
		return
	}
	rest, ok := strings.CutPrefix(r.URL.Path, "/bot")
	token, method, ok2 := strings.Cut(rest, "/")
	if !ok || !ok2 || method == "" || strings.Contains(method, "/") {
		writeFailure(w, &Failure{Code: http.StatusNotFound, Description: "Not Found"})
		return
	}
	if token != s.opts.token {
		writeFailure(w, &Failure{Code: http.StatusUnauthorized, Description: "Unauthorized"})
		return
	}

	c := Call{Method: method, At: at}
	m, known := methods[strings.ToLower(method)]
	if known {
		c.Method = m.name
	}
	params, files, perr := parseRequest(r)
	c.Params, c.Files = params, files

	if !s.sleep(r.Context()) || !s.hold(r.Context(), c) {
		s.record(c, &Failure{Code: 499, Description: "client went away"})
		return
	}

	var (
		res      any
		news     []news
		recorded bool
	)
	f := perr
	if f == nil {
		f = s.injected(c)
	}
	if f == nil {
		switch {
		case !known:
			f = &Failure{Code: http.StatusNotFound, Description: "Not Found"}
		case m.h == nil:
			res, f = s.getUpdates(r.Context(), &c)
		default:
			// The call is recorded with its effect, under one lock: a test
			// that has seen the message it sent also sees the call.
			s.mu.Lock()
			res, f = m.h(s, &c)
			if r, ok := res.(sent); ok {
				res, news = r.value, s.tell(r.m)
			}
			c = s.recordLocked(c, f)
			recorded = true
			s.mu.Unlock()
		}
	}
	if !recorded {
		c = s.record(c, f)
	}
	for _, n := range news {
		n.fn(c.clone(), n.msg)
	}
	if f != nil {
		writeFailure(w, f)
		return
	}
	writeResult(w, res)
}

// sent is a handler's answer that is a message the call sent or edited:
// the Bot API answers with value, and OnMessage's watchers hear of m.
type sent struct {
	m     *message
	value any
}

// watcher is one OnMessage function.
type watcher struct{ fn func(Call, Msg) }

// news is what a watcher is to hear of a call.
type news struct {
	fn  func(Call, Msg)
	msg Msg
}

// OnMessage calls fn for every message a successful call sends or edits
// (sendMessage, sendPhoto, editMessageText, editMessageMedia, ..., edits of
// inline messages included), with the call as Calls records it and the
// message as the call left it, as Message returns it. fn runs on the
// goroutine serving the call, once the call is recorded and before the bot
// has its answer, so a test hears of a message the moment the fake has it,
// without polling; calls served at once may be reported in either order.
// fn may call the server, and should not block: the bot waits meanwhile.
// cancel stops the calls to fn.
func (s *Server) OnMessage(fn func(Call, Msg)) (cancel func()) {
	w := &watcher{fn: fn}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.watchers = append(s.watchers, w)
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.watchers = slices.DeleteFunc(s.watchers, func(x *watcher) bool { return x == w })
	}
}

// tell returns the news of m for each watcher. Callers hold s.mu.
func (s *Server) tell(m *message) []news {
	if len(s.watchers) == 0 {
		return nil
	}
	out := make([]news, len(s.watchers))
	for i, w := range s.watchers {
		out[i] = news{fn: w.fn, msg: s.export(m)}
	}
	return out
}

// sleep waits out the configured latency; false means the client went away.
func (s *Server) sleep(ctx context.Context) bool {
	s.mu.Lock()
	d := s.latency
	s.mu.Unlock()
	if d <= 0 {
		return true
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-ctx.Done():
		return false
	case <-s.done:
		return true
	}
}

// record appends an answered call, stamping its outcome, and returns it
// as recorded.
func (s *Server) record(c Call, f *Failure) Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.recordLocked(c, f)
}

// recordLocked is record with s.mu held.
func (s *Server) recordLocked(c Call, f *Failure) Call {
	c.Status = http.StatusOK
	if f != nil {
		c.Status, c.Error = f.Code, f.Description
	}
	s.calls = append(s.calls, c)
	s.notify()
	return c
}

// apiResponse is a failure's answer; writeResult writes a success's.
type apiResponse struct {
	OK          bool           `json:"ok"`
	ErrorCode   int            `json:"error_code,omitempty"`
	Description string         `json:"description,omitempty"`
	Parameters  *apiParameters `json:"parameters,omitempty"`
}

type apiParameters struct {
	MigrateToChatID int64 `json:"migrate_to_chat_id,omitempty"`
	RetryAfter      int   `json:"retry_after,omitempty"`
}

func writeResult(w http.ResponseWriter, res any) {
	var desc string
	if d, ok := res.(described); ok {
		res, desc = d.value, d.description
	}
	result := encodeJSON(res)
	b := make([]byte, 0, len(result)+len(desc)+48)
	b = append(b, `{"ok":true,"result":`...)
	b = append(b, result...)
	if desc != "" {
		b = append(b, `,"description":`...)
		b = append(b, encodeJSON(desc)...)
	}
	b = append(b, "}\n"...)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b)
}

func writeFailure(w http.ResponseWriter, f *Failure) {
	resp := apiResponse{ErrorCode: f.Code, Description: f.Description}
	if f.RetryAfter != 0 || f.MigrateToChatID != 0 {
		resp.Parameters = &apiParameters{RetryAfter: f.RetryAfter, MigrateToChatID: f.MigrateToChatID}
	}
	writeJSON(w, f.Code, resp)
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

// encodeJSON encodes v the way Telegram does: without null fields, which
// tgbotapi's types would otherwise emit for fields lacking omitempty.
func encodeJSON(v any) []byte {
	if e, ok := v.(encoded); ok {
		return e
	}
	b, err := json.Marshal(v)
	if err != nil {
		panic("telegramtest: encoding result: " + err.Error())
	}
	return dropNulls(b)
}

// dropNulls removes the members whose value is null from every object in
// b, which must be JSON as json.Marshal writes it (valid, no white space
// outside strings). Nulls in arrays stay. It works in place and returns
// the shortened b.
func dropNulls(b []byte) []byte {
	out := b[:0] // out never overtakes the reading position i
	for i := 0; i < len(b); {
		if b[i] != '"' {
			out = append(out, b[i])
			i++
			continue
		}
		j := i + 1 // past the string's closing quote, once found
		for b[j] != '"' {
			if b[j] == '\\' {
				j++
			}
			j++
		}
		j++
		// A string followed by a colon is a member's name.
		if k := j + 5; k < len(b) && b[j] == ':' && string(b[j+1:k]) == "null" && (b[k] == ',' || b[k] == '}') {
			switch {
			case out[len(out)-1] == ',':
				out = out[:len(out)-1] // a member before it: drop the comma between
			case b[k] == ',':
				k++ // the first member: drop the comma after it
			}
			i = k
			continue
		}
		out = append(out, b[i:j]...)
		i = j
	}
	return out
}
