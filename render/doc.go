// Package render draws Bashni boards: a PNG of a position for every reply of
// the bot, an animated GIF replay of a game, and the graph of a game's
// evaluation (GraphPNG) for its analysis.
//
// A square holds a tower, drawn as its column seen a little from above:
// the top piece's face (a crown on a king), then one band per piece, top
// first, each in its piece's colour and parted from the next by the
// piece's rim (dark under a light piece, light under a dark one); a king's
// band carries a mark in the crown's colour. A phone shows the chat's
// 640-px board about 340 px wide, so a band is 8 px (over 4 px there) and
// stands 3:1 (WCAG) from its rim even after the phone's scaling: up to 8
// pieces stand whole in a square, the face flattening as the tower grows,
// and a taller one shows its top five over a chip per colour with the
// count of the rest ("+1 6"). TestTowersReadOnAPhone reads every tower
// back from boards scaled to 340 px; docs/towers has the pictures.
//
// Speed comes from preparing everything once per theme and size (sprites of
// every piece and mark, the empty boards, a palette and its lookup table)
// and then, per board, composing only the occupied or highlighted squares
// with image/draw and encoding the 8-bit image with image/png at its
// fastest compression (most of a board's cost; see PNG). No font face or
// gg context is used to draw a board, so a Renderer is safe for concurrent
// use.
package render
