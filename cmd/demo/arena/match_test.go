package arena

import (
	"net/netip"
	"testing"
	"time"

	"github.com/fixstep/fixstep/engine"
	"github.com/fixstep/fixstep/input"
	"github.com/fixstep/fixstep/netplay"
)

// clock is the match's fake clock, moved by the test.
type clock struct{ now time.Duration }

func (c *clock) Now() time.Duration { return c.now }

// drawless adds the Draw a Game needs to a scene.
type drawless struct{ *Scene }

func (drawless) Draw(engine.Frame) {}

// peer is one side of an in-process match.
type peer struct {
	sc  *Scene
	s   *netplay.Session
	ts  engine.Timestep
	err error
}

// frame runs one 60 Hz frame of p, as its loop would.
func (p *peer) frame() {
	if p.err != nil {
		return
	}
	f := p.ts.Advance(16_666_667)
	if p.err = p.s.Begin(f); p.err != nil {
		return
	}
	for i := 0; i < f.Ticks && p.err == nil; i++ {
		p.err = p.s.Update(f.Tick(i))
	}
}

// TestMatchOverABadLink plays the demo's world between two bots over the
// link simulator (50 ms, 10 ms jitter, 5 % loss, 1 % duplication), in one
// process on a fake clock: both sides end at tick 1,200 in the same
// state, rollbacks happen, none deeper than MaxPrediction, each restores
// the world from its own snapshot (unchecked: netplay's ring hands back
// the bytes the scene's Save wrote, and package save the world's part of
// them where the world wrote it), and once under way a frame allocates
// nothing, rollbacks included.
func TestMatchOverABadLink(t *testing.T) {
	const end = 1200
	clk := &clock{now: time.Second}
	net := netplay.NewMemNet()
	link := netplay.NetSim{Latency: 50 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.05, Dup: 0.01}
	addrs := []netip.AddrPort{netip.MustParseAddrPort("10.0.0.1:7000"), netip.MustParseAddrPort("10.0.0.2:7000")}
	var peers [2]*peer
	for i := range peers {
		sc, err := NewMatch(300, 1, 2, input.Actions{})
		if err != nil {
			t.Fatal(err)
		}
		sc.Bot = uint64(i + 1)
		tr := netplay.NewSimTransport(net.Listen(addrs[i]), link, clk, uint64(i+1))
		s, err := netplay.NewSession(netplay.SessionConfig{Players: 2, Local: i, Addrs: addrs, InputSize: InputSize,
			Params: "arena test", Clock: clk, Seed: uint64(i + 1), EndTick: end}, drawless{sc}, tr)
		if err != nil {
			t.Fatal(err)
		}
		p := &peer{sc: sc, s: s}
		if p.ts, err = engine.NewTimestep(engine.Config{TPS: 60}); err != nil {
			t.Fatal(err)
		}
		s.SetTimeScaler(&p.ts)
		peers[i] = p
	}
	frame := func() {
		clk.now += 16_666_667
		for _, p := range peers {
			p.frame()
		}
	}
	for range 400 {
		frame()
	}
	before := peers[0].s.Stats().Rollbacks + peers[1].s.Stats().Rollbacks
	if allocs := testing.AllocsPerRun(300, frame); allocs != 0 {
		t.Errorf("%.2f allocations per frame, want 0", allocs)
	}
	if peers[0].s.Stats().Rollbacks+peers[1].s.Stats().Rollbacks == before {
		t.Error("no rollback while allocations were counted")
	}
	for range 2000 {
		if peers[0].err != nil && peers[1].err != nil {
			break
		}
		frame()
	}
	for i, p := range peers {
		st := p.s.Stats()
		t.Logf("peer %d:%s", i, p.s.Report())
		if p.err != engine.ErrStopped || p.sc.World.Ticks() != end || st.Desyncs != 0 || st.RollbackTicksMax > 8 {
			t.Errorf("peer %d: %v at tick %d, %d desyncs, rollbacks up to %d ticks", i, p.err, p.sc.World.Ticks(), st.Desyncs, st.RollbackTicksMax)
		}
		if own, checked := p.sc.World.Restores(); own != st.Rollbacks || checked != 0 || own == 0 {
			t.Errorf("peer %d: %d rollbacks restored %d snapshots of the world's own and %d checked; want all its own", i, st.Rollbacks, own, checked)
		}
	}
	if a, b := engine.StateHash(peers[0].sc.Save(nil)), engine.StateHash(peers[1].sc.Save(nil)); a != b {
		t.Errorf("the peers end on hashes %016x and %016x", a, b)
	}
}
