package slow

import (
	"context"

	"github.com/bashni/bashni/play"
)

// The "confirm moves" setting: a move picked on the card waits for a
// second tap on it before it is played. A player chooses it always on,
// always off, or the default (Auto): on in correspondence games, where a
// slip costs days and cannot be taken back, off elsewhere (a live clock
// ticks; against the AI a takeback is at hand).
const (
	ConfirmAuto = ""
	ConfirmOn   = "on"
	ConfirmOff  = "off"
)

// Correspondence reports whether g is a correspondence game: between
// people, at a pace of days per move.
func Correspondence(g *play.Game) bool {
	return g.DaysPerMove() > 0 && g.White().Human() && g.Black().Human()
}

// Confirms reports whether u's picked moves in g wait for a confirming
// tap.
func Confirms(u *play.User, g *play.Game) bool {
	switch u.Slow.Confirm {
	case ConfirmOn:
		return true
	case ConfirmOff:
		return false
	}
	return Correspondence(g)
}

// NextConfirm is the setting after c on the settings row's button: the
// default, then on, then off, then the default again.
func NextConfirm(c string) string {
	switch c {
	case ConfirmAuto:
		return ConfirmOn
	case ConfirmOn:
		return ConfirmOff
	}
	return ConfirmAuto
}

// SetConfirm stores userID's choice (ConfirmAuto, ConfirmOn, ConfirmOff).
func (s *Service) SetConfirm(ctx context.Context, userID int64, c string) (*play.User, error) {
	if c != ConfirmAuto && c != ConfirmOn && c != ConfirmOff {
		return nil, ErrBadConfirm
	}
	return play.ChangeUser(ctx, s.users, userID, func(u *play.User) error {
		if u.Slow.Confirm == c {
			return play.Unchanged
		}
		u.Slow.Confirm = c
		return nil
	})
}
