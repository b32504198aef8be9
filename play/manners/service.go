package manners

import "github.com/bashni/bashni/play"

// Service is the manners of games between people, over the core's game
// service.
type Service struct {
	core *play.Service
}

// New returns the service over core. Wire Answer as core's MoveHook
// (core.AfterMove(s.Answer)).
func New(core *play.Service) *Service { return &Service{core: core} }
