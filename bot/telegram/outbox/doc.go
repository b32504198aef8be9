// Package outbox sends the bot's replies to Telegram: handlers decide what to
// say, the outbox says it, in order, paced to Telegram's limits and, with a
// journal, without losing a reply to a crash.
//
// # A reply
//
// A Reply (reply.go) is one request and what the outbox needs to send it:
// the request (Req; a Call for a method tgbotapi predates; or Lazy, a small
// description made into a request only when it is sent), the chat it goes
// to, the Key and Version of what it shows, what the sent message is to be
// recorded as (Record), and whom to tell of the outcome (Done). A handler
// Enqueues its replies, or Commits a handled update's replies with the
// update's mark, and never waits for the network; Run sends them and tells
// each Done. New takes the Bot API client (a Requester) and Options
// (options.go), whose zero values take the defaults given there.
//
// # Lanes and pacing
//
// Replies to one chat, or to one inline message, form a lane (lane.go):
// sent in the order they were queued, one at a time, so a board card always
// precedes the notification about it; different chats proceed
// concurrently, at most Options.Senders requests in flight. Requests with
// neither a chat nor an inline message share one ordered lane. A lane is
// paced to Telegram's limits (about one message a second per chat, twenty a
// minute per group, thirty a second in all; sent and edited messages share
// the budget): in memory, or with Options.Pacer in Redis (pacer.go), where
// every replica spends the same budgets, since Telegram counts the bot's
// messages, not a process's; if Redis fails the outbox paces in memory.
// Deletions, chat actions and reactions are not messages: they keep their
// place in their chat's order but spend only the global budget. Answers to
// callback and inline queries jump the queue: their own workers send them,
// outside chat pacing, because Telegram shows a spinner until a tap is
// answered (request.go names the methods of each kind).
//
// A reply with a Key replaces a waiting reply with the same Key, which is
// done with ErrSuperseded unsent, and queues at the back: under a group's
// pace the latest board of a game is what people need, not every board in
// between. A keyed reply may also wait (Reply.Delay) before it is sent,
// giving way to a newer one that comes meanwhile. A keyed edit goes ahead of
// the messages waiting before it (order.go): it shows a message already in
// the chat, and another game's flood must not hold it back.
//
// # The door
//
// A chat's lane is bounded at the door (door.go): Admit refuses work for a
// chat with Options.MaxQueue replies waiting (ErrChatBusy), before the
// caller changes anything, and Enqueue refuses an unkeyed reply to a full
// lane before keeping it. What passes the door is queued past the bound:
// what the journal keeps is owed, keyed replies replace one another, and
// nothing kept is forgotten unsent.
//
// # Drawing at send time
//
// A Lazy reply (draw.go) is made into its request when it reaches the head
// of its lane, before its pace is spent, by the Resolve the bot sets
// (SetResolver): a card's edit is kept as "card of game G" and drawn as the
// game is stored at that moment, so a card never shows an older board than
// one already shown, and the edits waiting for a chat's pace cost one
// drawing. A drawing equal to the last one sent for its Key (same version
// or same picture, caption and buttons), or a reply older than what any
// replica has shown for its Key (Reply.Version, Pacer.Fresh and
// Pacer.Drawn), is dropped with ErrSuperseded. A Lazy reply Telegram took is
// told to Shown (SetShown, shown.go): a live game's clock starts when its
// board has reached the chat.
//
// # Delivery
//
// Each attempt (deliver.go) waits for its lane's hold and pace, sends, and
// settles Telegram's answer the way the Bot API asks (errors.go classifies
// it):
//
//   - 429 Too Many Requests: the chat is held for retry_after (for every
//     replica, with a Pacer) and the same request is sent again: a request
//     the journal keeps (owed to a player) until Telegram takes it, one not
//     kept (a tap's answer) up to Options.MaxRetries times and only while
//     retry_after is at most Options.MaxRetryAfter;
//   - 403 Forbidden (blocked, deactivated, never started, kicked): no retry;
//     Options.OnBlocked is told the Reply's UserID, and the replies already
//     queued for that chat fail with the same error without being sent;
//   - 400 "message is not modified": success, Done gets a nil Message;
//   - network errors, undecodable answers and 5xx: retried with exponential
//     backoff (a kept request until Telegram answers, the back-off capped
//     at Options.MaxRetryAfter); any other error is final, and a Lazy
//     reply refused so is told to Refused (SetRefused, record.go).
//
// A request is sent again only as it was enqueued, so files must be
// re-readable: use tgbotapi.FileBytes, FileID or FileURL, not FileReader.
// A network error after Telegram received a request (a timeout) may lead to
// the message arriving twice; the Bot API offers no way to tell. Errors
// passed to Done and written to the log have the bot token redacted:
// tgbotapi's network errors carry the request URL, which contains it.
//
// # The journal
//
// With Options.Journal (journal.go) the outbox is the sending half of a
// transactional outbox: every message (sent, edited or deleted; not query
// answers or chat actions) is kept in the store, as JSON (codec.go), before
// it is queued: Commit writes a handled update's replies with the update's
// mark, in one write. It is forgotten once Telegram has answered, in
// batches, and a chat's next message waits until its last one is
// forgotten, so a crash sends at most that one twice. The queue in memory
// is only a copy. Each process owns what it kept while its lease lasts;
// Reclaim, which Run calls every Options.ClaimEvery, renews the lease and
// takes over what processes whose lease ended kept, so a crash loses no
// reply. Done callbacks are the process's own and are not kept; what a sent
// message must be recorded as (Reply.Record) is kept with it, and whichever
// process sends it hands it to the Recorder (SetRecorder, record.go) before
// the journal forgets the reply. Refused and Shown are told the same way,
// by whichever process sent the reply.
//
// # Metrics
//
// Options.OnCall hears every attempt with its method, error and duration;
// Options.OnRefused each refusal for want of room, by reason (RefusedLane,
// RefusedAnswers); Depths gives the lanes' depths for a gauge. A callback
// that panics costs a log line, not the sender.
//
// # Running and shutdown
//
// Run (run.go) starts a goroutine for each lane with replies, the answers'
// workers and, with a journal, the acker and the claims. When its context
// ends it keeps sending what is queued, and what handlers still enqueue,
// for up to Options.DrainTimeout; replies left then fail with ErrShutdown
// and Run reports how many. What the journal still keeps it releases, so
// the next process takes it over at once. Flush waits until everything
// enqueued so far is done.
package outbox
