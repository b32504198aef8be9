package bot_test

import (
	"context"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/render"
)

// wiredBot is a bot over a real outbox, wired to it and to svc as
// cmd/bashni's Main.Open wires them (bot/wiring.go).
func wiredBot(ctx context.Context, svc *play.Service, marks bot.UpdateMarks, out *outbox.Outbox, cfg bot.Config) *bot.Bot {
	cfg.DrawsAtSend, cfg.Door = true, out
	b := bot.New(ctx, svc, marks, out, render.New(), cfg)
	b.OutboxHooks().Install(out)
	svc.OnOwed(b.ShowDetached())
	return b
}
