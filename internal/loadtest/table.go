package loadtest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot"
)

// table is one group where two players play game after game.
type table struct {
	r       *runner
	chat    tgbotapi.Chat
	players [2]tgbotapi.User // players[0] is White in the first game
	rng     *rand.Rand
	events  <-chan event

	card  int // message id of the current game's card
	white int // index of White in players; a rematch swaps colours
	ply   int // board version the card shows
	kb    []bot.Callback
	data  []string // kb's button data, in the same order
	games []Game

	taps, moves []time.Duration
	err         error
}

// each runs fn for every table at once and waits for them all.
func each(tables []*table, fn func(t *table)) {
	var wg sync.WaitGroup
	for _, t := range tables {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(t)
		}()
	}
	wg.Wait()
}

// play taps until deadline, then finishes the tap under way.
func (t *table) play(ctx context.Context, deadline time.Time) error {
	for time.Now().Before(deadline) {
		if err := ctx.Err(); err != nil {
			return err
		}
		if i := t.button(bot.KindRematch); i >= 0 {
			if err := t.rematch(ctx, t.data[i]); err != nil {
				return err
			}
			continue
		}
		if err := t.tap(ctx); err != nil {
			return err
		}
	}
	return nil
}

// start: the first player challenges, the second accepts.
func (t *table) start(ctx context.Context) error {
	fake := t.r.fake
	if err := t.r.deliver(ctx, t.rng, fake.TextMessage(t.chat, t.players[0], "/challenge white")); err != nil {
		return err
	}
	var accept string
	ev, err := t.await(ctx, "a challenge", func(ev event) bool {
		if ev.method != "sendMessage" {
			return false
		}
		accept = findKind(ev.markup, bot.KindAccept)
		return accept != ""
	})
	if err != nil {
		return err
	}
	if err := t.r.deliver(ctx, t.rng, fake.CallbackQuery(t.chat, t.players[1], ev.messageID, accept)); err != nil {
		return err
	}
	return t.awaitCard(ctx, 0)
}

// rematch taps Rematch as the first player, which offers it, accepts the
// offer as the second, and waits for the new game's card.
func (t *table) rematch(ctx context.Context, data string) error {
	if err := t.r.deliver(ctx, t.rng, t.r.fake.CallbackQuery(t.chat, t.players[0], t.card, data)); err != nil {
		return err
	}
	var accept string
	if _, err := t.await(ctx, "the rematch offer on the card", func(ev event) bool {
		if ev.messageID != t.card {
			return false
		}
		accept = findKind(ev.markup, bot.KindRematchOK)
		return accept != ""
	}); err != nil {
		return err
	}
	if err := t.r.deliver(ctx, t.rng, t.r.fake.CallbackQuery(t.chat, t.players[1], t.card, accept)); err != nil {
		return err
	}
	return t.awaitCard(ctx, 1-t.white)
}

// awaitCard waits for a new game's card, White being players[white].
func (t *table) awaitCard(ctx context.Context, white int) error {
	ev, err := t.await(ctx, "a new card", func(ev event) bool {
		return ev.method == "sendPhoto" && findKind(ev.markup, bot.KindPick) != ""
	})
	if err != nil {
		return err
	}
	t.card, t.white = ev.messageID, white
	t.show(ev.markup)
	cb, _ := bot.ParseCallback(findKind(ev.markup, bot.KindPick))
	t.games = append(t.games, Game{ID: cb.ID, ChatID: t.chat.ID})
	return nil
}

// tap presses a random picker button (not Back) as the player to move and
// waits until the card shows the result.
func (t *table) tap(ctx context.Context) error {
	var picks []int
	for i, cb := range t.kb {
		if cb.Kind == bot.KindPick && cb.Arg != "" {
			picks = append(picks, i)
		}
	}
	if len(picks) == 0 {
		return fmt.Errorf("card %d shows neither a picker nor Rematch: %v", t.card, t.data)
	}
	data := t.data[picks[t.rng.IntN(len(picks))]]
	mover := t.players[t.white]
	if t.ply%2 == 1 {
		mover = t.players[1-t.white]
	}
	u := t.r.fake.CallbackQuery(t.chat, mover, t.card, data)
	tapped := time.Now()
	if err := t.r.deliver(ctx, t.rng, u); err != nil {
		return err
	}
	// A move redraws the card; a pick within a quiet move changes only its
	// buttons (a capture's picks redraw it with the landing squares).
	ev, err := t.await(ctx, fmt.Sprintf("the card updated after tap %q", data), func(ev event) bool {
		return (ev.method == "editMessageMedia" || ev.method == "editMessageReplyMarkup") && ev.messageID == t.card
	})
	if err != nil {
		return err
	}
	took := ev.at.Sub(tapped)
	t.taps = append(t.taps, took)
	before := t.ply
	t.show(ev.markup)
	switch {
	case t.ply > before+1:
		return fmt.Errorf("card %d went from ply %d to %d on one tap", t.card, before, t.ply)
	case t.ply == before+1 || t.ply < 0:
		t.moves = append(t.moves, took)
		t.games[len(t.games)-1].Moves++
		if t.ply < 0 {
			t.games[len(t.games)-1].Over = true
		}
	case t.ply < before:
		return fmt.Errorf("card %d went back from ply %d to %d", t.card, before, t.ply)
	}
	return nil
}

// show takes in the card's keyboard: its buttons and the board's version
// (-1 once the game is over).
func (t *table) show(kb *tgbotapi.InlineKeyboardMarkup) {
	t.kb, t.data, t.ply = t.kb[:0], t.data[:0], -1
	if kb == nil {
		return
	}
	for _, row := range kb.InlineKeyboard {
		for _, b := range row {
			if b.CallbackData == nil {
				continue
			}
			cb, err := bot.ParseCallback(*b.CallbackData)
			if err != nil {
				continue
			}
			t.kb, t.data = append(t.kb, cb), append(t.data, *b.CallbackData)
			if cb.Kind == bot.KindPick {
				t.ply = cb.Ply
			}
		}
	}
}

// button returns the index of the first button of a kind, or -1.
func (t *table) button(kind string) int {
	return slices.IndexFunc(t.kb, func(cb bot.Callback) bool { return cb.Kind == kind })
}

// await returns the first event of the table's chat that matches.
func (t *table) await(ctx context.Context, what string, match func(event) bool) (event, error) {
	timer := time.NewTimer(t.r.opts.Timeout)
	defer timer.Stop()
	for {
		select {
		case ev := <-t.events:
			if match(ev) {
				return ev, nil
			}
		case <-timer.C:
			return event{}, fmt.Errorf("no %s within %v", what, t.r.opts.Timeout)
		case <-ctx.Done():
			return event{}, ctx.Err()
		}
	}
}

// findKind returns the data of the first button of a kind.
func findKind(kb *tgbotapi.InlineKeyboardMarkup, kind string) string {
	if kb == nil {
		return ""
	}
	for _, row := range kb.InlineKeyboard {
		for _, b := range row {
			if b.CallbackData == nil {
				continue
			}
			if cb, err := bot.ParseCallback(*b.CallbackData); err == nil && cb.Kind == kind && (kind != bot.KindPick || cb.Arg != "") {
				return *b.CallbackData
			}
		}
	}
	return ""
}
