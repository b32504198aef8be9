package bot

import "github.com/bashni/bashni/play"

// What a player reads for an error is package texts' (Catalog.Error).

// expected reports whether err is an everyday refusal rather than a fault
// worth logging. Its kind says (play.Kind.Refusal): the store down or an
// error of no kind is a fault, any other refusal is expected.
func expected(err error) bool { return play.KindOf(err).Refusal() }
