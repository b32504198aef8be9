// Package loadtest drives many Bashni games through the fake Bot API
// (internal/telegramtest) into bot replicas in webhook mode, and measures how
// fast they are served.
//
// Each game is played in a group of its own by two simulated players who
// behave as people do: one challenges, the other accepts, and then they take
// turns tapping the move picker on the game's card (a tower, its
// destination, and a capture path when several lead there), each waiting
// until the card shows the result of the previous tap. A finished game is
// followed by a tap on Rematch. Updates reach the replicas as webhook POSTs
// carrying the secret token, spread round-robin as a load balancer would,
// through the fake's DeliverWebhook so that it knows the callback queries
// the bot must answer. A share of the updates is delivered twice, to
// different replicas, as Telegram does when an answer is lost; the bot must
// recognise them.
//
// The bot calls the fake directly (Endpoint), and the fake tells the
// players, through its OnMessage hook, of every message it records: the
// moment a card is redrawn, and before the bot has the answer, a player knows
// it may tap again, without polling the fake.
//
// Two latencies are measured, because they answer different questions:
//
//   - Tap latency, by the driver: from the moment a player taps (before the
//     webhook POST is sent) until the fake has recorded the bot's edit of
//     the card that answers the tap. It includes the webhook's queue, the
//     handling, the outbox and the Bot API call, all on loopback.
//   - Handling time, by the bots themselves: the bashni_update_duration_seconds
//     histogram on each replica's /metrics, scraped before and after the run;
//     its quantiles are interpolated within the histogram's buckets, as
//     Prometheus's histogram_quantile does, so they are only as fine as the
//     buckets.
//
// Throughput is the number of updates delivered (first deliveries only) and
// of moves played, divided by the run's wall time.
//
// Options.CPU, when the replicas are processes of their own, reads the CPU
// time each one (and Redis, and the harness) used in the measured phase.
// The report divides a replica's CPU by the updates it handled, and the
// replicas' CPU by the moves played: what one replica serves with a core
// of its own, which wall-clock throughput on a machine the harness shares
// cannot say.
//
// The harness runs on the machine it measures, so its CPU is taken from the
// bots. Its goroutines carry the pprof label harness ("loadtest" for the
// driver, "telegramtest" for the fake), and go tool pprof -tags on a CPU
// profile of the run shows how much it took. Work the runtime does for it
// unlabelled, such as background garbage collection, is not counted.
package loadtest
