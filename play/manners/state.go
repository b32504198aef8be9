package manners

import (
	"github.com/bashni/bashni/play"
)

// featureName is the name the package's part of a game's record is kept
// under (play.Game.Feature).
const featureName = "manners"

// state is the package's part of a game's record.
type state struct {
	// By left Line: moves in notation, by pairs, each the opponent's
	// move expected and By's answer to it.
	By   int64    `json:"by,omitzero"`
	Line []string `json:"line,omitempty"`
	// Answered is the last pair played from a line (expected, answer),
	// shown on the card while the board is the one it made (AnsweredAt,
	// the ply after the answer).
	Answered   []string `json:"answered,omitempty"`
	AnsweredBy int64    `json:"answered_by,omitzero"`
	AnsweredAt int      `json:"answered_at,omitzero"`
	// TakebackBy asks to take back their last move on the board of
	// version TakebackAt; the opponent answers.
	TakebackBy int64 `json:"takeback_by,omitzero"`
	TakebackAt int   `json:"takeback_at,omitzero"`
}

// load reads g's state; a game with none has the zero state.
func load(g *play.Game) (state, error) {
	var st state
	_, err := g.Feature(featureName, &st)
	return st, err
}

// save writes st as g's state, removing it when it keeps nothing.
func save(g *play.Game, st state) error {
	if st.empty() {
		return g.SetFeature(featureName, nil)
	}
	return g.SetFeature(featureName, st)
}

// empty reports whether st keeps nothing.
func (st state) empty() bool {
	return st.By == 0 && len(st.Line) == 0 && len(st.Answered) == 0 && st.TakebackBy == 0
}

// betweenPeople reports whether g is a game of two people (not the AI,
// not a chat's vote, not a game against oneself).
func betweenPeople(g *play.Game) bool {
	w, b := g.White(), g.Black()
	return w.Human() && b.Human() && w.UserID != b.UserID && g.Team() == nil
}

// slow reports whether g is played by correspondence: between people, at
// a pace of days per move (play/pace.go) or, with none chosen, by the
// server's one timeout; never on a live clock, where an answer played at
// once would cost the opponent's time nothing and a line would be a
// premove.
func slow(g *play.Game) bool {
	return betweenPeople(g) && (g.DaysPerMove() > 0 || g.TimeControl() == "")
}

// isPlayer reports whether userID plays g.
func isPlayer(g *play.Game, userID int64) bool {
	_, ok := g.ColorOf(userID)
	return ok
}
