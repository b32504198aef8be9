package telegramtest

import (
	"encoding/json"
	"testing"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// A poll sent by raw params (options as InputPollOption objects, as the
// current Bot API has them) through the real client comes back as a
// message with its poll; answers, changed and retracted, are counted; the
// poll stops once, and takes no answer after.
func TestPollSendAnswerStop(t *testing.T) {
	srv := New(t)
	bot := newBot(t, srv)
	group := GroupChat(-100500, "Club")
	srv.PushUpdate(srv.TextMessage(group, alice, "/start"))
	params := tgbotapi.Params{"chat_id": "-100500", "question": "Move 1", "is_anonymous": "false",
		"options": `[{"text":"c3-d4"},{"text":"g3-h4"},{"text":"a3-b4"}]`}
	resp, err := bot.MakeRequest("sendPoll", params)
	if err != nil {
		t.Fatal(err)
	}
	var msg tgbotapi.Message
	if err := json.Unmarshal(resp.Result, &msg); err != nil || msg.Poll == nil || len(msg.Poll.Options) != 3 || msg.Poll.IsAnonymous {
		t.Fatalf("sendPoll answered %s (%v)", resp.Result, err)
	}
	id := msg.Poll.ID

	srv.PollAnswer(alice, id, 1)
	srv.PollAnswer(bob, id, 0)
	up := srv.PollAnswer(bob, id) // retracted
	if up.PollAnswer == nil || up.PollAnswer.PollID != id || len(up.PollAnswer.OptionIDs) != 0 || up.PollAnswer.User.ID != bob.ID {
		t.Errorf("retraction update %+v", up.PollAnswer)
	}
	srv.PollAnswer(bob, id, 1)
	if p, _ := srv.PollOf(id); p.Voters != 2 || p.Counts[0] != 0 || p.Counts[1] != 2 {
		t.Errorf("poll %+v, want two answers for g3-h4", p)
	}

	resp, err = bot.MakeRequest("stopPoll", tgbotapi.Params{"chat_id": "-100500", "message_id": "2"})
	if err != nil {
		t.Fatal(err)
	}
	var final tgbotapi.Poll
	if err := json.Unmarshal(resp.Result, &final); err != nil || !final.IsClosed || final.Options[1].VoterCount != 2 || final.TotalVoterCount != 2 {
		t.Errorf("stopPoll answered %s (%v)", resp.Result, err)
	}
	_, err = bot.MakeRequest("stopPoll", tgbotapi.Params{"chat_id": "-100500", "message_id": "2"})
	wantRefusal(t, err, "Bad Request: poll has already been closed")
	srv.PollAnswer(alice, id, 0)
	if m, _ := srv.Message(-100500, 2); m.Kind != "poll" || !m.Poll.Closed || m.Poll.Counts[0] != 0 {
		t.Errorf("the closed poll %+v took an answer", m.Poll)
	}

	for name, opts := range map[string]string{"one option": `["a"]`, "thirteen": `["1","2","3","4","5","6","7","8","9","10","11","12","13"]`, "not JSON": `x`} {
		params["options"] = opts
		if _, err := bot.MakeRequest("sendPoll", params); err == nil {
			t.Errorf("a poll with %s was sent", name)
		}
	}
	params["options"] = `["1","2","3","4","5","6","7","8","9","10","11","12"]`
	if _, err := bot.MakeRequest("sendPoll", params); err != nil {
		t.Errorf("a poll of twelve options (strings): %v", err)
	}
}
