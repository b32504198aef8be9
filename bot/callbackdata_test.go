package bot

import (
	"strings"
	"testing"

	"github.com/bashni/bashni/rules"
)

func TestCallbackRoundTrip(t *testing.T) {
	longest := make([]rules.Square, rules.MaxJumps+1)
	for i := range longest {
		longest[i] = rules.Square(31 - i)
	}
	tests := []Callback{
		{Kind: KindPick, ID: "abcdefghij", Ply: 0, Arg: ""},
		{Kind: KindPick, ID: "abcdefghij", Ply: 9999, Arg: encodeSquares(longest)},
		// The second tap on the longest move (pickconfirm.go).
		{Kind: KindPick, ID: "abcdefghij", Ply: 9999, Arg: encodeSquares(longest) + confirmMark},
		{Kind: KindAccept, ID: "zzzzzzzzzz", Ply: -1},
		{Kind: KindColor, ID: "6", Ply: -1, Arg: "random"},
	}
	for _, c := range tests {
		data := c.Encode()
		if len(data) > maxCallbackData {
			t.Errorf("%+v encodes to %d bytes, over Telegram's 64", c, len(data))
		}
		got, err := ParseCallback(data)
		if err != nil || got != c {
			t.Errorf("ParseCallback(%q) = %+v, %v; want %+v", data, got, err, c)
		}
	}
	for _, bad := range []string{"", "p", "p|a|b|c", "p|id|1|!!", "p|id|1|a!a", strings.Repeat("x", 65), "|id|1|", "p|id|-5|"} {
		if _, err := ParseCallback(bad); err == nil {
			t.Errorf("ParseCallback(%q) accepted", bad)
		}
	}
}

// FuzzParseCallback: whatever a client sends, parsing never panics, and what
// parses encodes back to the same data.
func FuzzParseCallback(f *testing.F) {
	f.Add("p|abcdefghij|12|abc")
	f.Add("a|x|-1|")
	f.Add("p|id|1|ABCDEF")
	f.Fuzz(func(t *testing.T, data string) {
		c, err := ParseCallback(data)
		if err != nil {
			return
		}
		if got := c.Encode(); got != data {
			// Leading zeros or a "+" in the ply are the only way two
			// texts decode alike; they must still decode identically.
			again, err := ParseCallback(got)
			if err != nil || again != c {
				t.Fatalf("%q decodes to %+v, which encodes to %q", data, c, got)
			}
		}
	})
}
