package arena

import (
	"fmt"
	"net/netip"
	"testing"
	"time"

	"github.com/fixstep/fixstep/engine"
	"github.com/fixstep/fixstep/input"
	"github.com/fixstep/fixstep/netplay"
	"github.com/fixstep/fixstep/physics"
)

// The server benchmarks run the demo's world under a netplay.Server and
// four netplay.Clients (bots) in one process, on a fake clock, over
// netplay's link simulator: the netplay package's sworld harness, copied
// here because it is a test file of that package.

// link151 is the link of these benchmarks: a 151 ms round trip, half each
// way (a SimTransport on each end), and 4 % of the datagrams lost each
// way.
var link151 = netplay.NetSim{Latency: 75500 * time.Microsecond, Loss: 0.04}

// timedScene is a scene that times its own Update: the game's tick.
type timedScene struct {
	*Scene
	d     time.Duration
	ticks int
}

func (s *timedScene) Update(t engine.Tick) error {
	t0 := time.Now()
	err := s.Scene.Update(t)
	s.d += time.Since(t0)
	s.ticks++
	return err
}

func (*timedScene) Draw(engine.Frame) {}

// timedServer times a server's Begin and Update, the game's tick inside
// included.
type timedServer struct {
	*netplay.Server
	d time.Duration
}

func (s *timedServer) Update(t engine.Tick) error {
	t0 := time.Now()
	err := s.Server.Update(t)
	s.d += time.Since(t0)
	return err
}

func (s *timedServer) Begin(f engine.Frame) error {
	t0 := time.Now()
	err := s.Server.Begin(f)
	s.d += time.Since(t0)
	return err
}

// slinks is the server's end of its clients' links: what it sends to a
// client goes through that client's SimTransport, so each link is bad
// both ways.
type slinks struct {
	inner netplay.Transport
	to    map[netip.AddrPort]*netplay.SimTransport
	order []*netplay.SimTransport
}

func (l *slinks) ReadFrom(b []byte) (int, netip.AddrPort, bool) {
	for _, s := range l.order {
		s.Flush()
	}
	return l.inner.ReadFrom(b)
}

func (l *slinks) WriteTo(b []byte, to netip.AddrPort) error {
	if s := l.to[to]; s != nil {
		return s.WriteTo(b, to)
	}
	return l.inner.WriteTo(b, to)
}

// anode is one program of an arena world: the server or a client.
type anode struct {
	game   engine.Game
	sc     *timedScene
	cl     *netplay.Client
	up     *netplay.SimTransport // a client's link to the server
	ts     engine.Timestep
	frames engine.Frames
	next   time.Duration
	last   time.Duration
	err    error
}

// aworld is a server and its clients on one fake clock: a discrete-event
// simulation, the same on every run.
type aworld struct {
	clk    *clock
	net    *netplay.MemNet
	links  *slinks
	srv    *netplay.Server
	tsrv   *timedServer
	nodes  []*anode
	bodies int
	seed   uint64
}

var arenaServer = netip.MustParseAddrPort("10.0.1.1:7000")

const arenaParams = "arena server bench"

func newAWorld(b *testing.B, bodies int, end uint64, seed uint64) *aworld {
	b.Helper()
	w := &aworld{clk: &clock{now: time.Second}, net: netplay.NewMemNet(), bodies: bodies, seed: seed}
	sc := w.scene(b)
	inner := netplay.NewSimTransport(w.net.Listen(arenaServer), netplay.NetSim{}, w.clk, seed*1000)
	w.links = &slinks{inner: inner, to: map[netip.AddrPort]*netplay.SimTransport{}}
	s, err := netplay.NewServer(netplay.ServerConfig{Players: MaxPlayers, InputSize: InputSize, Params: arenaParams,
		Sim: 0xa7, EndTick: end, Clock: w.clk}, sc, w.links)
	if err != nil {
		b.Fatal(err)
	}
	w.srv, w.tsrv = s, &timedServer{Server: s}
	w.start(b, &anode{game: w.tsrv, sc: sc}, 0)
	return w
}

// scene makes the match's world: 4 players and the bodies.
func (w *aworld) scene(b *testing.B) *timedScene {
	sc, err := NewMatch(w.bodies, 1, MaxPlayers, input.Actions{})
	if err != nil {
		b.Fatal(err)
	}
	return &timedScene{Scene: sc}
}

func (w *aworld) start(b *testing.B, n *anode, delay time.Duration) {
	var err error
	if n.ts, err = engine.NewTimestep(engine.Config{TPS: 60}); err != nil {
		b.Fatal(err)
	}
	n.frames = engine.NewJitterFrames(w.seed+uint64(len(w.nodes))*7, 15*time.Millisecond, 18300*time.Microsecond)
	n.next = w.clk.now + delay
	n.last = n.next
	w.nodes = append(w.nodes, n)
}

// join adds bot client i on the link, starting after delay.
func (w *aworld) join(b *testing.B, i int, sim netplay.NetSim, delay time.Duration) *anode {
	b.Helper()
	addr := netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, 0, 2, byte(1 + i)}), 7000)
	sc := w.scene(b)
	sc.Bot = uint64(i + 1)
	up := netplay.NewSimTransport(w.net.Listen(addr), sim, w.clk, w.seed*1000+uint64(i)+1)
	down := netplay.NewSimTransport(w.links.inner, sim, w.clk, w.seed*1000+uint64(i)+500)
	w.links.to[addr] = down
	w.links.order = append(w.links.order, down)
	cl, err := netplay.NewClient(netplay.ClientConfig{Server: arenaServer, InputSize: InputSize, Params: arenaParams,
		Sim: 0xa7, Clock: w.clk, Seed: w.seed*100 + uint64(i) + 1}, sc, up)
	if err != nil {
		b.Fatal(err)
	}
	n := &anode{game: cl, sc: sc, cl: cl, up: up}
	w.start(b, n, delay)
	cl.SetTimeScaler(&n.ts)
	return n
}

// step runs the program whose frame is due first, as its loop would.
func (w *aworld) step() bool {
	var n *anode
	for _, m := range w.nodes {
		if m.err == nil && (n == nil || m.next < n.next) {
			n = m
		}
	}
	if n == nil {
		return false
	}
	w.clk.now = n.next
	for i, m := range w.nodes {
		// A stopped program's links still deliver what they hold.
		switch {
		case m.err == nil:
		case i == 0:
			for _, s := range w.links.order {
				s.Flush()
			}
		default:
			m.up.Flush()
		}
	}
	d := n.next - n.last
	n.last = n.next
	f := n.ts.Advance(d)
	if bg, ok := n.game.(engine.Beginner); ok {
		n.err = bg.Begin(f)
	}
	for i := 0; i < f.Ticks && n.err == nil; i++ {
		n.err = n.game.Update(f.Tick(i))
	}
	iv, _ := n.frames.Next()
	n.next += iv
	return true
}

// run runs the world for d, or until every program stopped; until, when
// not nil, stops it earlier.
func (w *aworld) run(d time.Duration, until func() bool) {
	end := w.clk.now + d
	for w.clk.now < end && (until == nil || !until()) && w.step() {
	}
}

// onServer counts the clients that ended the match in the server's
// state; it fails unless the server ended it.
func (w *aworld) onServer(b *testing.B) int {
	b.Helper()
	if w.nodes[0].err != engine.ErrStopped {
		b.Fatalf("server: %v, want the end", w.nodes[0].err)
	}
	want, n := engine.StateHash(w.nodes[0].sc.Save(nil)), 0
	for i, c := range w.nodes[1:] {
		if c.err == engine.ErrStopped && engine.StateHash(c.sc.Save(nil)) == want {
			n++
		} else {
			b.Logf("client %d did not end in the server's state: %v; %s", i, c.err, c.cl.Report())
		}
	}
	return n
}

// fullState is what streaming the world's state costs, the way the
// anchors do it, in the units of ServerStats.DownKbpsPerClient (kbit/s
// per client, 28 bytes of IPv4 and UDP headers per datagram): (a) the
// game's whole Save() at 60 Hz, in datagrams of up to 1,472 bytes; (b)
// Glenn Fiedler's estimate of a quantized, delta-compressed snapshot,
// about 10 bytes per moving body (an estimate, not a measurement of an
// encoder), at 20 and 30 Hz, one datagram per snapshot per 1,472 bytes.
func fullState(stateBytes, moving int) (save60, fiedler20, fiedler30 float64) {
	kbps := func(bytes, hz int) float64 {
		dgrams := (bytes + 1471) / 1472
		return float64((bytes+28*dgrams)*hz*8) / 1000
	}
	return kbps(stateBytes, 60), kbps(10*moving, 20), kbps(10*moving, 30)
}

// moving counts the bodies a snapshot carries: every body that is not
// static (the bouncers, the players, the oscillator); awake those of
// them not asleep now.
func moving(w *physics.World) (all, awake int) {
	for i := range w.Bodies() {
		b := &w.Bodies()[i]
		if b.Kind == physics.Static {
			continue
		}
		all++
		if !b.Asleep() {
			awake++
		}
	}
	return all, awake
}

// BenchmarkServerArena plays 1,080 ticks (18 s) of the demo's world with
// 0, 300 and 2,000 bodies between a server and four bot clients on a
// 151 ms, 4 % loss link, all joining in the first 30 ms; each iteration
// is a whole match, and counts the clients that ended in the server's
// state (ended-on-server). It reports the downstream of final inputs per
// client once all four play (down-kbps/client, over steady-s seconds:
// ServerStats.BytesFinal, UDP payload and 28 bytes of IPv4/UDP headers a
// datagram, per client-second; match-down-kbps/client is
// ServerStats.DownKbpsPerClient over the whole match, loading included,
// when no inputs are sent) beside a full-state stream of the same world
// in the same units (see fullState): the game's Save() at 60 Hz, and Fiedler's
// ~10 bytes per moving body at 20 and 30 Hz; the state's size; and the
// server's own time per tick above the game's tick (its Update and
// Begin, less the scene's Update; the simulated links included).
//
//	go test ./cmd/demo/arena -run '^$' -bench ServerArena -benchtime 1x
func BenchmarkServerArena(b *testing.B) {
	for _, bodies := range []int{0, 300, 2000} {
		b.Run(fmt.Sprintf("bodies=%d", bodies), func(b *testing.B) {
			var w *aworld
			var ended int
			var f0, t0 uint64
			for b.Loop() {
				w = newAWorld(b, bodies, 1080, 1)
				for i := range MaxPlayers {
					w.join(b, i, link151, time.Duration(i)*10*time.Millisecond)
				}
				w.run(30*time.Second, func() bool {
					for _, n := range w.nodes[1:] {
						if !n.cl.Running() {
							return false
						}
					}
					return true
				})
				f0, t0 = w.srv.Stats().BytesFinal, w.srv.Tick()
				w.run(60*time.Second, nil)
				ended = w.onServer(b)
			}
			st := w.srv.Stats()
			steady := float64(st.BytesFinal-f0) * 8 / 1000 / (float64(MaxPlayers) * float64(w.srv.Tick()-t0) / 60)
			state := len(w.nodes[0].sc.Save(nil))
			all, awake := moving(&w.nodes[0].sc.World)
			save60, f20, f30 := fullState(state, all)
			var desyncs, rollbacks uint64
			for _, n := range w.nodes[1:] {
				desyncs += n.cl.Stats().Desyncs
				rollbacks += n.cl.Stats().Rollbacks
			}
			srvTicks := float64(w.srv.Tick())
			b.ReportMetric(steady, "down-kbps/client")
			b.ReportMetric(st.DownKbpsPerClient(60), "match-down-kbps/client")
			b.ReportMetric(float64(w.srv.Tick()-t0)/60, "steady-s")
			b.ReportMetric(save60, "save60Hz-kbps/client")
			b.ReportMetric(f20, "fiedler20Hz-kbps/client")
			b.ReportMetric(f30, "fiedler30Hz-kbps/client")
			b.ReportMetric(float64(state), "state-bytes")
			b.ReportMetric(float64(desyncs), "desyncs")
			b.ReportMetric(float64(ended), "ended-on-server")
			b.ReportMetric(float64(st.InputsReplaced)/(float64(MaxPlayers)*srvTicks/60), "replaced/client-s")
			b.ReportMetric(float64(rollbacks)/(float64(MaxPlayers)*srvTicks/60), "rollbacks/client-s")
			b.ReportMetric(float64(w.nodes[0].sc.d)/float64(w.nodes[0].sc.ticks)/1e3, "game-us/tick")
			b.ReportMetric(float64(w.tsrv.d-w.nodes[0].sc.d)/srvTicks/1e3, "overhead-us/tick")
			b.Logf("%d bodies: %d moving (%d awake at the end), state %d bytes; server:%s", bodies, all, awake, state, w.srv.Report())
		})
	}
}

// BenchmarkServerArenaJoin is a fourth player joining 10 s into a match of
// three on the demo's world of 300 and 2,000 bodies, every link at 151 ms
// and 4 % loss: it receives the server's state (compressed, in slices,
// as fast as its acknowledgements and the server's TransferRate allow)
// and the inputs since, runs to the present and checks the server's
// hash. catchup-ms is ClientStats.Catchup
// (its first join datagram to its first verified hash, on the fake
// clock); seated-ms, loaded-ms and verified-ms split it: the welcome
// with its seat, the whole state received and loaded, the hash verified.
// The fake clock does not move while the joiner runs ticks, so the
// catch-up's real CPU time is reported apart: replay-ms, the joiner's
// game ticks from the frame that loads its state to verifying
// (replay-ticks of them).
// Each iteration plays the match to tick 900 and counts the clients that
// ended in the server's state (ended-on-server).
//
//	go test ./cmd/demo/arena -run '^$' -bench ServerArenaJoin -benchtime 1x
func BenchmarkServerArenaJoin(b *testing.B) {
	for _, bodies := range []int{300, 2000} {
		b.Run(fmt.Sprintf("bodies=%d", bodies), func(b *testing.B) {
			var w *aworld
			var j *anode
			var seated, loaded, verified time.Duration
			var replayTicks int
			var replay time.Duration
			var ended int
			for b.Loop() {
				w = newAWorld(b, bodies, 900, 1)
				for i := range MaxPlayers - 1 {
					w.join(b, i, link151, time.Duration(i)*10*time.Millisecond)
				}
				j = w.join(b, MaxPlayers-1, link151, 9*time.Second) // the world starts at 1 s
				at := j.next                                        // its first frame
				w.run(at-w.clk.now, nil)
				w.run(10*time.Second, func() bool { return j.cl.Seat() >= 0 })
				seated = w.clk.now - at
				// The ticks from the state's to the present may run in the
				// frame that loads it (its rows came with its last slices):
				// counted from before that frame.
				var t0 time.Duration
				var n0 int
				w.run(10*time.Second, func() bool {
					if j.cl.Running() {
						return true
					}
					t0, n0 = j.sc.d, j.sc.ticks
					return false
				})
				loaded = w.clk.now - at
				w.run(10*time.Second, func() bool { return j.cl.Stats().Catchup > 0 })
				verified = w.clk.now - at
				replay, replayTicks = j.sc.d-t0, j.sc.ticks-n0
				w.run(30*time.Second, nil)
				ended = w.onServer(b)
			}
			cs := j.cl.Stats()
			st := w.srv.Stats()
			b.ReportMetric(float64(cs.Catchup)/1e6, "catchup-ms")
			b.ReportMetric(float64(seated)/1e6, "seated-ms")
			b.ReportMetric(float64(loaded)/1e6, "loaded-ms")
			b.ReportMetric(float64(verified)/1e6, "verified-ms")
			b.ReportMetric(float64(cs.StateBytes), "state-bytes")
			b.ReportMetric(float64(st.ChunksSent), "chunks-sent")
			b.ReportMetric(float64(replay)/1e6, "replay-ms")
			b.ReportMetric(float64(replayTicks), "replay-ticks")
			b.ReportMetric(float64(cs.Desyncs), "desyncs")
			b.ReportMetric(float64(ended), "ended-on-server")
			b.Logf("%d bodies: joiner:%s; server:%s", bodies, j.cl.Report(), w.srv.Report())
		})
	}
}
