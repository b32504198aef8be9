package bot

import (
	"context"
	"encoding/json"
	"fmt"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// Some requests must have their answer recorded by whoever sends them: a
// game's card (its message id, cardrecord.go), a tournament's final
// standings, a module's own (a group's vote poll, bot/team). The outbox
// keeps a record with such a request (outbox.Reply.Record) and, in
// whichever process sends it, this one or one that took it over after a
// crash, hands Telegram's answer to recordSent before it forgets the
// request (OutboxHooks.Record). A record is one JSON object whose single
// key names its kind: the core's kinds below, a module's its Records.

// sentRecord is a record of one of the core's kinds.
type sentRecord struct {
	Card      *sentCard      `json:"card,omitempty"`
	TourFinal *sentTourFinal `json:"tour_final,omitempty"`
}

// coreRecords are the kinds of sentRecord, which no module may take.
var coreRecords = map[string]bool{"card": true, "tour_final": true}

// sentTourFinal names the tournament whose final standings were sent.
type sentTourFinal struct {
	Chat int64  `json:"c"`
	ID   string `json:"t"`
}

// SentRecord is the record (outbox.Reply.Record) of a request of a
// module's kind (Module.Records) with value v.
func SentRecord(kind string, v any) (json.RawMessage, error) {
	return json.Marshal(map[string]any{kind: v})
}

// recordSent records a request sent, in whichever process sent it, by
// its record's kind.
func (b *Bot) recordSent(ctx context.Context, raw json.RawMessage, msg *tgbotapi.Message, again bool) error {
	var rec sentRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return fmt.Errorf("bot: a sent request's record: %w", err)
	}
	if rec.Card != nil {
		return b.recordCard(ctx, rec.Card, msg)
	}
	if rec.TourFinal != nil {
		return b.svc.TournamentFinalShown(ctx, rec.TourFinal.Chat, rec.TourFinal.ID)
	}
	var kinds map[string]json.RawMessage
	if err := json.Unmarshal(raw, &kinds); err != nil {
		return fmt.Errorf("bot: a sent request's record: %w", err)
	}
	for kind, v := range kinds {
		if record := b.mods.records[kind]; record != nil {
			return record(ctx, b.kit(), v, msg, again)
		}
	}
	return nil // a kind nobody here records (a module no longer wired)
}
