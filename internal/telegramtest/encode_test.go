package telegramtest

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// treeEncode is how the fake encoded its answers before encodeJSON: a
// decode into a tree, nulls dropped from its objects, encoded again. It is
// the reference encodeJSON must agree with.
func treeEncode(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return treeDropNulls(t, b)
}

func treeDropNulls(t testing.TB, b []byte) []byte {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var tree any
	if err := dec.Decode(&tree); err != nil {
		t.Fatal(err)
	}
	var drop func(v any) any
	drop = func(v any) any {
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				if e == nil {
					delete(v, k)
					continue
				}
				v[k] = drop(e)
			}
		case []any:
			for i, e := range v {
				v[i] = drop(e)
			}
		}
		return v
	}
	out, err := json.Marshal(drop(tree))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// canonical re-encodes JSON with its object keys sorted.
func canonical(t testing.TB, b []byte) string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var tree any
	if err := dec.Decode(&tree); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	out, err := json.Marshal(tree)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func TestEncodeJSONDropsNulls(t *testing.T) {
	s := New(t)
	chat := GroupChat(-100, `Tricky "title": null, \ <b>`)
	msg := s.TextMessage(chat, alice, `/start {"a":null} "b":null,`)
	cb := s.CallbackQuery(chat, bob, 1, "p|g|0|a1")
	kb := keyboard("x", "y")
	str := "s"
	values := []any{
		true,
		nil,
		"text with \"quotes\", \\backslashes\\ and <tags>",
		s.Bot(),
		chat,
		msg,
		cb,
		[]tgbotapi.Update{msg, cb},
		tgbotapi.Message{MessageID: 7, Chat: &chat, ReplyMarkup: &kb, Photo: []tgbotapi.PhotoSize{{FileID: "f"}}},
		tgbotapi.WebhookInfo{URL: "https://x", AllowedUpdates: []string{}},
		map[string]any{"a": nil, "b": []any{nil, map[string]any{"c": nil, `d":null,"`: nil}}, "e": map[string]any{}},
		[]any{nil, nil},
		struct {
			A *string `json:"a"`
			B *string `json:"b"`
			C *string `json:"c"`
		}{B: &str},
		json.RawMessage(`{"raw":null,"kept":[null,{"x":null}]}`),
	}
	for _, v := range values {
		got, want := encodeJSON(v), treeEncode(t, v)
		if canonical(t, got) != canonical(t, want) {
			t.Errorf("encodeJSON(%T):\n got %s\nwant %s", v, got, want)
		}
		if bytes.Contains(got, []byte(":null")) && !strings.Contains(string(want), ":null") {
			t.Errorf("encodeJSON(%T) kept a null member: %s", v, got)
		}
	}
}

// FuzzDropNulls checks dropNulls against the tree-based reference on
// JSON as json.Marshal writes it: with sorted keys, the two must agree byte
// for byte.
func FuzzDropNulls(f *testing.F) {
	for _, seed := range []string{
		`null`, `{}`, `{"a":null}`, `{"a":null,"b":1}`, `{"a":1,"b":null}`, `{"a":null,"b":null,"c":[null]}`,
		`{"a\":null":null,"b":"\\","c":{"d":null}}`, `[{"x":null},null,"null",{"y":"z"}]`, `{"nullish":"null"}`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		dec := json.NewDecoder(strings.NewReader(in))
		dec.UseNumber()
		var tree any
		if dec.Decode(&tree) != nil {
			return
		}
		b, err := json.Marshal(tree)
		if err != nil {
			return
		}
		want := treeDropNulls(t, b)
		if got := dropNulls(bytes.Clone(b)); !bytes.Equal(got, want) {
			t.Errorf("dropNulls(%s) = %s, want %s", b, got, want)
		}
	})
}
