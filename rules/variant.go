package rules

import "fmt"

// Variant selects what a capture does to the jumped pieces. Both variants
// share the whole move generator; only the end of a capture differs.
type Variant uint8

const (
	// Bashni: the top piece of each jumped tower goes under the capturer.
	Bashni Variant = iota
	// Russian draughts: jumped pieces leave the board.
	Russian
)

func (v Variant) String() string {
	switch v {
	case Bashni:
		return "bashni"
	case Russian:
		return "russian"
	}
	return fmt.Sprintf("Variant(%d)", uint8(v))
}

// ParseVariant reads a variant name as String writes it.
func ParseVariant(name string) (Variant, error) {
	switch name {
	case "bashni", "":
		return Bashni, nil
	case "russian":
		return Russian, nil
	}
	return 0, fmt.Errorf("rules: unknown variant %q (want bashni or russian)", name)
}
