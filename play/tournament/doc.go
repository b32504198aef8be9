// Package tournament runs a group's arena tournaments, free of Telegram:
// players join and leave, are paired again as soon as a game of theirs
// ends (arena.go), are scored as lichess scores an arena (sheet.go), and
// the tournament ends when its time is up and its last game is over.
//
// A tournament lives in one stored record a group (storage.Tournament),
// written by compare-and-set through its own store port (Store): joining,
// leaving, pausing, a game's end, pairing, the call of time and the end are
// each one write that exactly one replica wins. Nothing waits in a
// process's memory: the clock's tick (Service.Tick) and each game's end
// (Service.GameOver) both move the tournament on from the stored state,
// whichever comes first, so a crash loses nothing but a moment.
//
// Its games are ordinary live games of package play, rated as usual,
// started through play's seam (play.Service.StartGame) and shown in both
// players' private chats: the game's card in White's and its mirror in
// Black's (play.Game.Mirrored), where Telegram paces each chat on its own;
// the group sees only the tournament's card and the results. What it
// refuses is a *play.Error of play's kinds (errors.go).
package tournament
