package miniapp

import (
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
)

// state is a game as one viewer's board shows it.
type state struct {
	ID       string     `json:"id"`
	Ply      int        `json:"ply"`      // the board's version: a move names it
	Position string     `json:"position"` // the position format of docs/rules.md
	Turn     string     `json:"turn"`     // "w" or "b"
	You      string     `json:"you"`      // the viewer's colour, "" if watching
	Active   bool       `json:"active"`
	White    player     `json:"white"`
	Black    player     `json:"black"`
	Moves    []string   `json:"moves"`
	Last     *move      `json:"last,omitempty"`
	Legal    []move     `json:"legal"` // the side to move's moves; empty once over
	Draw     string     `json:"draw"`  // colour offering a draw, ""
	Status   string     `json:"status"`
	Result   string     `json:"result,omitempty"`
	Reason   string     `json:"reason,omitempty"`
	Clock    *clock     `json:"clock,omitempty"` // live games only
	Lang     string     `json:"lang"`
	Texts    textsOfApp `json:"texts"`
	// Rules names the ruleset when it is not Bashni (the status line
	// says it too): "Russian draughts".
	Rules string `json:"rules,omitempty"`
	// Towers is false in Russian draughts, where pieces never stack: a
	// held piece then opens no "tower" sheet, which would list one piece.
	Towers bool `json:"towers"`
	// Line is an ended puzzle's line after its solution (puzzleline.go),
	// which the page plays through move by move.
	Line []lineStep `json:"line,omitempty"`
	// LineFrom is the position the line starts from: the end of the
	// solution (after a miss, not the board shown).
	LineFrom string `json:"line_from,omitempty"`
	// Streak is the run so far when the puzzle is a Puzzle Streak's;
	// StreakNext what the page's next puzzle is once it ended: "next" in
	// the run, or "" (then a button may start a run: StreakOffer).
	Streak      *int   `json:"streak,omitempty"`
	StreakNext  string `json:"streak_next,omitempty"`
	StreakOffer bool   `json:"streak_offer,omitempty"`
	// IfOK is whether the viewer may leave conditional moves now (the
	// opponent's move in a game at days per move); IfLine the line they
	// left, by pairs (conditional.go).
	IfOK   bool     `json:"if_ok,omitempty"`
	IfLine []string `json:"if_line,omitempty"`
	// Pace is a game at days per move's line: the pace and the time left
	// for the move, or that the clock is stopped; Away names a player
	// away, whose clock stands until a date (pace.go).
	Pace string   `json:"pace,omitempty"`
	Away []string `json:"away,omitempty"`
}

// clock is a live game's clocks at the moment the state was made: the
// page counts the running one down from there.
type clock struct {
	Control string `json:"control"`
	White   int64  `json:"w"` // ms left
	Black   int64  `json:"b"`
	Running string `json:"running"` // "w", "b", or "" once over
}

type player struct {
	Name string `json:"name"`
	AI   int    `json:"ai,omitempty"`
}

// move is a move with the squares the page needs to draw and animate it.
type move struct {
	Text   string   `json:"n"`
	Path   []string `json:"path"` // from, then every landing square
	Jumped []string `json:"jumped,omitempty"`
}

func moveOf(m rules.Move) move {
	mv := move{Text: m.String()}
	for _, sq := range m.Squares() {
		mv.Path = append(mv.Path, sq.String())
	}
	for _, sq := range m.JumpedSquares() {
		mv.Jumped = append(mv.Jumped, sq.String())
	}
	return mv
}

// textsOfApp are the page's words, in the viewer's language.
type textsOfApp map[string]string

// pageTexts lists the texts the page uses; all come from the bot's
// catalogue.
var pageTexts = []string{
	"side_white", "side_black", "app_your_move", "app_watching", "app_moves",
	"app_offer_draw", "app_draw_offered", "app_resign", "app_resign_confirm",
	"app_choose_path", "app_man", "app_king", "app_close", "app_reconnecting",
	"app_no_game", "app_unauthorized", "app_hold_hint", "app_wait_hint", "btn_draw_accept", "btn_draw_decline", "err_time_up",
	// Stepping through a finished game's analysis.
	"app_analyse", "app_analysing", "analysis_mistakes", "analysis_none", "app_start_position",
	"app_step_first", "app_step_back", "app_step_forward", "app_step_last", "app_eval_white_wins", "app_eval_black_wins", "app_eval_unit",
	// A finished game's way back to the lobby.
	"app_new_game",
	// Conditional moves on the board.
	"app_if", "app_if_hint", "app_if_save", "app_if_cancel", "app_if_clear", "app_if_saved",
}

func colorCode(c rules.Color) string {
	if c == rules.White {
		return "w"
	}
	return "b"
}

// state builds what viewer v sees of g.
func (s *Server) state(g *play.Game, v viewer) state {
	lang := v.lang
	turn, toMove := g.ToMove()
	st := state{
		ID: g.ID(), Ply: g.Ply(), Position: g.Position().String(), Turn: colorCode(turn),
		Active: g.Active(), Lang: lang,
		White: player{Name: s.texts.PlayerName(lang, g.White()), AI: g.White().AILevel},
		Black: player{Name: s.texts.PlayerName(lang, g.Black()), AI: g.Black().AILevel},
		Moves: make([]string, 0, g.Ply()), Legal: []move{},
	}
	if c, ok := g.ColorOf(v.user.ID); ok {
		st.You = colorCode(c)
		if g.White().UserID == g.Black().UserID {
			st.You = colorCode(turn) // a game against oneself: the side to move
		}
	}
	for _, m := range g.Rules().Moves() {
		st.Moves = append(st.Moves, m.String())
	}
	if m, ok := g.LastMove(); ok {
		mv := moveOf(m)
		st.Last = &mv
	}
	if g.Active() {
		for _, m := range g.Rules().Legal() {
			st.Legal = append(st.Legal, moveOf(m))
		}
		side := s.texts.T(lang, "side_white")
		if turn == rules.Black {
			side = s.texts.T(lang, "side_black")
		}
		st.Status = s.texts.T(lang, "app_to_move", "Move", g.MoveNumber(), "Side", side) + " · " + s.texts.PlayerName(lang, toMove)
		switch g.DrawOfferBy() {
		case 0:
		case g.White().UserID:
			st.Draw = "w"
		default:
			st.Draw = "b"
		}
	} else {
		st.Result, st.Reason = s.texts.Result(lang, g)
		st.Status = st.Result
	}
	if g.TimeControl() != "" {
		now := s.svc.Now()
		st.Clock = &clock{Control: g.TimeControl(),
			White: max(g.Left(rules.White, now).Milliseconds(), 0), Black: max(g.Left(rules.Black, now).Milliseconds(), 0)}
		if g.Active() {
			st.Clock.Running = colorCode(turn)
		}
	}
	if start := g.Rules().StartPosition(); start.Variant() != rules.Bashni {
		st.Rules = s.texts.T(lang, "btn_rules_"+start.Variant().String())
		st.Status = st.Rules + " · " + st.Status
	}
	st.IfOK, st.IfLine = s.lineOf(g, v)
	st.Pace, st.Away = s.paceOf(g, lang)
	st.Texts = textsOfApp{}
	for _, id := range pageTexts {
		st.Texts[id] = s.texts.T(lang, id)
	}
	// The page puts the square in: "{sq}" marks where.
	st.Texts["app_tower"] = s.texts.T(lang, "app_tower", "Square", "{sq}")
	st.Texts["if_pair"] = s.texts.T(lang, "if_pair", "Expected", "{a}", "Answer", "{b}")
	st.Towers = true
	if start := g.Rules().StartPosition(); start.Variant() == rules.Russian {
		st.Towers = false
		// Russian draughts has no towers: the hints speak of pieces.
		st.Texts["app_hold_hint"] = s.texts.T(lang, "app_hold_hint_russian")
		st.Texts["app_wait_hint"] = s.texts.T(lang, "app_wait_hint_russian")
	}
	return st
}
