package outbox

import (
	"log/slog"
	"time"

	"golang.org/x/time/rate"
)

// Options configure an Outbox. Zero values take the defaults given.
type Options struct {
	// PerChat paces the requests to one chat (default 1 a second) with a
	// burst of PerChatBurst (default 3).
	PerChat      rate.Limit
	PerChatBurst int
	// PerGroup additionally paces requests to groups (default 20 a minute)
	// with a burst of PerGroupBurst (default 5).
	PerGroup      rate.Limit
	PerGroupBurst int
	// Global paces all requests but query answers (default 30 a second)
	// with a burst of GlobalBurst (default 10).
	Global      rate.Limit
	GlobalBurst int

	// Senders bounds the paced requests in flight at once (default 8);
	// PriorityWorkers the query answers in flight (default 4).
	Senders         int
	PriorityWorkers int
	// MaxQueue bounds the replies waiting per chat and the query answers
	// waiting in all (default 100). A chat's bound is kept at the door
	// (Admit, door.go): what is owed is queued past it, never dropped.
	MaxQueue int

	// MaxRetries bounds how often a request the journal does not keep (a
	// tap's answer) is sent again after a 429 or a transient error
	// (default 3; negative for never). A kept request is owed and is sent
	// again until Telegram takes or refuses it (floodControl).
	MaxRetries int
	// MaxRetryAfter is the longest retry_after worth waiting for to send a
	// reply not kept again (default 30 s); with a longer one that reply
	// fails, though the chat is still held for the whole time. It also
	// caps the back-off between a kept reply's attempts.
	MaxRetryAfter time.Duration
	// Backoff is the first wait after a transient error, doubled for each
	// further attempt (default 500 ms).
	Backoff time.Duration
	// DrainTimeout bounds how long Run keeps sending after its context
	// ends (default 5 s).
	DrainTimeout time.Duration

	// Journal, if set, keeps every reply that is a message (sent, edited
	// or deleted) in the store from before it is queued until it has been
	// sent, so that a crash loses none: the next process, or another
	// replica once this one's lease has ended, sends it (Reclaim). Query
	// answers and chat actions are not kept: a second later they mean
	// nothing.
	Journal Journal
	// ClaimEvery is how often Run renews this process's lease on what it
	// keeps and takes over what dead processes kept (default 3 s; keep it
	// well under the journal's lease).
	ClaimEvery time.Duration

	// Pacer, if set, keeps the Telegram budgets (PerChat, PerGroup,
	// Global) and 429 holds where every replica spends them, and drops a
	// card edit older than one another replica has shown (Reply.Version).
	// When it fails (Redis down), the outbox paces in memory.
	Pacer Pacer

	// OnBlocked is called when a Reply with a UserID got 403: the user
	// blocked the bot, deleted their account, or never started it.
	OnBlocked func(userID int64)
	// OnCall, if set, is called after every attempt, for metrics.
	OnCall func(method string, err error, d time.Duration)
	// OnRefused, if set, hears each refusal for want of room, by reason
	// (RefusedLane, RefusedAnswers), for metrics.
	OnRefused func(reason string)
	// Logger receives warnings and errors (default slog.Default()).
	Logger *slog.Logger
}

func (o Options) withDefaults() Options {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	defLimit := func(v *rate.Limit, d rate.Limit) {
		if *v <= 0 {
			*v = d
		}
	}
	defDur := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	defLimit(&o.PerChat, 1)
	def(&o.PerChatBurst, 3)
	defLimit(&o.PerGroup, rate.Limit(20.0/60))
	def(&o.PerGroupBurst, 5)
	defLimit(&o.Global, 30)
	def(&o.GlobalBurst, 10)
	def(&o.Senders, 8)
	def(&o.PriorityWorkers, 4)
	def(&o.MaxQueue, 100)
	switch {
	case o.MaxRetries == 0:
		o.MaxRetries = 3
	case o.MaxRetries < 0:
		o.MaxRetries = 0
	}
	defDur(&o.MaxRetryAfter, 30*time.Second)
	defDur(&o.Backoff, 500*time.Millisecond)
	defDur(&o.DrainTimeout, 5*time.Second)
	defDur(&o.ClaimEvery, 3*time.Second)
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o
}
