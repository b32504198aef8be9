// Package tune fits the engine's evaluation weights to game results, the
// way Texel tuning does: self-play games at a small node budget (Generate)
// give quiet positions, each labelled with how its game ended, and Fit
// moves the weights (ai.Weights) one step at a time while that lowers the
// mean squared error between the results and the evaluation squashed into
// an expected score.
//
// The data is made here, by the repository's own engine (bashni selfplay),
// and the fitted weights are written as JSON for `bashni match` to play
// against the current ones (player spec weights=FILE) and as a Go literal
// for ai.DefaultWeights (or a variant's own, such as ai.RussianWeights,
// from self-play under its rules). A change is kept only if the match says
// so; the loss alone does not decide.
package tune
