package team

import (
	"fmt"
	"time"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/play"
	vote "github.com/bashni/bashni/play/team"
)

// sideLine is the card's line about the vote in a game between two chats
// (play/team's sides.go), as one chat's card shows it: on the card of the
// side to move, how its vote closes; on the other's, that it waits and
// how long the other side has left. Neither shows the other chat's tally:
// what a group weighs stays in its own chat.
func sideLine(k *bot.Kit, g *play.Game, lang string) string {
	closes := vote.ClosesAt(g)
	if closes.IsZero() {
		return ""
	}
	left := max(closes.Sub(k.Service().Now()), 0)
	// Hours and minutes as a clock writes them: no unit to agree with a
	// count in Russian.
	hm := fmt.Sprintf("%d:%02d", int(left/time.Hour), int(left%time.Hour/time.Minute))
	if vote.VoteOf(g).Open {
		return k.Texts().T(lang, "team_side_vote_open", "Quorum", vote.Quorum(g), "Left", hm)
	}
	return k.Texts().T(lang, "team_side_waiting", "Left", hm)
}
