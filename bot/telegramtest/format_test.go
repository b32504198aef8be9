package telegramtest

import "testing"

func TestFormat(t *testing.T) {
	tests := []struct {
		text, mode string
		want       string
		refusal    string
	}{
		{"plain <b>", "", "plain <b>", ""},
		{"  padded \n", "", "padded", ""},
		{"<b>White</b> &amp; <i>Black</i>", "HTML", "White & Black", ""},
		{"&lt;3 &#128512; &#x41; &nbsp;", "HTML", "<3 😀 A &nbsp;", ""},
		{`<a href="https://t.me">link</a>`, "HTML", "link", ""},
		{"<b>open", "HTML", "", `Bad Request: can't parse entities: Can't find end tag corresponding to start tag "b"`},
		{"<b>x</i>", "HTML", "", `Bad Request: can't parse entities: Unmatched end tag at byte offset 4, expected "</b>", found "</i>"`},
		{"x</b>", "HTML", "", "Bad Request: can't parse entities: Unexpected end tag at byte offset 1"},
		{"<h1>x</h1>", "HTML", "", `Bad Request: can't parse entities: Unsupported start tag "h1" at byte offset 0`},
		{"*bold*", "MarkdownV2", "*bold*", ""},
		{"x", "BBCode", "", "Bad Request: unsupported parse_mode"},
	}
	for _, tt := range tests {
		t.Run(tt.mode+" "+tt.text, func(t *testing.T) {
			got, f := format(tt.text, tt.mode)
			switch {
			case tt.refusal != "" && (f == nil || f.Description != tt.refusal):
				t.Errorf("refusal = %v, want %q", f, tt.refusal)
			case tt.refusal == "" && f != nil:
				t.Errorf("refused: %q", f.Description)
			case got.text != tt.want:
				t.Errorf("text = %q, want %q", got.text, tt.want)
			}
		})
	}
}

func TestFormatEntities(t *testing.T) {
	bold, _ := format("<b>x</b> y", "HTML")
	italic, _ := format("<i>x</i> y", "HTML")
	padded, _ := format("\n<b>x</b> y ", "HTML")
	if bold.entities == italic.entities {
		t.Errorf("bold and italic have the same entities %q", bold.entities)
	}
	if bold != padded {
		t.Errorf("trimmed %+v differs from %+v", padded, bold)
	}
}
