// Package rules is pure Bashni: positions, towers, move generation, notation,
// the game record, draw rules and perft.
//
// Bashni (Russian "towers", also column draughts) is Russian draughts in which
// jumped pieces are not removed but go under the piece that jumped them. The
// package follows docs/rules.md to the letter; each test names the
// paragraph it pins. A Variant value chooses the ruleset per position: Bashni
// (the default), the other school of Bashni (BashniMP: each jump takes its
// piece at once, and a tower may be jumped again later in the same move), or
// Russian draughts (jumped pieces leave the board). Perft matches the
// published figures of each.
//
// The package has no I/O, no clock and no context: a Position is a value and
// applying a move returns a new Position, so callers may copy, compare (==)
// and hash positions freely. Move generation appends to a caller's slice and
// allocates nothing per node.
//
// Squares are numbered 0..31 over the dark squares, by rank then file
// (a1, c1, e1, g1, b2, …, h8), which is also the canonical order of the
// position text.
package rules
