package storagetest

import (
	"testing"

	"github.com/bashni/bashni/storage"
)

// testChats: a group's own settings are absent until put, then read back
// as last put, chat by chat.
func testChats(t *testing.T, newStore func(t *testing.T) storage.Store) {
	s := newStore(t)
	_, err := s.Chat(ctxFor(t), -100)
	checkErr(t, "Chat of a new store", err, storage.ErrNotFound)
	checkErr(t, "PutChat", s.PutChat(ctxFor(t), storage.Chat{ID: -100, Lang: "ru"}), nil)
	checkErr(t, "PutChat another", s.PutChat(ctxFor(t), storage.Chat{ID: -200, Lang: "en"}), nil)
	got, err := s.Chat(ctxFor(t), -100)
	checkErr(t, "Chat", err, nil)
	checkDeep(t, "chat", got, &storage.Chat{ID: -100, Lang: "ru"})
	checkErr(t, "PutChat again", s.PutChat(ctxFor(t), storage.Chat{ID: -100, Lang: "en"}), nil)
	got, err = s.Chat(ctxFor(t), -100)
	checkErr(t, "Chat after a change", err, nil)
	checkDeep(t, "changed chat", got, &storage.Chat{ID: -100, Lang: "en"})
	got, err = s.Chat(ctxFor(t), -200)
	checkErr(t, "Chat of the other", err, nil)
	checkDeep(t, "other chat", got, &storage.Chat{ID: -200, Lang: "en"})
	_, err = s.Chat(ctxFor(t), -300)
	checkErr(t, "Chat never put", err, storage.ErrNotFound)
	if err := s.PutChat(ctxFor(t), storage.Chat{Lang: "ru"}); err == nil {
		t.Errorf("PutChat without an id: no error")
	}
}
