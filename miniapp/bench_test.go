package miniapp

import (
	"net/http"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/bashni/bashni/storage/redis"
	"github.com/bashni/bashni/storage/redis/redistest"
)

// BenchmarkAPIMove plays moves through the app's API on one replica (bbolt,
// the card edited through the fake Bot API as in production), with the
// opponent's board open: moves/s, and how long a move takes from the
// request to the other board's event (p50, p95).
func BenchmarkAPIMove(b *testing.B) {
	benchMoves(b, newHarness(b, nil), 0)
}

// BenchmarkAPIMoveRedis is the same on Redis with two replicas: moves go
// to one, the other board is open on the other, so each move crosses
// Redis pub/sub.
func BenchmarkAPIMoveRedis(b *testing.B) {
	db := redistest.New(b)
	st1 := redis.New(db.Client(b), sharedClock.Now, redis.WithPrefix(db.Prefix))
	st2 := redis.New(db.Client(b), sharedClock.Now, redis.WithPrefix(db.Prefix))
	benchMoves(b, newHarness(b, st1, st1, st2), 1)
}

// benchMoves plays b.N moves on replica 0 and watches them on replica
// watchOn.
func benchMoves(b *testing.B, h *harness, watchOn int) {
	r := h.reps[0]
	players := map[string]string{"w": h.initData(h.alice), "b": h.initData(h.bob)}
	var st state
	if code := h.call(r, "GET", "/api/games/"+h.gameID, players["w"], "", &st); code != http.StatusOK {
		b.Fatalf("state: %d", code)
	}
	watch := h.events(h.reps[watchOn], players["b"])
	nextState(b, watch, 0)
	lat := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if !st.Active || len(st.Legal) == 0 {
			b.StopTimer()
			g, err := h.newGame(gameSpec{})
			if err != nil {
				b.Fatal(err)
			}
			h.gameID = g.ID()
			players = map[string]string{"w": h.initData(h.alice), "b": h.initData(h.bob)}
			h.call(r, "GET", "/api/games/"+h.gameID, players["w"], "", &st)
			watch = h.events(h.reps[watchOn], players["b"])
			nextState(b, watch, 0)
			b.StartTimer()
		}
		mover := st.Turn
		start := time.Now()
		body := `{"ply":` + strconv.Itoa(st.Ply) + `,"move":"` + st.Legal[0].Text + `"}`
		var next state
		if code := h.call(r, "POST", "/api/games/"+h.gameID+"/move", players[mover], body, &next); code != http.StatusOK {
			b.Fatalf("move %s: %d", body, code)
		}
		nextState(b, watch, next.Ply)
		lat = append(lat, time.Since(start))
		st = next
	}
	b.StopTimer()
	elapsed := b.Elapsed()
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "moves/s")
	slices.Sort(lat)
	if len(lat) > 0 {
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(lat[len(lat)*95/100].Microseconds())/1000, "p95-ms")
	}
	h.reps[0].bot.Wait()
}
