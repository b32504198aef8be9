package miniapp

import "github.com/bashni/bashni/play"

// paceOf is the board's line of a game at days per move and who is away,
// in the words of the chat's card (texts.PaceLine, texts.AwayLines).
func (s *Server) paceOf(g *play.Game, lang string) (string, []string) {
	now := s.svc.Now()
	return s.texts.PaceLine(lang, g, now), s.texts.AwayLines(lang, g, now)
}
