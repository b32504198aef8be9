// Package team runs the games a group chat plays against the AI by vote:
// the chat is one side, and each of its moves is the one its members voted
// for, by the card's buttons, a typed /vote, or a native Telegram poll of
// the engine's shortlist.
//
// Every member may vote once a turn; the vote closes a window after its
// first ballot, or at once when everyone who voted on the previous turn
// has voted again, and the move with most votes is played (a tie going to
// the move voted for first). The vote lives in the game's record
// (storage.TeamGame, the record's part this package owns: play.Game.Team),
// so any replica takes any ballot, and the clock closes a vote whose time
// is up exactly once: Service.CloseDue is the core's Deadline for it
// (play.Service.AddDeadline, at wiring). A native poll is claimed in the
// record before it is sent, so that of many replicas one sends it; its id
// maps to the game in the store (Store), since an answer names no chat.
//
// The package builds on the core's seams (play.Service.StartGame,
// ChangeGame, PlayFor) and knows nothing of Telegram; the bot's side is
// bot/team.
package team
