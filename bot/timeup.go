package bot

import (
	"context"
	"errors"

	"github.com/bashni/bashni/play"
)

// settledOnTime shows the loss on time that err carries, if the action
// that failed with it was the one to settle it (play.TimeUpError): the
// chat is told and the game's end shown, as after the clock's tick.
func (b *Bot) settledOnTime(ctx context.Context, err error) {
	var tu *play.TimeUpError
	if errors.As(err, &tu) && tu.Event.TimedOut {
		b.showClockEvents(ctx, []play.ClockEvent{tu.Event})
	}
}
