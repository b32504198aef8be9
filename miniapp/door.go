package miniapp

import (
	"errors"
	"net/http"
)

// errChatBusy refuses a change to a game whose chat has too many of the
// bot's replies waiting to go out (Options.Admit): 429, with a reason the
// page can tell from other refusals.
var errChatBusy = errors.New("miniapp: the game's chat has too many replies waiting")

// reasonChatBusy is errorBody.Reason of errChatBusy.
const reasonChatBusy = "chat_busy"

// admit asks Options.Admit whether game id's chat takes more work, before
// the change is made: every change made here owes that chat replies (the
// card's edit, a draw offer's DM), and once stored they are sent,
// never dropped, so a flood of changes from the board is refused here
// rather than queued without end. It answers the refusal itself and
// reports false. A game that cannot be read is left to the handler.
func (s *Server) admit(w http.ResponseWriter, r *http.Request, v viewer) bool {
	if s.opts.Admit == nil {
		return true
	}
	g, err := s.svc.Game(r.Context(), r.PathValue("id"))
	if err != nil || g.ChatID() == 0 || s.opts.Admit(g.ChatID()) == nil {
		return true
	}
	st := s.state(g, v)
	writeJSON(w, statusOf(errChatBusy), errorBody{Error: s.texts.T(v.lang, "chat_busy"), Reason: reasonChatBusy, State: &st})
	return false
}
