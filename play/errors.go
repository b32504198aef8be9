package play

import "errors"

// Errors the bot maps to what the user reads.
var (
	ErrNotYourTurn    = errors.New("play: it is not your turn")
	ErrNotAPlayer     = errors.New("play: you are not playing in this game")
	ErrStale          = errors.New("play: the board has changed since")
	ErrGameOver       = errors.New("play: the game is over")
	ErrNoChallenge    = errors.New("play: the challenge is gone (accepted, cancelled or expired)")
	ErrNotForYou      = errors.New("play: the challenge is addressed to someone else")
	ErrOwnChallenge   = errors.New("play: you cannot accept your own challenge")
	ErrNoDrawOffer    = errors.New("play: there is no draw offer to answer")
	ErrDrawOfferOwn   = errors.New("play: you cannot answer your own draw offer")
	ErrDrawPending    = errors.New("play: a draw offer is already pending")
	ErrAITurn         = errors.New("play: it is not the AI's turn")
	ErrBadLevel       = errors.New("play: no such AI level")
	ErrBadColour      = errors.New("play: unknown colour")
	ErrBusy           = errors.New("play: the game is busy; try again")
	ErrUserNotStarted = errors.New("play: that user has not started the bot yet")
	ErrNoAI           = errors.New("play: no AI engine is configured")
	ErrTimeUp         = errors.New("play: your time is up")
	ErrBadTimeControl = errors.New("play: a time control is minutes+seconds, e.g. 5+3")
	ErrNotOver        = errors.New("play: the game is still going on")
	ErrRematchOffered = errors.New("play: you have offered a rematch already")
	ErrRematchStarted = errors.New("play: the rematch has started already")
	ErrNoRematch      = errors.New("play: no rematch offer is waiting (declined, withdrawn or expired)")
	ErrAIDeclinesDraw = errors.New("play: the AI declines the draw")
)
