package netplay

import (
	"context"
	"errors"
	"net/netip"
	"sync"
	"testing"
	"time"

	"github.com/fixstep/fixstep/engine"
)

// loopGame is the test game run by an engine.Loop: it stops the loop once
// its session has confirmed enough ticks.
type loopGame struct {
	*testGame
	s     *Session
	ticks uint64
}

func (g *loopGame) End(*engine.Stats) error {
	if g.s.Confirmed() >= g.ticks && g.s.Tick() >= g.ticks {
		return engine.ErrStopped
	}
	return nil
}

// Two engine.Loops, each on its own goroutine and real clock, play over
// real UDP sockets on loopback: the session is the loop's game, and both
// end with the same history.
func TestUDPLoopback(t *testing.T) {
	const ticks = 90
	var conns [2]*UDP
	for i := range conns {
		c, err := ListenUDP("127.0.0.1:0")
		if err != nil {
			t.Skipf("no loopback UDP: %v", err)
		}
		conns[i] = c
		defer c.Close()
	}
	addrs := []netip.AddrPort{conns[0].Addr(), conns[1].Addr()}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	games := make([]*loopGame, 2)
	sessions := make([]*Session, 2)
	errs := make([]error, 2)
	for i := range 2 {
		g := &loopGame{testGame: &testGame{player: i, players: 2}, ticks: ticks}
		s, err := NewSession(SessionConfig{Players: 2, Local: i, Addrs: addrs, InputSize: 2, Params: "test", Sim: 0xb1}, g, conns[i])
		if err != nil {
			t.Fatal(err)
		}
		g.s = s
		loop, err := engine.NewLoop(engine.Config{TPS: 60}, engine.NewHeadless(60), s)
		if err != nil {
			t.Fatal(err)
		}
		s.SetTimeScaler(loop.Timestep())
		games[i], sessions[i] = g, s
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = loop.Run(ctx)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		st := sessions[i].Stats()
		t.Logf("peer %d: %v;%s ticks=%d confirmed=%d in=%d out=%d", i, err, sessions[i].Report(), st.Tick, st.Confirmed, st.PacketsIn, st.PacketsOut)
		if !errors.Is(err, engine.ErrStopped) {
			t.Errorf("peer %d: %v", i, err)
		}
		if st.PacketsBad != 0 || st.RTT <= 0 || st.RTT > time.Second {
			t.Errorf("peer %d: %d bad datagrams, RTT %v", i, st.PacketsBad, st.RTT)
		}
	}
	for k := range ticks {
		if games[0].after[k] != games[1].after[k] {
			t.Fatalf("tick %d: hashes %x and %x", k, games[0].after[k], games[1].after[k])
		}
	}
}
