package main

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/telegramtest"
)

// A player who blocked the bot (Telegram answers 403) is no longer sent
// DMs: their turn notices become mentions in the group. /board re-posts the
// card at the bottom and the old card loses its keyboard.
func TestE2EBlockedUserAndBoardRepost(t *testing.T) {
	srv := telegramtest.New(t)
	startBot(t, srv, nil)
	group := telegramtest.GroupChat(-1007777777777, "Club")
	alice, bob := newUser(801, "Alice", "en"), newUser(802, "Bob", "en")
	say(srv, bob.chat, bob, "/start")
	waitMessage(t, srv, bob.chat.ID, "greeting", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "Welcome") })

	say(srv, group, alice, "/challenge white")
	ch := waitMessage(t, srv, group.ID, "challenge", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "challenges anyone") })
	tap(t, srv, group, bob, ch.ID, buttons(ch)[0][1])
	c := waitMessage(t, srv, group.ID, "board card", func(m telegramtest.Msg) bool { return m.Kind == "photo" })
	waitTurn(t, srv, group.ID, c.ID)

	// Bob has blocked the bot: his DM fails with 403.
	srv.FailWhen(func(call telegramtest.Call) bool {
		return call.Method == "sendMessage" && call.ChatID() == bob.chat.ID
	}, telegramtest.Forbidden())
	pickFirstMove(t, srv, group, alice, c.ID)
	srv.WaitFor(t, 10*time.Second, func(call telegramtest.Call) bool {
		return call.Method == "sendMessage" && call.ChatID() == bob.chat.ID && call.Status == 403
	})
	// Bob answers; Alice moves again; now Bob's notice is a mention.
	srv.PushUpdate(srv.ReplyMessage(group, bob.u, c.ID, "f6-e5"))
	waitTurn(t, srv, group.ID, c.ID)
	waitMessage(t, srv, group.ID, "Alice's mention", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "Alice, your move") })
	dmsBefore := len(srv.CallsTo("sendMessage"))
	pickFirstMove(t, srv, group, alice, c.ID)
	waitMessage(t, srv, group.ID, "Bob's mention", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "Bob, your move") })
	for _, call := range srv.CallsTo("sendMessage")[dmsBefore:] {
		if call.ChatID() == bob.chat.ID {
			t.Errorf("a DM was sent to Bob after he blocked the bot: %s", call)
		}
	}

	// /board: a new card at the bottom; the old one keeps no buttons.
	say(srv, group, bob, "/board")
	fresh := waitMessage(t, srv, group.ID, "re-posted card", func(m telegramtest.Msg) bool { return m.Kind == "photo" && m.ID > c.ID })
	waitMessage(t, srv, group.ID, "old card stripped", func(m telegramtest.Msg) bool { return m.ID == c.ID && len(buttons(m)) == 0 })
	waitTurn(t, srv, group.ID, fresh.ID)
	srv.PushUpdate(srv.ReplyMessage(group, bob.u, fresh.ID, "/m h6-g5"))
	waitMessage(t, srv, group.ID, "the new card shows Bob's move", func(m telegramtest.Msg) bool {
		return m.ID == fresh.ID && strings.Contains(m.Text, "Last: ") && strings.HasSuffix(lastLine(m.Text), "h6-g5")
	})
}

// A move made a moment after /board, while the new card is still on its
// way to Telegram, is shown on the new card, and the old card (about to
// lose its buttons) is not edited.
func TestE2EMoveDuringBoardRepostLandsOnTheNewCard(t *testing.T) {
	srv := telegramtest.New(t)
	startBot(t, srv, nil)
	group := telegramtest.GroupChat(-1007777777778, "Club")
	alice, bob := newUser(811, "Alice", "en"), newUser(812, "Bob", "en")
	// Bob has started the bot: his turn notice is a DM, which the held
	// group chat does not hold up.
	say(srv, bob.chat, bob, "/start")
	waitMessage(t, srv, bob.chat.ID, "greeting", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "Welcome") })
	c := startGroupGame(t, srv, group, alice, bob)
	waitTurn(t, srv, group.ID, c.ID)

	held, release := srv.HoldWhen(func(call telegramtest.Call) bool {
		return call.Method == "sendPhoto" && call.ChatID() == group.ID
	})
	say(srv, group, bob, "/board")
	<-held // the new card is on its way
	editsBefore := len(srv.CallsTo("editMessageMedia"))
	say(srv, group, alice, "/m c3-d4")
	waitMessage(t, srv, bob.chat.ID, "Bob's turn notice", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "c3-d4") })
	for _, call := range srv.CallsTo("editMessageMedia")[editsBefore:] {
		if call.MessageID() == c.ID {
			t.Errorf("the old card was edited while the new one was on its way: %s", call)
		}
	}
	release()
	waitMessage(t, srv, group.ID, "the new card shows the move", func(m telegramtest.Msg) bool {
		return m.Kind == "photo" && m.ID > c.ID && strings.Contains(m.Text, "Last:") && strings.Contains(m.Text, "c3-d4")
	})
}

// A /board sent while the game's first card is still on its way: the
// first card's answer comes while the /board card waits behind it, and a
// move made while that one is on its way is still shown on it. The first
// card's answer ends its own wait, not the /board card's (both are the
// game's cards in flight), so the move's edit waits for the newest card
// rather than going to the first.
func TestE2EMoveWhileABoardFollowsTheFirstCardLandsOnTheNewCard(t *testing.T) {
	srv := telegramtest.New(t)
	startBot(t, srv, nil)
	group := telegramtest.GroupChat(-1007777777779, "Club")
	alice, bob := newUser(821, "Alice", "en"), newUser(822, "Bob", "en")
	say(srv, bob.chat, bob, "/start")
	waitMessage(t, srv, bob.chat.ID, "greeting", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "Welcome") })

	var firstOut atomic.Bool // the first card is let through
	groupPhoto := func(call telegramtest.Call) bool { return call.Method == "sendPhoto" && call.ChatID() == group.ID }
	heldFirst, releaseFirst := srv.HoldWhen(func(call telegramtest.Call) bool { return groupPhoto(call) && !firstOut.Load() })
	heldBoard, releaseBoard := srv.HoldWhen(func(call telegramtest.Call) bool { return groupPhoto(call) && firstOut.Load() })

	say(srv, group, alice, "/challenge white")
	ch := waitMessage(t, srv, group.ID, "challenge", func(m telegramtest.Msg) bool { return m.FromBot && len(buttons(m)) > 0 })
	srv.PushUpdate(srv.CallbackQuery(group, bob.u, ch.ID, buttons(ch)[0][1]))
	<-heldFirst // the game's first card is on its way
	say(srv, group, bob, "/board")
	srv.WaitConfirmed(t, 10*time.Second) // its card waits behind the first
	firstOut.Store(true)
	releaseFirst()
	<-heldBoard // the first card is answered; the /board card is on its way
	say(srv, group, alice, "/m c3-d4")
	waitMessage(t, srv, bob.chat.ID, "Bob's turn notice", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "c3-d4") })
	releaseBoard()

	first := waitMessage(t, srv, group.ID, "the first card", func(m telegramtest.Msg) bool { return m.Kind == "photo" })
	waitMessage(t, srv, group.ID, "the /board card shows the move", func(m telegramtest.Msg) bool {
		return m.Kind == "photo" && m.ID > first.ID && strings.Contains(m.Text, "Last:") && strings.Contains(m.Text, "c3-d4")
	})
	waitMessage(t, srv, group.ID, "the first card without buttons", func(m telegramtest.Msg) bool { return m.ID == first.ID && len(buttons(m)) == 0 })
}

// A turn's mention in the group comes after the card shows the move that
// made it that player's turn. Here Bob moves while his own mention still
// waits in the group's queue (behind Alice's move on the card): Alice's
// mention replaces his there, and queues behind the card's edit showing
// Bob's move rather than taking his mention's place ahead of it. Alice,
// tapping the card when she is mentioned, taps the board she is told of
// and is not refused as "the board has changed" (the flake of
// TestE2EBlockedUserAndBoardRepost under load).
func TestE2EMentionComesAfterTheBoardItAnnounces(t *testing.T) {
	srv := telegramtest.New(t)
	startBot(t, srv, nil)
	group := telegramtest.GroupChat(-1007777777780, "Club")
	// Neither has started the bot: every turn notice is a group mention.
	alice, bob := newUser(831, "Alice", "en"), newUser(832, "Bob", "en")
	c := startGroupGame(t, srv, group, alice, bob)
	// Once the game's start is announced, the card before it is recorded
	// (the group's replies go out in order, each sent card recorded first).
	waitMessage(t, srv, group.ID, "Alice's start mention", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "Alice, the game has started") })
	c = card(t, srv, group.ID, c.ID)

	held, release := srv.HoldWhen(func(call telegramtest.Call) bool {
		return call.Method == "editMessageMedia" && call.ChatID() == group.ID
	})
	move := firstPick(c)
	// A group's first stage lists the opening's moves whole: one tap plays.
	if toast := tap(t, srv, group, alice, c.ID, move); toast != "" {
		t.Fatalf("Alice's move %q refused: %s", move, toast)
	}
	srv.WaitConfirmed(t, 10*time.Second) // Bob's mention is queued
	<-held                               // behind the card's edit, which is on its way
	say(srv, group, bob, "/m f6-e5")
	srv.WaitConfirmed(t, 10*time.Second) // the card's edit and Alice's mention are queued
	release()

	waitMessage(t, srv, group.ID, "Alice's mention", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "Alice, your move (f6-e5)") })
	waitMessage(t, srv, group.ID, "the card shows Bob's move", func(m telegramtest.Msg) bool {
		return m.ID == c.ID && strings.HasSuffix(lastLine(m.Text), "f6-e5")
	})
	edit, mention := -1, -1
	for i, call := range srv.Calls() {
		switch {
		case call.Method == "editMessageMedia" && call.MessageID() == c.ID && strings.HasSuffix(call.Text(), "f6-e5") && edit < 0:
			edit = i
		case call.Method == "sendMessage" && call.ChatID() == group.ID && strings.Contains(call.Text(), "tg://user?id=831") && strings.Contains(call.Text(), "f6-e5"):
			mention = i
		}
	}
	if mention < edit {
		t.Errorf("Alice's mention (call %d) was sent before the card showed Bob's move (call %d)", mention, edit)
	}
	pickFirstMove(t, srv, group, alice, c.ID)
}

// A player's DM refused with 403 is announced in the group instead, but
// only once Telegram has answered; if they have moved meanwhile, that
// late mention must not replace the next player's, still waiting in the
// group's queue: the next player is told it is their turn.
func TestE2ELateMentionOfAPlayerWhoMovedLeavesTheNextOne(t *testing.T) {
	srv := telegramtest.New(t)
	startBot(t, srv, nil)
	group := telegramtest.GroupChat(-1007777777781, "Club")
	// Bob has started the bot (his notices are DMs); Alice has not (hers
	// are mentions).
	alice, bob := newUser(841, "Alice", "en"), newUser(842, "Bob", "en")
	say(srv, bob.chat, bob, "/start")
	waitMessage(t, srv, bob.chat.ID, "greeting", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "Welcome") })
	c := startGroupGame(t, srv, group, alice, bob)
	waitMessage(t, srv, group.ID, "Alice's start mention", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "Alice, the game has started") })
	c = card(t, srv, group.ID, c.ID)

	// Bob has blocked the bot since; his DM waits for Telegram's answer,
	// and the group's queue waits behind the card's edit.
	toBob := func(call telegramtest.Call) bool { return call.Method == "sendMessage" && call.ChatID() == bob.chat.ID }
	srv.FailWhen(toBob, telegramtest.Forbidden())
	heldDM, releaseDM := srv.HoldWhen(toBob)
	heldEdit, releaseEdit := srv.HoldWhen(func(call telegramtest.Call) bool {
		return call.Method == "editMessageMedia" && call.ChatID() == group.ID
	})
	move := firstPick(c)
	if toast := tap(t, srv, group, alice, c.ID, move); toast != "" {
		t.Fatalf("Alice's move %q refused: %s", move, toast)
	}
	<-heldDM
	<-heldEdit
	say(srv, group, bob, "/m f6-e5")
	srv.WaitConfirmed(t, 10*time.Second) // Alice's mention waits in the group's queue

	releaseDM()
	// Bob's chat sends in order: the answer to his /start goes out only
	// once the refused DM is done with, its mention in the group decided.
	say(srv, bob.chat, bob, "/start")
	if !srv.WaitUntil(10*time.Second, func() bool {
		n := 0
		for _, call := range srv.CallsTo("sendMessage") {
			if call.ChatID() == bob.chat.ID && call.Status == 403 {
				n++
			}
		}
		return n == 2
	}) {
		t.Fatal("Bob's DM and the answer to his /start were not both refused")
	}
	releaseEdit()
	waitMessage(t, srv, group.ID, "Alice's mention", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "Alice, your move (f6-e5)") })
	pickFirstMove(t, srv, group, alice, c.ID)
}
