package texts

import "testing"

func TestTelegramLen(t *testing.T) {
	for _, tc := range []struct {
		text, mode string
		want       int
	}{
		{"plain", "", 5},
		{"шашки", "", 5},
		{"😀", "", 2}, // outside the basic plane: a surrogate pair
		{`<b>Alice</b> &amp; <a href="tg://user?id=1">Bob</a>`, "HTML", 11},
		{"&lt;b&gt;", "HTML", 3},
		{"&lt;b&gt;", "", 9},
		{"<i>😀</i>", "HTML", 2},
	} {
		if got := TelegramLen(tc.text, tc.mode); got != tc.want {
			t.Errorf("TelegramLen(%q, %q) = %d; want %d", tc.text, tc.mode, got, tc.want)
		}
	}
}
