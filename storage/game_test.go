package storage

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"
	"time"
)

func TestDeadline(t *testing.T) {
	t1 := time.Now().UTC().Round(0)
	t2 := t1.Add(time.Hour)
	tests := []struct {
		name                    string
		remind, timeout, notice time.Time
		want                    time.Time
	}{
		{"none", time.Time{}, time.Time{}, time.Time{}, time.Time{}},
		{"reminder only", t1, time.Time{}, time.Time{}, t1},
		{"timeout only", time.Time{}, t2, time.Time{}, t2},
		{"reminder first", t1, t2, time.Time{}, t1},
		{"timeout first", t2, t1, time.Time{}, t1},
		{"same time", t1, t1, time.Time{}, t1},
		{"notice only", time.Time{}, time.Time{}, t2, t2},
		{"notice first", t2, t2, t1, t1},
		{"notice last", t1, t1, t2, t1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := GameRecord{RemindAt: tc.remind, TimeoutAt: tc.timeout, NoticeAt: tc.notice}
			if got := g.Deadline(); !got.Equal(tc.want) {
				t.Errorf("Deadline(): got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestHumanIDs(t *testing.T) {
	tests := []struct {
		name         string
		white, black Player
		want         []int64
	}{
		{"two humans", Player{UserID: 1}, Player{UserID: 2}, []int64{1, 2}},
		{"against the AI", Player{UserID: 1}, Player{AILevel: 3}, []int64{1}},
		{"AI with an id", Player{UserID: 9, AILevel: 1}, Player{UserID: 2}, []int64{2}},
		{"against oneself", Player{UserID: 5}, Player{UserID: 5}, []int64{5}},
		{"AI against AI", Player{AILevel: 1}, Player{AILevel: 2}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := GameRecord{White: tc.white, Black: tc.black}
			if got := g.HumanIDs(); !slices.Equal(got, tc.want) {
				t.Errorf("HumanIDs(): got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestUsernameKey(t *testing.T) {
	tests := map[string]string{
		"Alice": "alice", "@Alice": "alice", " @BOB_1 ": "bob_1", "": "", "@": "",
	}
	for in, want := range tests {
		if got := UsernameKey(in); got != want {
			t.Errorf("UsernameKey(%q): got %q, want %q", in, got, want)
		}
	}
}

// Stored records outlive the code that wrote them: a record written today
// must read back the same after fields are renamed in Go, and a record
// lacking a field added later must read as that field's zero value. This
// document is what stores hold; change it only with a migration.
func TestStoredGameFormat(t *testing.T) {
	const stored = `{"id":"g1","variant":"bashni",` +
		`"white":{"user_id":1,"name":"Ann"},"black":{"name":"Bot","ai_level":3},` +
		`"start":"S","moves":["c3-d4"],"position":"P","status":"finished","result":"1-0","reason":"resign",` +
		`"version":7,"created_at":"2026-03-01T10:00:00Z","updated_at":"2026-03-01T11:00:00Z",` +
		`"chat_id":-100,"message_id":5,"inline_message_id":"IM","draw_offer_by":1,` +
		`"remind_at":"2026-03-02T10:00:00Z","timeout_at":"2026-03-03T10:00:00Z","reminders":2,` +
		`"notices":{"1":77},"rated":true,"lang":"ru","added_later":"ignored"}`
	// The dates are data in a stored record, compared as written; no
	// clock reads them.
	t1 := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	want := GameRecord{
		ID: "g1", Variant: "bashni",
		White: Player{UserID: 1, Name: "Ann"}, Black: Player{Name: "Bot", AILevel: 3},
		Start: "S", Moves: []string{"c3-d4"}, Position: "P", Status: GameFinished, Result: "1-0", Reason: "resign",
		Version: 7, CreatedAt: t1, UpdatedAt: t1.Add(time.Hour),
		ChatID: -100, MessageID: 5, InlineMessageID: "IM", DrawOfferBy: 1,
		RemindAt: t1.Add(24 * time.Hour), TimeoutAt: t1.Add(48 * time.Hour), Reminders: 2,
		Notices: map[int64]int{1: 77}, Rated: true, Lang: "ru",
	}
	var got GameRecord
	if err := json.Unmarshal([]byte(stored), &got); err != nil {
		t.Fatalf("decode: %v", err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("decoded:\n got %+v\nwant %+v", got, want)
	}

	var minimal GameRecord
	if err := json.Unmarshal([]byte(`{"id":"old","status":"active","version":1}`), &minimal); err != nil {
		t.Fatalf("decode minimal: %v", err)
	}
	if !reflect.DeepEqual(minimal, GameRecord{ID: "old", Status: GameActive, Version: 1}) {
		t.Errorf("decoded minimal record: got %+v", minimal)
	}
}

// A team game's vote closing is a deadline like the others, and a clone
// shares none of the vote's ballots or turns.
func TestTeamGameDeadlineAndClone(t *testing.T) {
	t1 := time.Now().UTC().Round(0)
	g := GameRecord{TimeoutAt: t1.Add(time.Hour), Team: &TeamGame{Window: time.Minute, ClosesAt: t1,
		Ballots: []Ballot{{UserID: 1, Move: "c3-d4"}},
		Turns:   []TeamTurn{{Ply: 0, Move: "c3-d4", For: []Ballot{{UserID: 1, Move: "c3-d4"}}, Others: []Ballot{{UserID: 2, Move: "a3-b4"}}}}}}
	if got := g.Deadline(); !got.Equal(t1) {
		t.Errorf("Deadline() = %v, want the vote's closing %v", got, t1)
	}
	c := g.Clone()
	c.Team.Ballots[0].Move = "x"
	c.Team.Turns[0].For[0].Move = "x"
	c.Team.Turns[0].Others[0].Move = "x"
	c.Team.ClosesAt = time.Time{}
	if g.Team.Ballots[0].Move != "c3-d4" || g.Team.Turns[0].For[0].Move != "c3-d4" || g.Team.Turns[0].Others[0].Move != "a3-b4" || !g.Team.ClosesAt.Equal(t1) {
		t.Errorf("changing the clone changed the original: %+v", g.Team)
	}
	data, err := json.Marshal(&g)
	if err != nil {
		t.Fatal(err)
	}
	var back GameRecord
	if err := json.Unmarshal(data, &back); err != nil || !reflect.DeepEqual(back.Team, g.Team) {
		t.Errorf("team state does not round-trip: %+v, %v", back.Team, err)
	}
}

// A feature's part of the record round-trips and a clone shares none of
// it.
func TestFeaturesCloneAndRoundTrip(t *testing.T) {
	g := GameRecord{Features: map[string]json.RawMessage{"manners": json.RawMessage(`{"by":1}`)}}
	c := g.Clone()
	c.Features["manners"][2] = 'X'
	c.Features["other"] = json.RawMessage(`1`)
	if string(g.Features["manners"]) != `{"by":1}` || len(g.Features) != 1 {
		t.Errorf("changing the clone changed the original: %s", g.Features)
	}
	data, err := json.Marshal(&g)
	if err != nil {
		t.Fatal(err)
	}
	var back GameRecord
	if err := json.Unmarshal(data, &back); err != nil || string(back.Features["manners"]) != `{"by":1}` {
		t.Errorf("features do not round-trip: %s, %v", back.Features, err)
	}
}
