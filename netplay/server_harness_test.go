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

// seatGame is the server tests' game: each seated player walks by its
// input; a seat that becomes taken starts at a place of its own, and one
// that empties is cleared; a running hash folds in every tick. Its local
// input changes every few ticks (inputOf), so a client's predictions of
// the others are often right and sometimes wrong. A bad tick, when set,
// makes the game diverge there once: non-portable game code.
type seatGame struct {
	seat  int // the seat whose input Input writes
	pos   [MaxSeats]int64
	in    [MaxSeats]bool
	h     uint64
	n     uint64
	pad   []byte // extra state, to make the state large
	bad   int    // on tick bad, this game's Update differs (0: never)
	worse bool   // and on every tick after it
	saves int
}

func (g *seatGame) Input(t engine.Tick, dst []byte) {
	dst[0] = inputOf(g.seat, t.N)
	dst[1] = byte(t.N / 16)
}

func (g *seatGame) Update(t engine.Tick) error {
	if t.N != g.n {
		return fmt.Errorf("update of tick %d, the game is at %d", t.N, g.n)
	}
	in := t.Input
	for p := range in.Players() {
		switch seated := in.Seated(p); {
		case seated && !g.in[p]:
			g.pos[p], g.in[p] = int64(100*p), true
		case !seated && g.in[p]:
			g.pos[p], g.in[p] = 0, false
		}
		if g.in[p] {
			b := in.Player(p)
			g.pos[p] += int64(b[0]) - 1
			g.h = fnv.Uint64(g.h, uint64(g.pos[p])^uint64(b[1])<<32)
		}
	}
	if g.bad > 0 && (int(t.N) == g.bad || g.worse && int(t.N) > g.bad) {
		g.h++
	}
	g.h = fnv.Uint64(g.h, g.n)
	g.n++
	return nil
}

func (g *seatGame) Draw(engine.Frame) {}

// Begin takes the seat the client plays (Frame.Local): Input writes it.
func (g *seatGame) Begin(f engine.Frame) error { g.seat = f.Local; return nil }

func (g *seatGame) Save(dst []byte) []byte {
	g.saves++
	for p := range MaxSeats {
		dst = binary.LittleEndian.AppendUint64(dst, uint64(g.pos[p]))
	}
	var in uint32
	for p := range MaxSeats {
		if g.in[p] {
			in |= 1 << p
		}
	}
	dst = binary.LittleEndian.AppendUint32(dst, in)
	dst = binary.LittleEndian.AppendUint64(dst, g.h)
	dst = binary.LittleEndian.AppendUint64(dst, g.n)
	return append(dst, g.pad...)
}

func (g *seatGame) Load(src []byte) error {
	if want := 8*MaxSeats + 20 + len(g.pad); len(src) != want {
		return fmt.Errorf("seat game: %d bytes, want %d", len(src), want)
	}
	for p := range MaxSeats {
		g.pos[p] = int64(binary.LittleEndian.Uint64(src[8*p:]))
	}
	in := binary.LittleEndian.Uint32(src[8*MaxSeats:])
	for p := range MaxSeats {
		g.in[p] = in>>p&1 != 0
	}
	g.h = binary.LittleEndian.Uint64(src[8*MaxSeats+4:])
	g.n = binary.LittleEndian.Uint64(src[8*MaxSeats+12:])
	copy(g.pad, src[8*MaxSeats+20:])
	return nil
}

// hash is the game's state hash, as the server and the client take it.
func (g *seatGame) hash() uint64 { return engine.StateHash(g.Save(nil)) }

// snode is one program of a server world: the server or a client, and
// its game.
type snode struct {
	program
	g   *seatGame
	srv *Server
	cl  *Client
}

// sworld runs a server and its clients in one process over a MemNet on
// one fake clock: a discrete-event simulation, the same on every run.
type sworld struct {
	clock *fakeClock
	net   *MemNet
	srv   *snode
	nodes []*snode
	seed  uint64
	state int // extra state bytes of every game
	links *links
	// wrapClient, when set, makes client i's game this one around g.
	wrapClient func(i int, g *seatGame) engine.Game
}

// links is the server's end of its clients' links: what it sends to a
// client goes through that client's SimTransport, so each link is bad
// both ways.
type links struct {
	inner Transport
	to    map[netip.AddrPort]*SimTransport
	order []*SimTransport
}

func (l *links) ReadFrom(b []byte) (int, netip.AddrPort, bool) {
	l.flush()
	return l.inner.ReadFrom(b)
}

func (l *links) flush() {
	for _, s := range l.order {
		s.Flush()
	}
}

func (l *links) WriteTo(b []byte, to netip.AddrPort) error {
	if s := l.to[to]; s != nil {
		return s.WriteTo(b, to)
	}
	return l.inner.WriteTo(b, to)
}

var serverAddr = netip.MustParseAddrPort("10.0.1.1:7000")

func clientAddr(i int) netip.AddrPort {
	return netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, 0, 2, byte(1 + i)}), 7000)
}

func newSWorld(tb testing.TB, cfg ServerConfig, state int, seed uint64) *sworld {
	tb.Helper()
	return newSWorldWrapped(tb, cfg, state, seed, nil, nil)
}

// newSWorldWrapped is newSWorld with the server's game and transport
// wrapped (nil: not), for benchmarks that time them apart.
func newSWorldWrapped(tb testing.TB, cfg ServerConfig, state int, seed uint64,
	wrapGame func(*seatGame) engine.Game, wrapTr func(Transport) Transport) *sworld {
	tb.Helper()
	w := &sworld{clock: &fakeClock{now: time.Second}, net: NewMemNet(), seed: seed, state: state}
	cfg.InputSize, cfg.Params, cfg.Sim, cfg.Clock = 2, "test", 0xb1, w.clock
	g := &seatGame{seat: -1, pad: make([]byte, state)}
	// The server's extra state is noise, which no compression shrinks:
	// a joiner receives it whole (a client's own is replaced by it).
	for i, x := 0, seed|1; i < len(g.pad); i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		g.pad[i] = byte(x)
	}
	n := &snode{g: g}
	n.conn = w.net.Listen(serverAddr)
	n.sim = NewSimTransport(n.conn, NetSim{}, w.clock, seed*1000)
	w.links = &links{inner: n.sim, to: map[netip.AddrPort]*SimTransport{}}
	var sg engine.Game = g
	if wrapGame != nil {
		sg = wrapGame(g)
	}
	var tr Transport = w.links
	if wrapTr != nil {
		tr = wrapTr(w.links)
	}
	s, err := NewServer(cfg, sg, tr)
	if err != nil {
		tb.Fatal(err)
	}
	n.srv, n.game = s, s
	w.start(tb, n, cfg.TPS, 0)
	w.srv = n
	return w
}

func (w *sworld) start(tb testing.TB, n *snode, tps int, delay time.Duration) {
	tps = cmp.Or(tps, 60)
	var err error
	n.ts, err = engine.NewTimestep(engine.Config{TPS: tps})
	if err != nil {
		tb.Fatal(err)
	}
	n.frames = engine.NewJitterFrames(w.seed+uint64(len(w.nodes))*7, 15*time.Millisecond, 18300*time.Microsecond)
	n.next = w.clock.now + delay
	n.last = n.next
	w.nodes = append(w.nodes, n)
}

// join adds a client on a link of the given quality, starting after
// delay; tweak changes its config.
func (w *sworld) join(tb testing.TB, i int, sim NetSim, delay time.Duration, tweak func(*ClientConfig)) *snode {
	tb.Helper()
	c := ClientConfig{Server: serverAddr, InputSize: 2, Params: "test", Sim: 0xb1, Clock: w.clock, Seed: w.seed*100 + uint64(i) + 1}
	if tweak != nil {
		tweak(&c)
	}
	g := &seatGame{pad: make([]byte, w.state)}
	n := &snode{g: g}
	n.conn = w.net.Listen(clientAddr(i))
	n.sim = NewSimTransport(n.conn, sim, w.clock, w.seed*1000+uint64(i)+1)
	if w.links.to[clientAddr(i)] == nil {
		down := NewSimTransport(w.links.inner, sim, w.clock, w.seed*1000+uint64(i)+500)
		w.links.to[clientAddr(i)] = down
		w.links.order = append(w.links.order, down)
	}
	var game engine.Game = g
	if w.wrapClient != nil {
		game = w.wrapClient(i, g)
	}
	cl, err := NewClient(c, game, n.sim)
	if err != nil {
		tb.Fatal(err)
	}
	n.cl, n.game = cl, cl
	cl.SetTimeScaler(&n.ts)
	w.start(tb, n, c.TPS, delay)
	return n
}

// step runs the program whose frame is due first.
func (w *sworld) step() bool {
	return step(w.clock, w.nodes, func(m *snode) {
		m.sim.Flush()
		if m.srv != nil {
			w.links.flush()
		}
	})
}

func (w *sworld) run(d time.Duration) {
	end := w.clock.now + d
	for w.clock.now < end && w.step() {
	}
}

// kill stops a program at once, as kill -9 does: nothing more is sent.
func (w *sworld) kill(n *snode) { n.off = true }

// noErrors fails on any program's error other than the end.
func (w *sworld) noErrors(tb testing.TB) {
	tb.Helper()
	for i, n := range w.nodes {
		if n.err != nil && !errors.Is(n.err, engine.ErrStopped) {
			tb.Fatalf("node %d: %v", i, n.err)
		}
	}
}
