package rules

import (
	"fmt"
	"strings"
)

// Variant is the ruleset a game is played under. All of them share the
// board, the men and kings, compulsory capture and the end of game; they
// differ only in what a capture does to the jumped pieces (docs/rules.md, What a
// jump takes).
type Variant uint8

const (
	// Bashni: jumped towers stay until the move ends and are jumped at most
	// once; then the top piece of each goes under the capturer.
	Bashni Variant = iota
	// Russian draughts: jumped pieces leave the board when the move ends.
	Russian
	// BashniMP is Bashni of the other school (Michaelsen–Pakhomov): each
	// jump takes the top piece at once and puts it under the capturer, and
	// the rest of the jumped tower may be jumped again later in the same
	// move, though never by the very next jump.
	BashniMP
)

// Variants lists every variant, the default first.
var Variants = []Variant{Bashni, BashniMP, Russian}

func (v Variant) String() string {
	switch v {
	case Bashni:
		return "bashni"
	case Russian:
		return "russian"
	case BashniMP:
		return "bashni-mp"
	}
	return fmt.Sprintf("Variant(%d)", uint8(v))
}

// MarshalText writes the variant's name, as String does.
func (v Variant) MarshalText() ([]byte, error) {
	if v > BashniMP {
		return nil, fmt.Errorf("rules: unknown variant %d", uint8(v))
	}
	return []byte(v.String()), nil
}

// UnmarshalText reads a variant's name (see ParseVariant).
func (v *Variant) UnmarshalText(text []byte) error {
	got, err := ParseVariant(string(text))
	if err != nil {
		return err
	}
	*v = got
	return nil
}

// ParseVariant reads a variant name as String writes it; empty is Bashni,
// case does not matter, and a few names people use are accepted too:
// "mp", "michaelsen", "pakhomov" for the other school, "draughts" and
// "shashki" for Russian draughts.
func ParseVariant(name string) (Variant, error) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "bashni", "":
		return Bashni, nil
	case "russian", "draughts", "shashki":
		return Russian, nil
	case "bashni-mp", "mp", "michaelsen", "pakhomov":
		return BashniMP, nil
	}
	return 0, fmt.Errorf("rules: unknown variant %q (want bashni, bashni-mp or russian)", name)
}
