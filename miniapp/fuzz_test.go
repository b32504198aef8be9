package miniapp

import (
	"encoding/json"
	"errors"
	"net/http"
	"testing"

	"github.com/bashni/bashni/rules"
)

// Any body either decodes to a move the service may be asked about (a
// ply, a short non-empty text) or is refused as a bad request; nothing
// panics and nothing in between gets through.
func FuzzDecodeMove(f *testing.F) {
	for _, s := range []string{
		`{"ply":0,"move":"c3-d4"}`, `{"ply":3,"move":"c3:e5:c7"}`, `{"ply":-1,"move":"c3-d4"}`,
		`{"ply":0,"move":""}`, `{"ply":0}`, `{"ply":0,"move":"c3-d4","x":1}`, `{"ply":0,"move":"c3-d4"}{}`,
		`{"ply":1e3,"move":"a"}`, `[]`, `null`, ``, `{"ply":"0","move":"c3-d4"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		req, err := decodeMove(body)
		if err != nil {
			if !errors.Is(err, errBadRequest) {
				t.Fatalf("error %v is not a bad request", err)
			}
			return
		}
		if req.Ply < 0 || req.Move == "" || len(req.Move) > maxMoveText {
			t.Fatalf("accepted %+v", req)
		}
		// What was accepted round-trips: the body said exactly this.
		again, err := json.Marshal(req)
		if err != nil {
			t.Fatal(err)
		}
		if back, err := decodeMove(again); err != nil || back != req {
			t.Fatalf("%+v does not round-trip: %+v, %v", req, back, err)
		}
	})
}

// The whole move API under any body, as the player to move: a 200 plays
// exactly one move; anything else is a clear 4xx and changes nothing.
func FuzzMoveAPI(f *testing.F) {
	for _, s := range []string{
		`{"ply":0,"move":"c3-d4"}`, `{"ply":0,"move":"c3:e5"}`, `{"ply":7,"move":"c3-d4"}`, `{"ply":0,"move":"C3 D4"}`,
		`{"ply":0,"move":"c3x"}`, `{"ply":0,"move":"zz-zz"}`, `{"move":"a3-b4"}`, `{`, `{"ply":0,"move":"а3-b4"}`,
	} {
		f.Add([]byte(s))
	}
	h := newHarness(f, nil)
	r := h.reps[0]
	f.Fuzz(func(t *testing.T, body []byte) {
		h.t = t // the harness's helpers report to this input's test
		before := h.stored()
		if !before.Active() {
			g, err := h.newGame(gameSpec{})
			if err != nil {
				t.Fatal(err)
			}
			h.gameID, before = g.ID(), g
		}
		mover := h.alice
		if c, _ := before.ToMove(); c == rules.Black {
			mover = h.bob
		}
		var st state
		code := h.call(r, "POST", "/api/games/"+h.gameID+"/move", h.initData(mover), string(body), &st)
		after := h.stored()
		switch code {
		case http.StatusOK:
			if after.Ply() != before.Ply()+1 || st.Ply != after.Ply() {
				t.Fatalf("200 for %q: ply %d -> %d (state %d)", body, before.Ply(), after.Ply(), st.Ply)
			}
		case http.StatusBadRequest, http.StatusConflict, http.StatusUnprocessableEntity:
			if after.Ply() != before.Ply() || after.Version() != before.Version() {
				t.Fatalf("%d for %q changed the game: ply %d -> %d", code, body, before.Ply(), after.Ply())
			}
		default:
			t.Fatalf("%q: status %d", body, code)
		}
	})
}
