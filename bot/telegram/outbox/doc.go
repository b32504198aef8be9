// Package outbox sends the bot's replies to Telegram: handlers decide what to
// say, the outbox says it.
//
// A handler turns an update into Replies and Enqueues them; it never waits
// for the network. Run sends them, paced to Telegram's limits (about one
// message a second per chat, twenty a minute per group, thirty a second in
// all), and reports each outcome through the Reply's Done callback.
//
// Replies to one chat go out in the order they were enqueued, one at a time,
// so a board card always precedes the notification about it; different
// chats proceed concurrently. A keyed edit (a card's newest board) goes
// ahead of the messages waiting before it: it shows a message already in
// the chat, and another game's flood must not hold it back (order.go).
//
// A chat's queue is bounded at the door (door.go): Admit refuses work for
// a chat with Options.MaxQueue replies waiting, before the caller changes
// anything; what is kept in the journal (owed by a stored change) and
// keyed edits are queued past the bound, and nothing kept is forgotten
// unsent. Replies are keyed by their chat (derived from
// the request when Reply.ChatID is zero), or by the inline message they
// edit; requests with neither share one ordered lane.
//
// A reply with a Key replaces a waiting reply with the same Key, in its
// place in the queue; the older one is never sent. Under a group's pace the
// latest board of a game is what people need, not every board in between.
// A keyed reply may also ask to wait (Reply.Delay) before it is sent, giving
// way to a newer one that comes meanwhile.
//
// Answers to callback and inline queries jump the queue: they are sent by
// their own workers, outside chat pacing, because Telegram shows a spinner
// until a tap is answered.
//
// Telegram's per-chat and per-group limits count messages sent and edited
// (they share one budget). Deletions and chat actions are not messages:
// they keep their place in their chat's order but spend none of its pace,
// only the global one.
//
// Telegram's answers are handled the way the Bot API asks:
//
//   - 429 Too Many Requests: the chat is held for retry_after and the same
//     request is sent again: a request the journal keeps (owed to a
//     player) until Telegram takes it, one not kept (a tap's answer) up to
//     Options.MaxRetries times and only while retry_after is at most
//     Options.MaxRetryAfter;
//   - 403 Forbidden (blocked, deactivated, never started, kicked): no retry;
//     Options.OnBlocked is told the Reply's UserID, and the replies already
//     queued for that chat fail with the same error without being sent;
//   - 400 "message is not modified": success, Done gets a nil Message;
//   - network errors, undecodable answers and 5xx: retried with exponential
//     backoff (a kept request until Telegram answers, the back-off capped
//     at Options.MaxRetryAfter); any other error is final.
//
// A request is sent again only as it was enqueued, so files must be
// re-readable: use tgbotapi.FileBytes, FileID or FileURL, not FileReader.
// A network error after Telegram received a request (a timeout) may lead to
// the message arriving twice; the Bot API offers no way to tell.
//
// Errors passed to Done and written to the log have the bot token redacted:
// tgbotapi's network errors carry the request URL, which contains it.
//
// With Options.Journal the outbox is the sending half of a transactional
// outbox: every message is kept in the store before it is queued (Commit
// writes a handled update's replies with the update's mark, in one write)
// and forgotten once Telegram has answered. The queue in memory is only a
// copy. Each process owns what it kept while its lease lasts; Reclaim,
// which Run calls every Options.ClaimEvery, renews the lease and takes over
// what processes whose lease ended kept, so a crash loses no reply: at
// worst a message Telegram took, whose answer the crash cut off, is sent
// twice. Done callbacks are the process's own and are not kept; what a
// sent message must be recorded as (Reply.Record) is kept with it, and
// whichever process sends it hands it to its Recorder before the journal
// forgets the reply.
//
// Shutdown: when Run's context ends it keeps sending what is queued, and
// what handlers still enqueue, for up to Options.DrainTimeout; replies left
// then fail with ErrShutdown and Run reports how many.
package outbox
