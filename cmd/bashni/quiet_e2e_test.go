package main

import (
	"strings"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/internal/testkit"
)

// groupPosts counts the new messages the bot posted to a chat (text and
// photos): what a group's twenty messages a minute are spent on, besides
// edits.
func groupPosts(srv *telegramtest.Server, chatID int64) int {
	n := 0
	for _, method := range []string{"sendMessage", "sendPhoto"} {
		for _, c := range srv.CallsTo(method) {
			if c.ChatID() == chatID {
				n++
			}
		}
	}
	return n
}

// A draw offered and declined in a group costs the group no new message:
// the offer and its refusal are shown on the card, and the one asked, who
// has started the bot, is told in their private chat. A move after the
// refusal is the check that nothing was still on its way: a chat's replies
// go out in order.
func TestE2EGroupDrawOfferIsQuiet(t *testing.T) {
	srv := telegramtest.New(t)
	clock := testkit.NewClock(time.Now())
	// Turn notices only after an hour the clock never reaches: the
	// messages counted are the draw's alone.
	vars := withDefaults(t, srv, map[string]string{"BASHNI_CLOCK_INTERVAL": "20ms", "BASHNI_NOTICE_DELAY": "1h"})
	startClockedWithLogs(t, srv, clock, vars)
	group := telegramtest.GroupChat(-1003700000001, "Club")
	alice, bob := newUser(3701, "Alice", "en"), newUser(3702, "Bob", "en")
	say(srv, alice.chat, alice, "/start")
	waitMessage(t, srv, alice.chat.ID, "the greeting", func(m telegramtest.Msg) bool { return m.FromBot })
	c := startGroupGame(t, srv, group, alice, bob)
	waitTurn(t, srv, group.ID, c.ID)
	before := groupPosts(srv, group.ID)

	say(srv, group, bob, "/draw")
	offer := waitMessage(t, srv, group.ID, "the offer on the card", func(m telegramtest.Msg) bool {
		return m.ID == c.ID && buttonData(m, "dn|") != ""
	})
	if !strings.Contains(offer.Text, "🤝 Bob offers a draw") {
		t.Errorf("the card with the offer says:\n%s", offer.Text)
	}
	if toast := tap(t, srv, group, alice, c.ID, buttonData(offer, "dn|")); toast != "" {
		t.Fatalf("Alice's decline refused: %s", toast)
	}
	refused := waitMessage(t, srv, group.ID, "the card without the offer", func(m telegramtest.Msg) bool {
		return m.ID == c.ID && buttonData(m, "dn|") == "" && m.Edits > offer.Edits
	})
	const declined = "🤝 Alice declined the draw"
	if !strings.Contains(refused.Text, declined) {
		t.Errorf("the card after the decline says:\n%s\nwant %q", refused.Text, declined)
	}
	pickFirstMove(t, srv, group, alice, c.ID)
	if got := groupPosts(srv, group.ID) - before; got != 0 {
		var texts []string
		for _, m := range srv.Messages(group.ID) {
			if m.FromBot && m.ID > c.ID {
				texts = append(texts, m.Text)
			}
		}
		t.Errorf("a draw offered and declined posted %d new messages to the group; want 0: %q", got, texts)
	}
	if moved := card(t, srv, group.ID, c.ID); strings.Contains(moved.Text, declined) {
		t.Errorf("the card still says the draw was declined after the next move:\n%s", moved.Text)
	}
	waitMessage(t, srv, alice.chat.ID, "the offer told in Alice's private chat", func(m telegramtest.Msg) bool {
		return m.FromBot && strings.Contains(m.Text, "Bob offers you a draw")
	})

	// Bob never started the bot: Alice's offer is on the card, and his
	// turn mention, when he is away long enough to be sent one, says so.
	say(srv, group, alice, "/draw")
	waitMessage(t, srv, group.ID, "Alice's offer on the card", func(m telegramtest.Msg) bool {
		return m.ID == c.ID && strings.Contains(m.Text, "🤝 Alice offers a draw")
	})
	clock.Advance(2 * time.Hour)
	waitMessage(t, srv, group.ID, "Bob's turn mention with the offer", func(m telegramtest.Msg) bool {
		return m.FromBot && m.ID > c.ID && strings.Contains(m.Text, "Bob, your move") && strings.Contains(m.Text, "🤝 Alice offers a draw")
	})
	if got := groupPosts(srv, group.ID) - before; got != 1 {
		t.Errorf("Alice's offer and Bob's turn mention posted %d new messages to the group; want 1, the mention", got)
	}
}

// A tournament game is played on two cards, each in its player's private
// chat; each card offers move buttons only while its own player is to
// move, so a tap on the opponent's buttons, made as the board changes,
// cannot cost a live game its clock.
func TestE2ETournamentCardPickerOnlyForTheMover(t *testing.T) {
	srv := telegramtest.New(t)
	clock := testkit.NewClock(time.Now())
	vars := withDefaults(t, srv, map[string]string{"BASHNI_CLOCK_INTERVAL": "20ms"})
	startClockedWithLogs(t, srv, clock, vars)
	group := telegramtest.GroupChat(-1003700000002, "Arena club")
	alice, boris := newUser(3711, "Alice", "en"), newUser(3712, "Boris", "en")
	for _, u := range []user{alice, boris} {
		say(srv, u.chat, u, "/start")
		waitMessage(t, srv, u.chat.ID, "the greeting", func(m telegramtest.Msg) bool { return m.FromBot })
	}
	say(srv, group, alice, "/tournament 1+0 15m")
	tc := waitMessage(t, srv, group.ID, "the tournament card", func(m telegramtest.Msg) bool {
		return m.FromBot && strings.Contains(m.Text, "Arena 1+0")
	})
	join := tourButton(t, tc, "tj")
	tap(t, srv, group, alice, tc.ID, join)
	tap(t, srv, group, boris, tc.ID, join)
	aCard := tourGameCard(t, srv, alice, 0, "Alice's game")
	bCard := tourGameCard(t, srv, boris, 0, "Boris's game")
	pickable := func(m telegramtest.Msg) bool { return firstPick(m) != "" }
	// A card is recorded with its game once Telegram has answered for it,
	// and a chat's next message is sent only after that: an answer to
	// /games after each card means both are recorded, so Alice's move
	// edits Boris's card rather than racing its record.
	for _, c := range []struct {
		u    user
		card telegramtest.Msg
	}{{alice, aCard}, {boris, bCard}} {
		say(srv, c.u.chat, c.u, "/games")
		waitMessage(t, srv, c.u.chat.ID, c.u.u.FirstName+"'s /games answered", func(m telegramtest.Msg) bool {
			return m.FromBot && m.ID > c.card.ID
		})
	}

	if !pickable(aCard) {
		t.Errorf("Alice (White) is to move and her card has no move buttons: %v", buttons(aCard))
	}
	if pickable(bCard) {
		t.Errorf("Alice is to move and Boris's card offers move buttons: %v", buttons(bCard))
	}
	pickFirstMove(t, srv, alice.chat, alice, aCard.ID)
	bTurn := waitMessage(t, srv, boris.chat.ID, "Boris's card on his move", func(m telegramtest.Msg) bool {
		return m.ID == bCard.ID && strings.Contains(m.Text, "Black to move") && pickable(m)
	})
	aWait := waitMessage(t, srv, alice.chat.ID, "Alice's card on Boris's move", func(m telegramtest.Msg) bool {
		return m.ID == aCard.ID && strings.Contains(m.Text, "Black to move")
	})
	if pickable(aWait) {
		t.Errorf("Boris is to move and Alice's card offers his move buttons: %v", buttons(aWait))
	}
	// Boris's move brings Alice's buttons back, and takes his away.
	pickFirstMove(t, srv, boris.chat, boris, bTurn.ID)
	waitMessage(t, srv, alice.chat.ID, "Alice's card on her move", func(m telegramtest.Msg) bool {
		return m.ID == aCard.ID && strings.Contains(m.Text, "White to move") && pickable(m)
	})
	if m := waitMessage(t, srv, boris.chat.ID, "Boris's card on Alice's move", func(m telegramtest.Msg) bool {
		return m.ID == bCard.ID && strings.Contains(m.Text, "White to move")
	}); pickable(m) {
		t.Errorf("Alice is to move again and Boris's card offers her move buttons: %v", buttons(m))
	}
}
