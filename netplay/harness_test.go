package netplay

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"net/netip"
	"testing"
	"time"

	"github.com/fixstep/fixstep/engine"
	"github.com/fixstep/fixstep/internal/fnv"
)

// fakeClock is the tests' clock: it moves when the harness moves it.
type fakeClock struct{ now time.Duration }

func (c *fakeClock) Now() time.Duration { return c.now }

// histLen is how many ticks a test game remembers.
const histLen = 1 << 14

// testGame is a tiny deterministic game: each seated player moves a
// position by its input, and a running hash folds in every position and
// every empty seat. Its local input
// changes every few ticks, from a seeded function of the player and the
// tick, so predictions are often right and sometimes wrong.
type testGame struct {
	player, players int
	pos             [MaxPeers]int64
	h               uint64
	n               uint64

	after     [histLen]uint64 // the hash after tick n, as last run
	hist      [histLen]uint64 // the hash after tick n, written when its inputs were all confirmed
	histOK    [histLen]bool
	predicted int // updates given a predicted input
	reruns    int
	updates   int
	stopAt    int // a game error on tick stopAt (0: never)
	pad       int // bytes the saved state carries beyond its fields, a function of them
}

// inputOf is player p's input at tick n: 0, 1 or 2, held for 1 to 8 ticks.
func inputOf(p int, n uint64) byte {
	k := n / (1 + (n/8+uint64(p))%8)
	x := (k+uint64(p)*0x9e37)*0x9e3779b97f4a7c15 + uint64(p)
	return byte((x >> 61) % 3)
}

func (g *testGame) Input(t engine.Tick, dst []byte) {
	dst[0] = inputOf(g.player, t.N)
	dst[1] = byte(t.N / 16)
}

func (g *testGame) Update(t engine.Tick) error {
	g.updates++
	if t.Rerun {
		g.reruns++
	}
	if !t.Input.Confirmed() {
		g.predicted++
	}
	if t.N != g.n {
		return fmt.Errorf("update of tick %d, the game is at %d", t.N, g.n)
	}
	for p := range g.players {
		if !t.Input.Seated(p) {
			g.h = fnv.Uint64(g.h, uint64(p)) // an empty seat stands still
			continue
		}
		in := t.Input.Player(p)
		g.pos[p] += int64(in[0]) - 1
		g.h = fnv.Uint64(g.h, uint64(g.pos[p])^uint64(in[1])<<32)
	}
	g.n++
	if t.N < histLen {
		g.after[t.N] = g.h
	}
	if t.Input.Confirmed() && t.N < histLen {
		g.hist[t.N], g.histOK[t.N] = g.h, true
	}
	if g.stopAt > 0 && int(t.N) == g.stopAt {
		return errStopTest
	}
	return nil
}

var errStopTest = errors.New("test game stops")

func (g *testGame) Draw(engine.Frame) {}

func (g *testGame) Save(dst []byte) []byte {
	for _, p := range g.pos {
		dst = binary.LittleEndian.AppendUint64(dst, uint64(p))
	}
	dst = binary.LittleEndian.AppendUint64(dst, g.h)
	dst = binary.LittleEndian.AppendUint64(dst, g.n)
	for i := range g.pad {
		dst = append(dst, byte(g.h>>(i%8*8))^byte(i))
	}
	return dst
}

func (g *testGame) Load(src []byte) error {
	if len(src) != 8*(MaxPeers+2)+g.pad {
		return fmt.Errorf("test game: %d bytes", len(src))
	}
	for i := range g.pos {
		g.pos[i] = int64(binary.LittleEndian.Uint64(src[8*i:]))
	}
	g.h = binary.LittleEndian.Uint64(src[8*MaxPeers:])
	g.n = binary.LittleEndian.Uint64(src[8*MaxPeers+8:])
	return nil
}

// program is one program of a harness world, in any role: the Match its
// loop runs, its transport, timestep and frame timing on the world's
// fake clock.
type program struct {
	game engine.Game // the Session, the Server or the Client
	// begin is game's Begin, if it has one, asserted for beginOf.
	begin   engine.Beginner
	beginOf engine.Game
	ts      engine.Timestep
	conn    *MemConn
	sim     *SimTransport
	frames  engine.Frames
	skew    float64 // the program's clock runs this much fast: 0.01 is 1 %
	next    time.Duration
	last    time.Duration
	err     error
	off     bool // no longer run (a vanished peer, a killed process)
	// intervals, when not nil, gets every frame's interval: from its start
	// to the next frame's, which starts late when the frame's work (a game
	// that moves the clock) overran it.
	intervals []time.Duration
}

func (p *program) prog() *program { return p }

// step runs the frame of the running program whose frame comes first in
// ps, once the stopped ones have let out their last datagrams (flush:
// their byes still go out, as from a process that lingers), and reports
// false when none runs.
func step[P interface{ prog() *program }](clock *fakeClock, ps []P, flush func(P)) bool {
	var first *program
	for _, p := range ps {
		if m := p.prog(); !m.off && m.err == nil && (first == nil || m.next < first.next) {
			first = m
		}
	}
	if first == nil {
		return false
	}
	clock.now = first.next
	for _, p := range ps {
		if m := p.prog(); m.err != nil && !m.off {
			flush(p)
		}
	}
	first.frame()
	// A game whose ticks cost time moves the clock on: a frame that took
	// longer than its interval is followed at once by the next, which
	// then has more ticks to run, as in a loop. The others' frames, due
	// meanwhile, ran on other cores: the clock goes back to them.
	first.next = max(first.next, clock.now)
	if first.intervals != nil {
		first.intervals = append(first.intervals, first.next-first.last)
	}
	return true
}

// frame runs the program's frame due now, as a loop does (Begin, the
// ticks due, Draw), and sets the time of its next one.
func (p *program) frame() {
	d := p.next - p.last
	if p.skew != 0 {
		d += time.Duration(float64(d) * p.skew)
	}
	p.last = p.next
	f := p.ts.Advance(d)
	if p.beginOf != p.game {
		// Asserted once per game: the runtime's cache of a type
		// assertion allocates as it grows, which a count of the
		// frames' allocations would see.
		p.begin, _ = p.game.(engine.Beginner)
		p.beginOf = p.game
	}
	if p.begin != nil {
		if err := p.begin.Begin(f); err != nil {
			p.err = err
		}
	}
	for i := 0; i < f.Ticks && p.err == nil; i++ {
		if err := p.game.Update(f.Tick(i)); err != nil {
			p.err = err
		}
	}
	p.game.Draw(f)
	iv, _ := p.frames.Next()
	p.next += iv
}

// node is one peer of a harness: a session and its game.
type node struct {
	program
	s *Session
	g *testGame
}

// world runs peers in one process over a MemNet, each with its own frame
// timing, on one fake clock: a discrete-event simulation, the same on
// every run.
type world struct {
	clock *fakeClock
	net   *MemNet
	nodes []*node
}

func addr(i int) netip.AddrPort {
	return netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, 0, 0, byte(1 + i)}), 7000)
}

// worldOpts set up a world.
type worldOpts struct {
	players    int
	spectators int // fed by player 0
	sim        NetSim
	seed       uint64
	tweak      func(i int, c *SessionConfig)        // change node i's config
	jitter     bool                                 // frame intervals of 15 to 18.3 ms instead of 16.67
	noScaler   bool                                 // the sessions may not slow the timesteps
	pad        int                                  // testGame.pad
	wrap       func(i int, g *testGame) engine.Game // node i's session runs this game around g (nil: g)
	transport  func(i int, tr Transport) Transport  // node i's session sends and reads through this (nil: its SimTransport)
}

func newWorld(tb testing.TB, o worldOpts) *world {
	tb.Helper()
	o.players = cmp.Or(o.players, 2)
	w := &world{clock: &fakeClock{now: time.Second}, net: NewMemNet()}
	addrs := make([]netip.AddrPort, o.players)
	for i := range addrs {
		addrs[i] = addr(i)
	}
	var specs []netip.AddrPort
	for i := range o.spectators {
		specs = append(specs, addr(o.players+i))
	}
	for i := range o.players + o.spectators {
		c := SessionConfig{Players: o.players, Local: i, Addrs: addrs, InputSize: 2, Params: "test", Sim: 0xb1,
			Clock: w.clock, Seed: o.seed*100 + uint64(i) + 1}
		if i == 0 {
			c.Spectators = specs
		}
		if i >= o.players {
			c = SessionConfig{Players: o.players, Spectate: true, Host: addrs[0], InputSize: 2, Params: "test", Sim: 0xb1,
				Clock: w.clock, Seed: o.seed*100 + uint64(i) + 1}
		}
		if o.tweak != nil {
			o.tweak(i, &c)
		}
		n := &node{g: &testGame{player: i, players: o.players, pad: o.pad}}
		n.conn = w.net.Listen(addr(i))
		n.sim = NewSimTransport(n.conn, o.sim, w.clock, o.seed*1000+uint64(i))
		var game engine.Game = n.g
		if o.wrap != nil {
			game = o.wrap(i, n.g)
		}
		var tr Transport = n.sim
		if o.transport != nil {
			tr = o.transport(i, tr)
		}
		s, err := NewSession(c, game, tr)
		if err != nil {
			tb.Fatal(err)
		}
		n.s, n.game = s, s
		if !o.noScaler {
			s.SetTimeScaler(&n.ts)
		}
		tps := c.TPS
		n.ts, err = engine.NewTimestep(engine.Config{TPS: tps})
		if err != nil {
			tb.Fatal(err)
		}
		n.frames = engine.ConstantFrames(16_666_667)
		if o.jitter {
			n.frames = engine.NewJitterFrames(o.seed+uint64(i)*7, 15*time.Millisecond, 18300*time.Microsecond)
		}
		// Peers start up to 50 ms apart.
		n.next = w.clock.now + time.Duration(i)*17*time.Millisecond
		n.last = n.next
		w.nodes = append(w.nodes, n)
	}
	return w
}

// step runs the frame of the node due first, and reports false when no
// node runs.
func (w *world) step() bool {
	return step(w.clock, w.nodes, func(m *node) { m.sim.Flush() })
}

// run steps until the clock passes d more, or every node stopped.
func (w *world) run(d time.Duration) {
	end := w.clock.now + d
	for w.clock.now < end && w.step() {
	}
}

// runInStep runs the world for d, fails on any node's error, and fails
// unless want ticks or more are final, and the same, on every node.
func (w *world) runInStep(tb testing.TB, d time.Duration, want int) {
	tb.Helper()
	w.run(d)
	w.noErrors(tb)
	if n := w.sameHistory(tb); n < want {
		tb.Fatalf("%d ticks the same on every node, want %d or more", n, want)
	}
}

// errs fails the test on any node's error.
func (w *world) noErrors(tb testing.TB) {
	tb.Helper()
	for i, n := range w.nodes {
		if n.err != nil {
			tb.Fatalf("node %d: %v", i, n.err)
		}
	}
}

// final returns how many ticks of n's game are final: confirmed, run, and
// not waiting for a rollback.
func (n *node) final() int {
	return min(n.s.confirmed(), n.s.firstWrong, n.s.tick, histLen)
}

// sameHistory checks that every game has the same hash after each tick
// that is final on every node, and that a tick run on confirmed inputs
// left the final hash; it returns how many ticks it compared.
func (w *world) sameHistory(tb testing.TB) int {
	tb.Helper()
	limit := histLen
	for _, n := range w.nodes {
		if !n.off {
			limit = min(limit, n.final())
		}
	}
	a := w.nodes[0].g
	for i, n := range w.nodes {
		b := n.g
		for k := range limit {
			if b.after[k] != a.after[k] {
				tb.Fatalf("tick %d: node 0's hash %x, node %d's %x", k, a.after[k], i, b.after[k])
			}
			if b.histOK[k] && b.hist[k] != b.after[k] {
				tb.Fatalf("tick %d: node %d ran it on confirmed inputs to %x, and last to %x", k, i, b.hist[k], b.after[k])
			}
		}
	}
	return limit
}

// addrStranger is an address no session knows.
var addrStranger = netip.MustParseAddrPort("192.0.2.9:9999")

func newTimestep(tps int) (engine.Timestep, error) {
	return engine.NewTimestep(engine.Config{TPS: tps})
}

// tick0 returns a loop tick at 60 TPS, for calling Update by hand.
func tick0(tb testing.TB) engine.Tick {
	ts, err := newTimestep(60)
	if err != nil {
		tb.Fatal(err)
	}
	return ts.Advance(20 * time.Millisecond).Tick(0)
}

// drain discards what waits at c.
func drain(c *MemConn) {
	var buf [MaxPacket]byte
	for {
		if _, _, ok := c.ReadFrom(buf[:]); !ok {
			return
		}
	}
}
