package netplay

import (
	"testing"
	"time"

	"github.com/fixstep/fixstep/engine"
)

// slowGame is a seat game whose every tick takes d on the world's clock.
type slowGame struct {
	*seatGame
	clk *fakeClock
	d   time.Duration
}

func (g *slowGame) Update(t engine.Tick) error {
	g.clk.now += g.d
	return g.seatGame.Update(t)
}

// A server's tick_us_p99 is its ticks' time, however long they take: a
// 50 ms tick is 50 ms, to its bucket's 3 % (it was capped at 32,768 µs,
// without saying so), and a 20 µs tick is 20 µs.
func TestServerTickP99(t *testing.T) {
	for _, d := range []time.Duration{20 * time.Microsecond, 1500 * time.Microsecond, 50 * time.Millisecond, 3 * time.Second} {
		var clk *fakeClock
		w := newSWorldWrapped(t, ServerConfig{Players: 2}, 0, 45, func(g *seatGame) engine.Game { return &slowGame{seatGame: g} }, nil)
		clk = w.clock
		w.srv.srv.game.(*slowGame).clk, w.srv.srv.game.(*slowGame).d = clk, d
		for range 200 {
			w.srv.srv.Update(tick0(t))
		}
		got := w.srv.srv.Stats().TickP99()
		t.Logf("ticks of %v: tick_us_p99=%d", d, got/time.Microsecond)
		if got < d || got > d+d*33/1000+time.Microsecond {
			t.Errorf("ticks of %v: p99 %v", d, got)
		}
	}
}

// Every tick time falls in a bucket whose top is at least it and at most
// 3.2 % (or 1 µs) more, and the buckets are in order.
func TestTickBuckets(t *testing.T) {
	prev := -1
	for us := uint64(0); us < 1<<32; us += 1 + us/97 {
		i := tickBucket(us)
		top := tickTop(i)
		if i < prev || i >= tickBuckets || top < us || top > us+us/31+1 {
			t.Fatalf("%d µs: bucket %d (top %d), the one before %d", us, i, top, prev)
		}
		prev = i
	}
}
