package netplay

import (
	"cmp"
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"testing"
	"time"

	"github.com/fixstep/fixstep/engine"
)

// serverProfiles are the links of the server benchmarks, named by their
// round trip and loss. Every sworld link is a SimTransport each way, so
// the one-way latency is half the round trip and the loss applies to
// each direction: no jitter, duplication or reordering.
var serverProfiles = []struct {
	name string
	sim  NetSim
}{
	{"rtt=66ms,loss=3%", NetSim{Latency: 33 * time.Millisecond, Loss: 0.03}},
	{"rtt=151ms,loss=4%", NetSim{Latency: 75500 * time.Microsecond, Loss: 0.04}},
	{"rtt=201ms,loss=6%", NetSim{Latency: 100500 * time.Microsecond, Loss: 0.06}},
}

// BenchmarkServerMatch plays a seeded match of 1,200 ticks (20 s at
// 60 TPS) between one server and N bot clients (seat games: a few bytes
// of state) on each link profile, every client joining in the first
// N×10 ms. Each iteration is a whole match on the fake clock (ns/op is
// the wall time of simulating it); it fails unless every client ends on
// the server's final hash. Metrics: desyncs (all clients), inputs the
// server replaced per seated client-second (over the match, joins
// included: a seated client sends none until its state arrived; and
// steady-, once every client plays), rollbacks per client-second,
// the median and the largest catch-up (join to first verified hash), and
// the downstream of final inputs per client (ServerStats.DownKbpsPerClient:
// UDP payload plus 28 bytes of IPv4/UDP headers per datagram); unverified
// counts the clients that verified no hash during the match, only the
// end's.
//
//	go test ./netplay -run '^$' -bench ServerMatch -benchtime 1x
func BenchmarkServerMatch(b *testing.B) {
	for _, n := range []int{2, 4, 8, 16, 32} {
		for _, p := range serverProfiles {
			b.Run(fmt.Sprintf("clients=%d/%s", n, p.name), func(b *testing.B) {
				var w *sworld
				var r0, c0 uint64
				for b.Loop() {
					w = newSWorld(b, ServerConfig{Players: n, EndTick: 1200}, 0, 21)
					for i := range n {
						w.join(b, i, p.sim, time.Duration(i)*10*time.Millisecond, nil)
					}
					for w.clock.now < 10*time.Second && !w.allRunning() {
						w.step()
					}
					r0, c0 = w.srv.srv.stats.InputsReplaced, w.srv.srv.stats.clientTicks
					w.endsOnServer(b, 40*time.Second)
				}
				reportMatch(b, w, n)
				st := w.srv.srv.Stats()
				b.ReportMetric(float64(st.InputsReplaced-r0)/(float64(st.clientTicks-c0)/60), "steady-replaced/client-s")
			})
		}
	}
}

// allRunning reports whether every client has its state and plays.
func (w *sworld) allRunning() bool {
	for _, n := range w.nodes[1:] {
		if !n.cl.Running() {
			return false
		}
	}
	return true
}

// reportMatch reports a finished match's metrics.
func reportMatch(b *testing.B, w *sworld, n int) {
	st := w.srv.srv.Stats()
	var desyncs, rollbacks, unverified uint64
	var catchup []float64
	for _, c := range w.nodes[1:] {
		cs := c.cl.Stats()
		desyncs += cs.Desyncs
		rollbacks += cs.Rollbacks
		if cs.Catchup == 0 {
			unverified++ // no hash verified during the match: only the end's
			continue
		}
		catchup = append(catchup, float64(cs.Catchup)/1e6)
	}
	catchup = append(catchup, 0) // so that a match of no verified client reports 0

	slices.Sort(catchup)
	catchup = catchup[1:]
	if len(catchup) == 0 {
		catchup = []float64{0}
	}
	clientSec := float64(st.clientTicks) / 60
	b.ReportMetric(float64(desyncs), "desyncs")
	b.ReportMetric(float64(unverified), "unverified")
	b.ReportMetric(float64(st.InputsReplaced)/clientSec, "replaced/client-s")
	b.ReportMetric(float64(rollbacks)/clientSec, "rollbacks/client-s")
	b.ReportMetric(catchup[len(catchup)/2], "catchup-ms-median")
	b.ReportMetric(catchup[len(catchup)-1], "catchup-ms-max")
	b.ReportMetric(st.DownKbpsPerClient(60), "down-kbps/client")
	b.Logf("%d clients, server:%s", n, w.srv.srv.Report())
}

// timedSeatGame is a seat game that times its own Update.
type timedSeatGame struct {
	*seatGame
	d time.Duration
}

func (g *timedSeatGame) Update(t engine.Tick) error {
	t0 := time.Now()
	err := g.seatGame.Update(t)
	g.d += time.Since(t0)
	return err
}

// timedTransport times a transport's reads and writes: in the sworld the
// simulated links (SimTransport queues) stand where the kernel's sockets
// would, so their cost is not the server's.
type timedTransport struct {
	tr Transport
	d  time.Duration
}

func (t *timedTransport) ReadFrom(b []byte) (int, netip.AddrPort, bool) {
	t0 := time.Now()
	n, a, ok := t.tr.ReadFrom(b)
	t.d += time.Since(t0)
	return n, a, ok
}

func (t *timedTransport) WriteTo(b []byte, to netip.AddrPort) error {
	t0 := time.Now()
	err := t.tr.WriteTo(b, to)
	t.d += time.Since(t0)
	return err
}

// timedServer times a server's Begin and Update, the game's tick and the
// transport's calls inside them included.
type timedServer struct {
	*Server
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

// BenchmarkServerTick32 is one server tick with 32 seated clients on a bad
// link (latency=40ms,jitter=10ms,loss=0.05,dup=0.02,reorder=0.02): their
// updates read, inputs decided, the game's tick, final inputs, acks,
// resends and a hash every second sent. Each op steps the whole world
// (clients included) until the server has run one more tick; allocs/op is
// that whole step's, so 0 means the server allocates nothing either. The
// server's own time is measured apart, with the clock read around its
// Begin and Update (about 25 ns a read): server-ns/tick is all of it,
// game-ns/tick the seat game's Update inside, link-ns/tick the simulated
// links' reads and writes inside (in-memory queues standing for the
// kernel's sockets), and overhead-ns/tick = server - game - link.
//
//	go test ./netplay -run '^$' -bench ServerTick32 -benchtime 2000x
func BenchmarkServerTick32(b *testing.B) {
	var tg *timedSeatGame
	var tt *timedTransport
	w := newSWorldWrapped(b, ServerConfig{Players: 32}, 200, 12,
		func(g *seatGame) engine.Game { tg = &timedSeatGame{seatGame: g}; return tg },
		func(tr Transport) Transport { tt = &timedTransport{tr: tr}; return tt })
	for i := range 32 {
		w.join(b, i, badLink, time.Duration(i)*10*time.Millisecond, nil)
	}
	ts := &timedServer{Server: w.srv.srv}
	w.srv.game = ts
	w.run(4 * time.Second) // warm up: everyone seated, states at their size
	if st := w.srv.srv.Stats(); st.Players != 32 {
		b.Fatalf("%d players seated", st.Players)
	}
	ts.d, tg.d, tt.d = 0, 0, 0
	tick := w.srv.srv.Tick()
	b.ReportAllocs()
	for b.Loop() {
		for want := w.srv.srv.Tick() + 1; w.srv.srv.Tick() < want; {
			w.step()
		}
	}
	w.noErrors(b)
	ticks := float64(w.srv.srv.Tick() - tick)
	b.ReportMetric(float64(ts.d)/ticks, "server-ns/tick")
	b.ReportMetric(float64(tg.d)/ticks, "game-ns/tick")
	b.ReportMetric(float64(tt.d)/ticks, "link-ns/tick")
	b.ReportMetric(float64(ts.d-tg.d-tt.d)/ticks, "overhead-ns/tick")
	b.ReportMetric(float64(ts.d-tg.d)/ticks, "overhead+link-ns/tick")
	b.Logf("server:%s", w.srv.srv.Report())
}

// BenchmarkServerJoin is a fourth player joining 10 s into a match of
// three (alone at 10,000 bodies, see below), every link at 151 ms and 4 % loss, with seat games whose state is
// padded with noise (which no compression shrinks) to the size of the
// demo's world after 10 s: 265,561 bytes at 300 bodies and 1,904,413 at
// 2,000 (the arena's Save; see cmd/demo/arena BenchmarkServerArenaJoin),
// and to what the server sends of it, compressed: 873,431 bytes at 2,000
// bodies and 20,168,084 at 10,000 (48,693,722 raw). The game's tick costs
// nothing and the clock is fake, so this is the network's share of a
// catch-up. Each size joins with seeds 1 to 5 (their losses differ):
// catchup-ms is the median ClientStats.Catchup (first join datagram to
// first verified hash), catchup-ms-max the largest; seated-ms and
// loaded-ms split the median run (the welcome with a seat; the whole
// state received and loaded); chunks-sent counts the state's slices the
// server sent that joiner, resends included, and chunks the slices it
// takes; ended-on-server counts the clients of the median run that ended
// the match (tick 1500) in the server's state.
//
//	go test ./netplay -run '^$' -bench ServerJoin -benchtime 1x
func BenchmarkServerJoin(b *testing.B) {
	link := serverProfiles[1].sim
	for _, size := range []int{265_561, 873_431, 1_904_413, 20_168_084} {
		b.Run(fmt.Sprintf("state=%d", size), func(b *testing.B) {
			type run struct {
				catchup, seated, loaded time.Duration
				sent, ended             int
				j                       *snode
			}
			// Three states of 20 MB would still be loading at 9 s, and
			// share the budget with the joiner: at 10,000 bodies it joins
			// alone.
			others := 1
			if 3*8*size > 8*DefaultTransferRate {
				others = 0
			}
			var runs []run
			for b.Loop() {
				runs = runs[:0]
				for seed := uint64(1); seed <= 5; seed++ {
					w := newSWorld(b, ServerConfig{Players: 4, EndTick: 1500}, size-(8*MaxSeats+20), seed)
					for i := range 3 * others {
						w.join(b, i, link, time.Duration(i)*10*time.Millisecond, nil)
					}
					j := w.join(b, 3, link, 9*time.Second, nil)
					at := j.next
					for w.clock.now < at {
						w.step()
					}
					chunks0 := w.srv.srv.Stats().ChunksSent
					var r run
					for w.clock.now < at+10*time.Second && j.cl.Seat() < 0 {
						w.step()
					}
					r.seated = w.clock.now - at
					for w.clock.now < at+10*time.Second && !j.cl.Running() {
						w.step()
					}
					r.loaded = w.clock.now - at
					r.sent = int(w.srv.srv.Stats().ChunksSent - chunks0)
					w.run(20 * time.Second)
					want := w.srv.g.hash()
					for i, n := range w.nodes[1:] {
						if errors.Is(n.err, engine.ErrStopped) && n.g.hash() == want {
							r.ended++
						} else {
							b.Logf("seed %d: client %d did not end in the server's state: %v", seed, i, n.err)
						}
					}
					r.catchup, r.j = j.cl.Stats().Catchup, j
					if r.catchup == 0 {
						r.catchup = time.Hour // never verified: the largest
					}
					runs = append(runs, r)
				}
			}
			slices.SortFunc(runs, func(x, y run) int { return cmp.Compare(x.catchup, y.catchup) })
			m := runs[len(runs)/2]
			cs := m.j.cl.Stats()
			b.ReportMetric(float64(m.catchup)/1e6, "catchup-ms")
			b.ReportMetric(float64(runs[len(runs)-1].catchup)/1e6, "catchup-ms-max")
			b.ReportMetric(float64(m.seated)/1e6, "seated-ms")
			b.ReportMetric(float64(m.loaded)/1e6, "loaded-ms")
			b.ReportMetric(float64(m.sent), "chunks-sent")
			b.ReportMetric(float64(chunks(cs.StateBytes)), "chunks")
			b.ReportMetric(float64(cs.Desyncs), "desyncs")
			b.ReportMetric(float64(m.ended), "ended-on-server")
			b.Logf("joiner:%s", m.j.cl.Report())
		})
	}
}
