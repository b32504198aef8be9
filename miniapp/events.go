package miniapp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/bashni/bashni/play"
)

// handleEvents streams the game to one board as server-sent events: the
// game as it is now, then again after every change, until the board goes
// away or the server stops (ctx). A board that reconnects (EventSource does
// by itself) gets the game as it is then, so nothing missed meanwhile is
// lost.
func (s *Server) handleEvents(ctx context.Context, w http.ResponseWriter, r *http.Request) {
	v, err := s.auth(r)
	if err != nil {
		s.fail(w, viewer{}, err)
		return
	}
	id := r.PathValue("id")
	st, err := s.streams.admit(v.user.ID, s.opts.ClientAddr(r))
	if err != nil {
		s.opts.Refused(refusalOf(err))
		s.fail(w, v, err)
		return
	}
	defer s.streams.release(st)
	rc := http.NewResponseController(w)
	// A stream's writes have a deadline each: a board that stopped reading
	// fills the socket's buffers, the write stalls, and the stream ends,
	// rather than being held with a growing send queue. The deadline is
	// the network's (the kernel measures it), not a decision about the
	// game, so it is set by the wall clock, not the service's.
	write := func(p []byte) error {
		if err := rc.SetWriteDeadline(time.Now().Add(s.streams.lim.WriteTimeout)); err != nil {
			return err
		}
		if _, err := w.Write(p); err != nil {
			return err
		}
		return rc.Flush()
	}
	// The connection may serve other requests after the stream: no
	// deadline left behind.
	defer func() { _ = rc.SetWriteDeadline(time.Time{}) }()
	// Subscribe before the first read: a change between the two is then
	// heard, not lost.
	changed, cancel := s.broker.Subscribe(id)
	defer cancel()
	g, err := s.svc.Game(r.Context(), id)
	if err != nil {
		s.fail(w, v, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no") // nginx: do not buffer the stream
	w.WriteHeader(http.StatusOK)

	var last []byte
	send := func(st state) error {
		data, err := json.Marshal(st)
		if err != nil {
			return err
		}
		// Bookkeeping writes (where the card is, notices) change nothing a
		// board shows: skip what the board already has.
		if bytes.Equal(data, last) {
			return nil
		}
		last = data
		return write(fmt.Appendf(nil, "event: state\ndata: %s\n\n", data))
	}
	// The board has reached its viewer: a live game's clock of the player
	// to move starts now if it is theirs and no card showed it first
	// (play/shown.go).
	show := func(g *play.Game) error {
		if err := send(s.state(g, v)); err != nil {
			return err
		}
		if err := s.svc.ShownGame(r.Context(), g, g.Version(), v.user.ID); err != nil {
			s.log.Warn("miniapp: a board shown, its clock not started", "game", id, "err", err)
		}
		return nil
	}
	if show(g) != nil {
		return
	}
	beat := time.NewTicker(s.opts.Heartbeat)
	defer beat.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-r.Context().Done():
			return
		case <-st.ended: // the user opened a newer stream; this one makes room
			return
		case <-beat.C:
			if write([]byte(": ping\n\n")) != nil {
				return
			}
		case <-changed:
			g, err := s.svc.Game(r.Context(), id)
			if err != nil {
				// The store is down or the game gone: the board keeps what it
				// has; EventSource reconnects after we end the stream.
				s.log.Warn("miniapp: reading a changed game failed", "game", id, "err", err)
				return
			}
			if show(g) != nil {
				return
			}
		}
	}
}
