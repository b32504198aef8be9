package miniapp

import (
	"encoding/json"
	"errors"
	"testing"
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
