//go:build race

package render

// raceEnabled trims the slowest pixel sweeps under -race, where they check
// nothing about concurrency and take ten times as long.
const raceEnabled = true
