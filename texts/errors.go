package texts

import (
	"errors"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
)

// errorTexts is the one table from errors to what the user reads; an
// error not in it is answered by its kind (kindTexts), or with an apology.
var errorTexts = []struct {
	err  error
	text string
}{
	{play.ErrNotYourTurn, "err_not_your_turn"},
	{play.ErrNotAPlayer, "err_not_player"},
	{play.ErrStale, "err_stale"},
	{play.ErrGameOver, "err_game_over"},
	{rules.ErrGameOver, "err_game_over"},
	{play.ErrNoChallenge, "err_no_challenge"},
	{play.ErrNotForYou, "err_not_for_you"},
	{play.ErrOwnChallenge, "err_own_challenge"},
	{play.ErrNoDrawOffer, "err_no_draw_offer"},
	{play.ErrDrawOfferOwn, "err_draw_own"},
	{play.ErrDrawPending, "err_draw_pending"},
	{play.ErrBusy, "err_busy"},
	{play.ErrBadLevel, "err_bad_level"},
	{play.ErrBadColour, "err_bad_colour"},
	{play.ErrBadVariant, "err_bad_variant"},
	{play.ErrTooManyGames, "err_too_many_games"},
	{play.ErrTimeUp, "err_time_up"},
	{play.ErrBadTimeControl, "err_bad_time_control"},
	{play.ErrRematchOffered, "err_rematch_offered"},
	{play.ErrRematchStarted, "err_rematch_started"},
	{play.ErrNoRematch, "err_no_rematch"},
	{play.ErrAIDeclinesDraw, "ai_declines_draw"},
	// Help from the engine, in games against the AI.
	{play.ErrNotAgainstAI, "err_not_against_ai"},
	{play.ErrNoHintsLeft, "err_no_hints_left"},
	{play.ErrHintRunning, "err_hint_running"},
	{play.ErrNoTakeback, "err_no_takeback"},
	{play.ErrNoTakebacksLeft, "err_no_takebacks_left"},
	{play.ErrGameNotOver, "err_game_not_over"},
}

// kindTexts answer an error that has no text of its own by its kind.
var kindTexts = map[play.Kind]string{
	// A game that is not stored: never created (a forged button), removed
	// long after its end, or lost with the store's data.
	play.NotFound:    "err_game_gone",
	play.Unavailable: "err_unavailable",
	play.Busy:        "err_busy",
}

// moveCauseTexts says why a move was refused, by the rules' cause.
var moveCauseTexts = map[rules.Cause]string{
	rules.CauseSyntax:       "move_syntax",
	rules.CauseNoTower:      "move_no_tower",
	rules.CauseNotYours:     "move_not_yours",
	rules.CauseMustCapture:  "move_must_capture",
	rules.CauseCannotGo:     "move_cannot_go",
	rules.CauseNoMoves:      "move_no_moves",
	rules.CauseAmbiguous:    "move_ambiguous",
	rules.CauseNotLegalHere: "move_not_legal",
	rules.CauseLightSquare:  "move_light_square",
	// The squares of the whole capture are in the list of legal moves.
	rules.CauseCaptureUnfinished: "move_capture_unfinished",
}

// Error says err to a user in lang: the one error-to-message function of
// both doors. Move errors say why and, when
// withLegal, list the legal moves. Unknown errors get a generic apology
// (the details go to the log, not to the chat).
func (c *Catalog) Error(lang string, err error, withLegal bool) string {
	var me *rules.MoveError
	if errors.As(err, &me) {
		msg := c.T(lang, moveCauseTexts[me.Cause], "Square", me.Square.String(), "Name", me.Name)
		if withLegal && len(me.Legal) > 0 {
			msg += "\n" + c.T(lang, "err_legal_list", "Moves", rules.JoinMoves(rules.SortedMoves(me.Legal), ", "))
		}
		return msg
	}
	for _, e := range errorTexts {
		if errors.Is(err, e.err) {
			return c.T(lang, e.text)
		}
	}
	if e, ok := errors.AsType[*play.Error](err); ok && e.Text != "" {
		return c.T(lang, e.Text) // a feature's refusal names its text
	}
	if id, ok := kindTexts[play.KindOf(err)]; ok {
		return c.T(lang, id)
	}
	return c.T(lang, "err_internal")
}
