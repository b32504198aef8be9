package rules

// Zobrist keys: one per (square, depth in tower, piece), so the hash covers
// every piece of every tower, plus one for Black to move and one per
// variant other than Bashni (so one transposition table may serve games of
// every ruleset, and a Bashni position hashes as it always has). They come
// from a fixed-seed generator so hashes are the same in every process
// (stores and transposition tables may keep them).
var (
	zobristPiece   [NumSquares][MaxTowerHeight][4]uint64
	zobristBlack   uint64
	zobristVariant [BashniMP + 1]uint64
)

func init() {
	seed := uint64(0x9E3779B97F4A7C15)
	next := func() uint64 { // splitmix64
		seed += 0x9E3779B97F4A7C15
		z := seed
		z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
		z = (z ^ (z >> 27)) * 0x94D049BB133111EB
		return z ^ (z >> 31)
	}
	for s := range zobristPiece {
		for d := range zobristPiece[s] {
			for p := range zobristPiece[s][d] {
				zobristPiece[s][d][p] = next()
			}
		}
	}
	zobristBlack = next()
	for v := Russian; v <= BashniMP; v++ {
		zobristVariant[v] = next()
	}
}

// towerHash is the hash contribution of tower t standing on square s.
func towerHash(s Square, t Tower) uint64 {
	var h uint64
	keys := &zobristPiece[s]
	for i, n := 0, t.Height(); i < n; i++ {
		h ^= keys[i][t.Piece(i)]
	}
	return h
}
