package tournament_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/play/tournament"
	"github.com/bashni/bashni/storage"
)

// longestName is the longest display name Telegram allows: a first name
// and a last name of 64 characters each, here characters that count two
// UTF-16 units (as Telegram counts a text) and one that HTML escapes.
func longestName(i int) string {
	first := fmt.Sprintf("%02d", i) + strings.Repeat("😀", 62)
	return first + " " + strings.Repeat("&", 64)
}

// newTourLimitsRig is a live bot process on a bbolt store with
// tournaments, talking to the fake Bot API, which refuses a text over
// Telegram's limits as Telegram does.
func newTourLimitsRig(t *testing.T, ctx context.Context) *eventsRig {
	t.Helper()
	r := newRig(t)
	r.group = telegramtest.GroupChat(-1005550077, "Arena club")
	r.alice = telegramtest.User(11, strings.Repeat("😀", 64), "alice", "en")
	r.alice.LastName = strings.Repeat("&", 64)
	return r
}

// A tournament's group card with 40 players of the longest names Telegram
// allows, and the final standings of 16 such players with 13 games each,
// are taken by Telegram (the fake refuses what Telegram refuses): the
// lists are cut to their top with "… and N more". The final is recorded
// shown once Telegram took it, and not when Telegram refused it.
func TestTourTextsAtTheirWorstAreShown(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := newTourLimitsRig(t, ctx)
	b, out := r.live(t, ctx, "live")

	b.Handle(ctx, r.srv.TextMessage(r.group, r.alice, "/tournament 5+3 1h"))
	settle(t, ctx, b, out)
	tour, err := r.tours.Current(ctx, r.group.ID)
	if err != nil || tour.MessageID == 0 {
		t.Fatalf("the tournament and its card: %+v, %v", tour, err)
	}
	for i := range 40 {
		if _, err := r.tours.Join(ctx, r.group.ID, tour.ID, storage.Player{UserID: int64(100 + i), Name: longestName(i)}, "en"); err != nil {
			t.Fatal(err)
		}
	}
	r.clock.Advance(10 * time.Second) // the card's next edit is due; no game is posted again yet
	b.ClockTick(ctx)
	settle(t, ctx, b, out)
	var cardText string
	for _, m := range r.srv.Messages(r.group.ID) {
		if m.ID == tour.MessageID {
			cardText = m.Text
		}
	}
	if !strings.Contains(cardText, "1. "+longestName(0)) || !strings.Contains(cardText, "more") || strings.Contains(cardText, "Nobody has joined") {
		t.Errorf("the card with 40 players of the longest names was not shown, or not cut to its top:\n%s", cardText)
	}

	// Another group's tournament is over: 16 such players, 13 games each.
	other := telegramtest.GroupChat(-1005550078, "Big arena")
	final, err := r.tours.Start(ctx, tournament.Request{ChatID: other.ID, By: storage.Player{UserID: 100, Name: longestName(0)},
		TimeControl: "3+2", Duration: time.Hour, Lang: "ru"})
	if err != nil {
		t.Fatal(err)
	}
	rec := final.Tournament
	rec.Status, rec.FinalAt = storage.TournamentFinished, r.clock.Now().Add(-time.Minute)
	for i := range 16 {
		p := storage.TourPlayer{UserID: int64(200 + i), Name: longestName(i)}
		for j := range 13 {
			p.Results += string("WDL"[(i+j)%3])
			p.Opps = append(p.Opps, int64(200+(i+j+1)%16))
		}
		rec.Players = append(rec.Players, p)
	}
	if err := r.store.UpdateTournament(ctx, &rec); err != nil {
		t.Fatal(err)
	}
	// Telegram refuses the first copy: not recorded shown, owed again.
	r.srv.FailNext("sendMessage", 1, telegramtest.Failure{Code: 400, Description: "Bad Request: something went wrong"})
	b.ClockTick(ctx)
	settle(t, ctx, b, out)
	if got, err := r.tours.Current(ctx, other.ID); err != nil || got.FinalShown {
		t.Fatalf("the final Telegram refused: shown %v, %v; want it not recorded shown", got.FinalShown, err)
	}
	shown := func() string {
		for _, m := range r.srv.Messages(other.ID) {
			if m.FromBot && strings.Contains(m.Text, "окончена") {
				return m.Text
			}
		}
		return ""
	}
	if text := shown(); text != "" {
		t.Fatalf("a refused final is in the chat:\n%s", text)
	}
	text := finalShownAfterRefusal(t, ctx, r, other.ID, func() { b.ClockTick(ctx); settle(t, ctx, b, out) })
	if !strings.Contains(text, "🥇 "+longestName(0)) && !strings.Contains(text, "🥇") || !strings.Contains(text, "ещё") {
		t.Errorf("the final of 16 players with 13 games each, not cut to its top:\n%s", text)
	}
	finals := 0
	for _, m := range r.srv.Messages(other.ID) {
		if m.FromBot && strings.Contains(m.Text, "окончена") {
			finals++
		}
	}
	if finals != 1 {
		t.Errorf("%d finals in the chat, want one", finals)
	}
}

// finalShownAfterRefusal: the clock shows the final again, Telegram takes
// it, and it is recorded shown.
func finalShownAfterRefusal(t *testing.T, ctx context.Context, r *eventsRig, chatID int64, tick func()) string {
	t.Helper()
	r.clock.Advance(10 * time.Second)
	tick()
	if got, err := r.tours.Current(ctx, chatID); err != nil || !got.FinalShown {
		t.Fatalf("the final after Telegram took it: shown %v, %v; want it recorded shown", got.FinalShown, err)
	}
	for _, m := range r.srv.Messages(chatID) {
		if m.FromBot && strings.Contains(m.Text, "окончена") {
			return m.Text
		}
	}
	t.Fatal("no final standings in the chat")
	return ""
}
