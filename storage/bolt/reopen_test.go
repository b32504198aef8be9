package bolt_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/storage/bolt"
	"github.com/bashni/bashni/storage/storagetest"
)

func TestReopenKeepsEverything(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bashni.db")
	s, err := bolt.Open(path, time.Now)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	check := storagetest.Fill(t, s)
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}

	s = open(t, path)
	check(t, s)
	storagetest.AppendMove(t, s, "durable", "e3-f4")
	g, err := s.Game(t.Context(), "durable")
	if err != nil {
		t.Fatalf("Game: %v", err)
	}
	if got, want := len(g.Moves), 3; got != want {
		t.Errorf("moves after reopen and a new move: got %d, want %d", got, want)
	}
}

func TestSecondOpenTimesOut(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bashni.db")
	open(t, path)

	// The lock is never released: the Open can only end by its timeout,
	// which the error names.
	s, err := bolt.Open(path, time.Now, bolt.WithTimeout(200*time.Millisecond))
	if err == nil {
		s.Close()
		t.Fatal("second Open of a locked file: got no error, want one")
	}
	if !errors.Is(err, storage.ErrUnavailable) {
		t.Errorf("second Open: got %v, want an error wrapping storage.ErrUnavailable", err)
	}
	if !strings.Contains(err.Error(), "still locked") {
		t.Errorf("second Open: got %v, want it to say the file is still locked", err)
	}
}

func TestCloseTwice(t *testing.T) {
	s, err := bolt.Open(filepath.Join(t.TempDir(), "bashni.db"), time.Now)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	for i := range 2 {
		if err := s.Close(); err != nil {
			t.Errorf("Close #%d: %v", i+1, err)
		}
	}
}
