package storage

import "time"

// SlowPlay is what the slow-play module (package play/slow) keeps of a
// user, in the user's record so that it changes by the record's
// compare-and-set: an absence announced, the yearly allowance it draws
// on, and whether the user's picked moves wait for a confirming tap.
type SlowPlay struct {
	// AwayUntil is the end of the user's absence (zero: never away).
	AwayUntil time.Time `json:"away_until,omitzero"`
	// AwayBy names the command that announced it (chat and message), so
	// that the same command delivered again after a crash announces the
	// same absence rather than a second one.
	AwayBy string `json:"away_by,omitzero"`
	// Year is the year Used counts in; Used is the absence taken in it.
	Year int           `json:"year,omitzero"`
	Used time.Duration `json:"used,omitzero"`
	// Confirm is "on" or "off" once the user chose; "" is the default.
	Confirm string `json:"confirm,omitzero"`
}
