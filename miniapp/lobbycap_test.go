package miniapp

import (
	"net/http"
	"sync"
	"testing"

	"github.com/bashni/bashni/storage/redis"
	"github.com/bashni/bashni/storage/redis/redistest"
)

// A script pressing the lobby's button 60 times at once starts no more
// games than the cap (issue 38: 20 games from 60 parallel requests under a
// cap of 10), on either store and across replicas.
func TestLobbyCapHoldsUnderParallelRequests(t *testing.T) {
	for _, tc := range []struct {
		name string
		new  func(t *testing.T) *harness
	}{
		{"bolt", func(t *testing.T) *harness { return newHarnessWith(t, gameSpec{}, nil) }},
		{"redis, two replicas", func(t *testing.T) *harness {
			db := redistest.New(t)
			st1 := redis.New(db.Client(t), sharedClock.Now, redis.WithPrefix(db.Prefix))
			st2 := redis.New(db.Client(t), sharedClock.Now, redis.WithPrefix(db.Prefix))
			return newHarness(t, st1, st1, st2)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := tc.new(t)
			alice := User{ID: h.alice.ID, FirstName: "Alice", LanguageCode: "en"}
			auth := h.lobbyAuth(alice)
			var wg sync.WaitGroup
			var mu sync.Mutex
			codes := map[int]int{}
			for i := range 60 {
				r := h.reps[i%len(h.reps)]
				wg.Go(func() {
					code := h.call(r, "POST", "/api/lobby/ai", auth, `{"rules":"bashni","level":1,"color":"white"}`, nil)
					mu.Lock()
					codes[code]++
					mu.Unlock()
				})
			}
			wg.Wait()
			gs, err := h.reps[0].svc.ActiveGames(h.ctx, alice.ID, 0)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("60 parallel requests: %v; Alice plays %d games", codes, len(gs))
			// Alice plays the harness's game already: nine more fit.
			if len(gs) > DefaultMaxGames || codes[http.StatusOK] != DefaultMaxGames-1 || codes[http.StatusTooManyRequests] != 60-(DefaultMaxGames-1) {
				t.Errorf("60 parallel requests: answers %v, %d games in progress; want %d made, the rest 429, %d games", codes, len(gs), DefaultMaxGames-1, DefaultMaxGames)
			}
		})
	}
}
