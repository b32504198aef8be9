package telegramtest

import (
	"reflect"
	"testing"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

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

// clone must copy every field of a button and share no pointer with the
// keyboard it copies; filling the fields by reflection catches fields a
// newer tgbotapi adds.
func TestKeyboardClone(t *testing.T) {
	var btn tgbotapi.InlineKeyboardButton
	fill(t, reflect.ValueOf(&btn).Elem())
	k := &inlineKeyboard{markup: tgbotapi.InlineKeyboardMarkup{
		InlineKeyboard: [][]tgbotapi.InlineKeyboardButton{{btn, btn}, {}, nil},
	}}
	got := k.clone()
	if !reflect.DeepEqual(*got, k.markup) {
		t.Fatalf("clone = %+v, want %+v", *got, k.markup)
	}
	for i, row := range got.InlineKeyboard {
		for j := range row {
			a, b := reflect.ValueOf(row[j]), reflect.ValueOf(k.markup.InlineKeyboard[i][j])
			for f := range a.NumField() {
				if a.Field(f).Kind() == reflect.Pointer && a.Type().Field(f).Type.Elem().Size() > 0 && a.Field(f).Pointer() == b.Field(f).Pointer() {
					t.Errorf("button %d,%d: clone shares %s", i, j, a.Type().Field(f).Name)
				}
			}
		}
	}
	if (*inlineKeyboard)(nil).clone() != nil || (*inlineKeyboard)(nil).shared() != nil {
		t.Error("no keyboard cloned or shared as one")
	}
}

// fill sets every field of v, through pointers, to a non-zero value.
func fill(t *testing.T, v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString("x")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64:
		v.SetInt(1)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(t, v.Elem())
	case reflect.Struct:
		for i := range v.NumField() {
			fill(t, v.Field(i))
		}
	default:
		t.Fatalf("fill: a field of kind %s; teach fill and clone about it", v.Kind())
	}
}
