package testkit

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

func TestClockMovesOnlyWhenTold(t *testing.T) {
	start := time.Now()
	c := NewClock(start)
	if !c.Now().Equal(start) {
		t.Fatalf("Now %v, want %v", c.Now(), start)
	}
	c.Advance(90 * time.Minute)
	if want := start.Add(90 * time.Minute); !c.Now().Equal(want) {
		t.Errorf("after Advance: %v, want %v", c.Now(), want)
	}
}

func TestBufferTakesConcurrentWrites(t *testing.T) {
	var b Buffer
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() { fmt.Fprintf(&b, "line %02d\n", i) })
	}
	wg.Wait()
	if got := len(b.String()); got != 20*len("line 00\n") {
		t.Errorf("%d bytes written, want %d", got, 20*len("line 00\n"))
	}
}

func TestBufferWaitForWakesOnTheWrite(t *testing.T) {
	var b Buffer
	found := make(chan bool)
	go func() { found <- b.WaitFor("ready", time.Minute) }()
	fmt.Fprint(&b, "not yet\n")
	fmt.Fprint(&b, "ready\n")
	if !<-found {
		t.Fatal("WaitFor missed the line")
	}
	if b.WaitFor("never written", time.Millisecond) {
		t.Fatal("WaitFor found a line never written")
	}
}
