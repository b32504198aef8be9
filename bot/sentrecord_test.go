package bot_test

import (
	"context"
	"encoding/json"
	"testing"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/render"
)

// A request sent with a module's record (bot.SentRecord) is recorded by
// that module's RecordFunc, given the kind's value, in whichever process
// the outbox hands the answer to; a kind the core keeps, or one another
// module took, is a wiring bug New refuses.
func TestAModuleRecordsItsOwnKind(t *testing.T) {
	type probe struct {
		X int `json:"x"`
	}
	var got probe
	var again bool
	m := bot.Module{Name: "probe", Records: map[string]bot.RecordFunc{
		"probe": func(_ context.Context, _ *bot.Kit, raw json.RawMessage, _ *tgbotapi.Message, a bool) error {
			again = a
			return json.Unmarshal(raw, &got)
		},
	}}
	b := bot.New(context.Background(), nil, nil, nil, render.New(), bot.Config{Modules: []bot.Module{m}})
	record, err := bot.SentRecord("probe", probe{X: 7})
	if err != nil || string(record) != `{"probe":{"x":7}}` {
		t.Fatalf("the record %s, %v", record, err)
	}
	if err := b.OutboxHooks().Record(context.Background(), record, &tgbotapi.Message{MessageID: 1}, true); err != nil {
		t.Fatal(err)
	}
	if got.X != 7 || !again {
		t.Errorf("the module recorded %+v (again %v), want x 7, again", got, again)
	}
	for _, kind := range []string{"card", "tour_final"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("a module took the core's record kind %q", kind)
				}
			}()
			taken := bot.Module{Name: "taker", Records: map[string]bot.RecordFunc{kind: m.Records["probe"]}}
			bot.New(context.Background(), nil, nil, nil, render.New(), bot.Config{Modules: []bot.Module{taken}})
		}()
	}
}
