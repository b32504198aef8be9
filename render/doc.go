// Package render draws Bashni boards: a PNG of a position for every reply of
// the bot, and an animated GIF replay of a game.
//
// A square holds a tower, drawn as a stack of pieces seen slightly from the
// side: the top piece's face is the largest and clearest thing on the square
// (its colour says who owns the tower, a crown says it is a king), and every
// piece under it shows as a band in its own colour, with gold studs for a
// king. Every tower of two or more stands on a badge with the counts, so its
// height and colours read at a glance on a phone, where a 640-px board shows
// about 320 px wide and layers are a few pixels thick: a chip in the owner's
// colour and one in the prisoners' colour, "5", "5♛2" (two of the five are
// kings) or "♛5". A tower too tall to draw piece by piece shows the top of
// each of its two blocks above the badge.
//
// Speed comes from preparing everything once per theme and size (sprites of
// every piece and mark, the empty boards, a palette and its lookup table)
// and then, per board, composing only the occupied or highlighted squares
// with image/draw and encoding the 8-bit image with image/png at its
// fastest compression (most of a board's cost; see PNG). No font face or
// gg context is used at render time, so a Renderer is safe for concurrent
// use.
package render
