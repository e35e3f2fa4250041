package netplay

import (
	"errors"
	"fmt"
	"net/netip"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/fixstep/fixstep/engine"
)

// A perfect link: both peers run in step, every tick confirmed within a
// frame or two, the same history, no desync.
func TestPerfectLink(t *testing.T) {
	w := newWorld(t, worldOpts{})
	w.runInStep(t, 10*time.Second, 500)
	for i, n := range w.nodes {
		st := n.s.Stats()
		if st.Tick < 580 || st.Desyncs != 0 || st.Hashes < 8 || st.PacketsBad != 0 {
			t.Errorf("node %d: %+v", i, *st)
		}
	}
}

// Under latency, jitter, loss, duplicates and reordering, 2, 3 and 4
// players keep identical confirmed states: predictions fail and roll back,
// never deeper than MaxPrediction, and the desync check compares hashes.
func TestRollbackUnderBadLink(t *testing.T) {
	sim, err := ParseNetSim("latency=40ms,jitter=10ms,loss=0.05,dup=0.02,reorder=0.02")
	if err != nil {
		t.Fatal(err)
	}
	for _, players := range []int{2, 3, 4} {
		t.Run(string(rune('0'+players))+"players", func(t *testing.T) {
			w := newWorld(t, worldOpts{players: players, sim: sim, seed: 3, jitter: true})
			w.runInStep(t, 20*time.Second, 1000)
			for i, n := range w.nodes {
				st := n.s.Stats()
				t.Logf("node %d:%s ticks=%d confirmed=%d hashes=%d stalls=%d", i, n.s.Report(), st.Tick, st.Confirmed, st.Hashes, st.Stalls)
				switch {
				case st.Rollbacks == 0:
					t.Errorf("node %d: no rollback", i)
				case st.RollbackTicksMax > DefaultMaxPrediction:
					t.Errorf("node %d: a rollback of %d ticks, over MaxPrediction", i, st.RollbackTicksMax)
				case st.Hashes < 15:
					t.Errorf("node %d: %d hashes compared", i, st.Hashes)
				case st.Tick < 1000:
					t.Errorf("node %d: only %d ticks in 20 s", i, st.Tick)
				case st.RTT < 80*time.Millisecond || st.RTT > 130*time.Millisecond: // plus up to a frame each way: datagrams move when their sender runs a frame
					t.Errorf("node %d: RTT %v over a 40 ms ± 10 ms link", i, st.RTT)
				}
				if n.g.reruns == 0 {
					t.Errorf("node %d: the game never saw a rerun", i)
				}
			}
		})
	}
}

// The same seed gives the same run: every count and every hash.
func TestDeterministicRun(t *testing.T) {
	sim := NetSim{Latency: 30 * time.Millisecond, Jitter: 15 * time.Millisecond, Loss: 0.1}
	var first [2]SessionStats
	for run := range 2 {
		w := newWorld(t, worldOpts{sim: sim, seed: 9, jitter: true})
		w.run(5 * time.Second)
		w.noErrors(t)
		st := *w.nodes[1].s.Stats()
		if run == 0 {
			first[0] = st
			continue
		}
		if !reflect.DeepEqual(st, first[0]) {
			t.Fatalf("second run differs:\n%+v\n%+v", first[0], st)
		}
	}
}

// Lockstep never predicts and never rolls back: every update the game
// sees has every input confirmed.
func TestLockstep(t *testing.T) {
	w := newWorld(t, worldOpts{sim: NetSim{Latency: 30 * time.Millisecond, Jitter: 5 * time.Millisecond, Loss: 0.05}, seed: 4,
		tweak: func(i int, c *SessionConfig) { c.MaxPrediction = Lockstep }})
	w.run(10 * time.Second)
	w.noErrors(t)
	w.sameHistory(t)
	for i, n := range w.nodes {
		st := n.s.Stats()
		if n.g.predicted != 0 || st.Predicted != 0 || st.Rollbacks != 0 || n.g.reruns != 0 {
			t.Errorf("node %d predicted: game %d, stats %d, rollbacks %d", i, n.g.predicted, st.Predicted, st.Rollbacks)
		}
		if st.Tick < 300 || st.Stalls == 0 {
			t.Errorf("node %d: %d ticks, %d stalls", i, st.Tick, st.Stalls)
		}
	}
}

// A peer never runs more than MaxPrediction ticks past the last confirmed
// one: behind a link of 200 ms each way, it stalls.
func TestStallAtMaxPrediction(t *testing.T) {
	w := newWorld(t, worldOpts{sim: NetSim{Latency: 200 * time.Millisecond}, seed: 5,
		tweak: func(i int, c *SessionConfig) { c.MaxPrediction = 4 }})
	for range 2000 {
		w.step()
		for i, n := range w.nodes {
			if ahead := n.s.Tick() - n.s.Confirmed(); n.s.Running() && ahead > 4 {
				t.Fatalf("node %d: tick %d, confirmed %d: ahead by %d", i, n.s.Tick(), n.s.Confirmed(), ahead)
			}
		}
	}
	w.noErrors(t)
	w.sameHistory(t)
	for i, n := range w.nodes {
		if st := n.s.Stats(); st.Stalls == 0 || st.RollbackTicksMax > 4 {
			t.Errorf("node %d: %d stalls, rollbacks up to %d ticks", i, st.Stalls, st.RollbackTicksMax)
		}
	}
}

// A peer whose clock runs 1 % fast slows its time scale rather than
// stalling over and over; without a time scaler it stalls.
func TestTimeSync(t *testing.T) {
	run := func(scaler bool) (stalls uint64, minScale float64, gap int) {
		w := newWorld(t, worldOpts{sim: NetSim{Latency: 20 * time.Millisecond}, seed: 6, noScaler: !scaler})
		fast := w.nodes[1]
		fast.skew = 0.01
		minScale = 1
		for w.clock.now < 61*time.Second && w.step() {
			minScale = min(minScale, fast.ts.TimeScale())
		}
		w.noErrors(t)
		w.sameHistory(t)
		return fast.s.Stats().Stalls, minScale, int(fast.s.Tick()) - int(w.nodes[0].s.Tick())
	}
	stalls, scale, gap := run(false)
	t.Logf("without time sync: %d stalls, scale %.3f, %d ticks ahead", stalls, scale, gap)
	if stalls < 15 || scale != 1 {
		t.Errorf("without time sync: %d stalls, time scale %v", stalls, scale)
	}
	stalls, scale, gap = run(true)
	t.Logf("with time sync: %d stalls, scale %.3f, %d ticks ahead", stalls, scale, gap)
	if stalls > 3 || scale > 0.995 || scale < 0.95 || gap > 3 || gap < -3 {
		t.Errorf("with time sync: %d stalls, lowest time scale %v, %d ticks ahead", stalls, scale, gap)
	}
}

// Peers whose simulations differ are refused, both stop, and the error
// names what differs.
func TestFingerprintMismatch(t *testing.T) {
	for _, tc := range []struct {
		field string
		tweak func(c *SessionConfig)
	}{
		{"game params", func(c *SessionConfig) { c.Params = "other level" }},
		{"simulation", func(c *SessionConfig) { c.Sim = 0xb2 }},
		{"tick rate", func(c *SessionConfig) { c.TPS = 30 }},
		{"input size", func(c *SessionConfig) { c.InputSize = 3 }},
	} {
		t.Run(tc.field, func(t *testing.T) {
			w := newWorld(t, worldOpts{tweak: func(i int, c *SessionConfig) {
				if i == 1 {
					tc.tweak(c)
				}
			}})
			if w.nodes[1].s.cfg.TPS == 30 {
				w.nodes[1].ts, _ = newTimestep(30)
			}
			w.run(2 * time.Second)
			for i, n := range w.nodes {
				var fe *FingerprintError
				if !errors.As(n.err, &fe) || fe.Field != tc.field || !strings.Contains(n.err.Error(), tc.field) {
					t.Errorf("node %d: %v, want a refusal naming %q", i, n.err, tc.field)
				}
				if n.g.updates != 0 {
					t.Errorf("node %d: the game ran %d updates", i, n.g.updates)
				}
			}
		})
	}
}

// A hello of another protocol version is refused naming the version, and
// the refuse goes back only when it is no larger than the hello.
func TestVersionMismatch(t *testing.T) {
	for _, size := range []int{20, helloLen} {
		w := newWorld(t, worldOpts{})
		a := w.nodes[0]
		w.nodes[1].off = true
		probe := w.nodes[1].conn // node 1's address, driven by hand
		w.step()
		drain(probe)
		var pk packet
		pk.nonce, pk.players, pk.player, pk.isize, pk.tps = 77, 2, 1, 2, 60
		b := pk.appendHello(nil)[:size]
		b[2] = ProtocolVersion + 1
		probe.WriteTo(b, addr(0))
		err := a.s.Update(tick0(t))
		var fe *FingerprintError
		if !errors.As(err, &fe) || fe.Field != "protocol version" || !strings.Contains(err.Error(), "protocol version") {
			t.Fatalf("got %v, want a refusal naming the protocol version", err)
		}
		var buf [MaxPacket]byte
		refused := false
		for {
			n, _, ok := probe.ReadFrom(buf[:])
			if !ok {
				break
			}
			if n > len(b) {
				t.Errorf("a reply of %d bytes to a hello of %d", n, len(b))
			}
			if pk.decode(buf[:n]) == nil && pk.kind == kindRefuse && pk.field == fieldVersion {
				refused = true
			}
		}
		if refused != (size >= refuseLen) {
			t.Errorf("hello of %d bytes: refuse sent %v", size, refused)
		}
	}
}

// Before the handshake, no reply is larger than the datagram that prompted
// it, and garbage gets none.
func TestNoAmplification(t *testing.T) {
	w := newWorld(t, worldOpts{})
	a := w.nodes[0]
	probe := w.nodes[1].conn
	if err := a.s.Update(tick0(t)); err != nil { // sends its first hello
		t.Fatal(err)
	}
	drain(probe)
	var pk packet
	pk.nonce, pk.players, pk.player, pk.isize, pk.tps = 77, 2, 1, 2, 60
	pk.params, pk.sim = paramsHash("test"), 0xb1
	hello := pk.appendHello(nil)
	pk.params = 1
	wrong := pk.appendHello(nil)
	for _, probeMsg := range [][]byte{
		{'f', 'x', 1, kindHello},
		append([]byte{}, hello[:20]...),
		[]byte("GET / HTTP/1.1\r\n\r\n"),
		hello,
		wrong[:24],
	} {
		probe.WriteTo(probeMsg, addr(0))
		a.s.Update(tick0(t)) // the clock stands still: no hello falls due
		var buf [MaxPacket]byte
		for {
			n, _, ok := probe.ReadFrom(buf[:])
			if !ok {
				break
			}
			if n > len(probeMsg) {
				t.Errorf("a reply of %d bytes to a datagram of %d", n, len(probeMsg))
			}
		}
	}
	probe.WriteTo(wrong, addr(0))
	a.s.Update(tick0(t))
	var buf [MaxPacket]byte
	n, _, ok := probe.ReadFrom(buf[:])
	if !ok || n != refuseLen || n > len(wrong) {
		t.Errorf("refuse of %d bytes (ok %v) to a hello of %d", n, ok, len(wrong))
	}
	if st := a.s.Stats(); st.PacketsBad < 3 {
		t.Errorf("%d bad datagrams counted, want 3", st.PacketsBad)
	}
}

// A peer that vanishes is reported within DisconnectTimeout (after a
// warning at DisconnectWarning); one that says goodbye at once.
func TestDisconnect(t *testing.T) {
	w := newWorld(t, worldOpts{sim: NetSim{Latency: 10 * time.Millisecond}})
	w.run(3 * time.Second)
	w.noErrors(t)
	w.nodes[1].off = true
	gone := w.clock.now
	warned := time.Duration(0)
	for w.nodes[0].err == nil && w.step() {
		if warned == 0 && w.nodes[0].s.Stats().Interrupted > 0 {
			warned = w.clock.now - gone
		}
	}
	var de *DisconnectError
	if !errors.As(w.nodes[0].err, &de) || de.Player != 1 || de.Left {
		t.Fatalf("got %v, want player 1 timed out", w.nodes[0].err)
	}
	took := w.clock.now - gone
	t.Logf("warned after %v, disconnected after %v: %v", warned, took, w.nodes[0].err)
	if warned < DefaultDisconnectWarning || warned > DefaultDisconnectWarning+50*time.Millisecond {
		t.Errorf("warned after %v", warned)
	}
	if took < DefaultDisconnectTimeout || took > DefaultDisconnectTimeout+50*time.Millisecond {
		t.Errorf("disconnected after %v", took)
	}

	// A goodbye.
	w = newWorld(t, worldOpts{})
	w.run(time.Second)
	w.nodes[1].s.Close()
	w.nodes[1].off = true
	w.run(100 * time.Millisecond)
	if !errors.As(w.nodes[0].err, &de) || !de.Left {
		t.Fatalf("got %v, want player 1 left", w.nodes[0].err)
	}
}

// Garbage from a peer's address is dropped and counted, garbage from
// elsewhere is ignored, and the game goes on undisturbed.
func TestGarbage(t *testing.T) {
	w := newWorld(t, worldOpts{sim: NetSim{Latency: 20 * time.Millisecond, Loss: 0.02}, seed: 8})
	stranger := w.net.Listen(addrStranger)
	spoof := w.net.Listen(addr(1)) // the same MemConn as node 1's: its address
	var pk packet
	pk.kind, pk.token, pk.size, pk.per, pk.count = kindInput, 1, 2, 1, 0
	valid := pk.appendInputHead(nil)
	junk := [][]byte{
		{},
		{'f'},
		[]byte("fx"),
		{'f', 'x', 1, 9, 0, 0, 0, 0},             // unknown kind
		{'f', 'x', 1, kindInput, 1, 2, 3, 4},     // an input cut short
		append(append([]byte{}, valid...), 1, 2), // inputs beyond its count
		make([]byte, 300),
	}
	bad := 0
	for i := range 600 {
		w.step()
		if i%3 == 0 {
			j := junk[i/3%len(junk)]
			spoof.WriteTo(j, addr(0))
			stranger.WriteTo(j, addr(0))
			bad++
		}
	}
	w.run(5 * time.Second)
	w.noErrors(t)
	w.sameHistory(t)
	st := w.nodes[0].s.Stats()
	t.Logf("bad %d, unknown %d, stale %d", st.PacketsBad, st.PacketsUnknown, st.PacketsStale)
	if st.PacketsBad < uint64(bad) || st.PacketsUnknown < uint64(bad) {
		t.Errorf("sent %d junk datagrams from each; counted %d bad, %d unknown", bad, st.PacketsBad, st.PacketsUnknown)
	}
	if st.Tick < 300 || st.Desyncs != 0 {
		t.Errorf("%+v", *st)
	}
}

// A spectator runs confirmed ticks only, never predicts, and ends with the
// players' history; its host compares hashes with it too.
func TestSpectator(t *testing.T) {
	w := newWorld(t, worldOpts{spectators: 1, sim: NetSim{Latency: 30 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.03}, seed: 11})
	w.runInStep(t, 10*time.Second, 550)
	sp := w.nodes[2]
	st := sp.s.Stats()
	t.Logf("spectator:%s ticks=%d", sp.s.Report(), st.Tick)
	if sp.g.predicted != 0 || sp.g.reruns != 0 || st.Tick < 500 || st.Hashes < 5 {
		t.Errorf("spectator: %d predicted, %d reruns, %d ticks, %d hashes", sp.g.predicted, sp.g.reruns, st.Tick, st.Hashes)
	}
	if w.nodes[0].s.Stats().SpectatorsDropped != 0 {
		t.Error("spectator dropped")
	}
	// Seated at the start, it was fed every input from tick 0: no state.
	if hs := w.nodes[0].s.Stats(); hs.StatesSent != 0 || st.StateBytes != 0 || st.Catchup != 0 || sp.g.updates != int(st.Tick) {
		t.Errorf("a spectator from the start: %d states sent, %d bytes loaded, catch-up %v, %d updates for %d ticks",
			hs.StatesSent, st.StateBytes, st.Catchup, sp.g.updates, st.Tick)
	}
}

// A game whose peers simulate differently is caught by the hash exchange:
// both stop with an error naming the tick.
func TestDesync(t *testing.T) {
	w := newWorld(t, worldOpts{sim: NetSim{Latency: 20 * time.Millisecond}})
	w.run(2 * time.Second)
	w.noErrors(t)
	w.nodes[1].g.pos[0] += 1000 // node 1's world drifts
	w.run(3 * time.Second)
	for i, n := range w.nodes {
		var de *engine.DesyncError
		if !errors.As(n.err, &de) || de.Tick == 0 || de.Tick%60 != 0 || de.Other != fmt.Sprintf("player %d", 2-i) {
			t.Errorf("node %d: %v, want a desync", i, n.err)
			continue
		}
		t.Logf("node %d: %v", i, n.err)
	}
	var de0, de1 *engine.DesyncError
	if errors.As(w.nodes[0].err, &de0) && errors.As(w.nodes[1].err, &de1) && de0.Tick != de1.Tick {
		t.Error("the peers name different ticks")
	}
}

// Inputs of the largest size, four players and a spectator fed 256 bytes
// a tick: every datagram fits in MaxPacket, and the spectator keeps up
// over a lossy link.
func TestLargeInputs(t *testing.T) {
	w := newWorld(t, worldOpts{players: 4, spectators: 1, sim: badLink, seed: 13, tweak: func(i int, c *SessionConfig) { c.InputSize = 64 }})
	w.runInStep(t, 10*time.Second, 550)
	for i, n := range w.nodes {
		if st := n.sim.Stats(); st.Overflow != 0 || n.conn.Dropped() != 0 {
			t.Errorf("node %d: %d datagrams overflowed, %d dropped", i, st.Overflow, n.conn.Dropped())
		}
		if st := n.s.Stats(); st.BytesOut > st.PacketsOut*MaxPacket || st.PacketsBad != 0 {
			t.Errorf("node %d: %+v", i, *st)
		}
	}
	if sp := w.nodes[4].s.Stats(); sp.Tick < 550 || w.nodes[0].s.Stats().SpectatorsDropped != 0 {
		t.Errorf("spectator at tick %d", sp.Tick)
	}
}

// tape is a test TickListener: it keeps every tick's inputs and, where the
// session gave one, the state before it.
type tape struct {
	next   uint64
	inputs [][]byte
	states map[uint64][]byte
	err    error
}

func (r *tape) Confirmed(n uint64, in engine.Inputs, state []byte) error {
	if n != r.next && r.err == nil {
		r.err = fmt.Errorf("tick %d given after %d", n, r.next-1)
	}
	if !in.Confirmed() && r.err == nil {
		r.err = fmt.Errorf("tick %d given with predicted inputs", n)
	}
	r.next = n + 1
	r.inputs = append(r.inputs, append([]byte(nil), in.Bytes()...))
	if state != nil {
		r.states[n] = append([]byte(nil), state...)
	}
	return nil
}

// A match with an end (SessionConfig.EndTick), three players and a spectator on
// a bad link: every peer stops with engine.ErrStopped after exactly
// EndTick ticks, all in the same state, and every peer's recorder heard
// every tick once, in order, with the same inputs, and the state before
// it (every tick for a player, every HashEvery ticks for the spectator)
// that the game had after the tick before, as finally run.
func TestEndTickAndRecorder(t *testing.T) {
	const end = 600
	w := newWorld(t, worldOpts{players: 3, spectators: 1, sim: badLink, seed: 17, tweak: func(i int, c *SessionConfig) { c.EndTick = end }})
	tapes := make([]*tape, len(w.nodes))
	for i, n := range w.nodes {
		tapes[i] = &tape{states: map[uint64][]byte{}}
		n.s.SetTickListener(tapes[i])
	}
	w.run(30 * time.Second)
	var rollbacks uint64
	for i, n := range w.nodes {
		if n.err != engine.ErrStopped {
			t.Fatalf("node %d: %v, want engine.ErrStopped at the end", i, n.err)
		}
		if n.g.n != end || n.g.h != w.nodes[0].g.h || n.s.Tick() != end {
			t.Errorf("node %d ended at tick %d (session %d), hash %x; node 0: %x", i, n.g.n, n.s.Tick(), n.g.h, w.nodes[0].g.h)
		}
		rollbacks += n.s.Stats().Rollbacks
		tp := tapes[i]
		if tp.err != nil || len(tp.inputs) != end {
			t.Fatalf("node %d's recorder: %v, %d ticks", i, tp.err, len(tp.inputs))
		}
		for k := range end {
			if string(tp.inputs[k]) != string(tapes[0].inputs[k]) {
				t.Fatalf("tick %d: node %d recorded %v, node 0 %v", k, i, tp.inputs[k], tapes[0].inputs[k])
			}
			st, ok := tp.states[uint64(k)]
			if !ok {
				if i < 3 || k%60 == 0 && k > 0 {
					t.Fatalf("node %d: no state before tick %d", i, k)
				}
				continue
			}
			var g testGame
			if err := g.Load(st); err != nil || g.n != uint64(k) || k > 0 && g.h != w.nodes[0].g.after[k-1] {
				t.Fatalf("node %d: the state before tick %d is at tick %d with hash %x, want %x (%v)", i, k, g.n, g.h, w.nodes[0].g.after[max(k, 1)-1], err)
			}
		}
	}
	if rollbacks == 0 {
		t.Error("no rollbacks: the link was too kind to test what is recorded")
	}
}

// A peer whose match ends earlier than ours is one that left.
func TestEarlierEndIsALeaver(t *testing.T) {
	w := newWorld(t, worldOpts{sim: NetSim{Latency: 20 * time.Millisecond}, tweak: func(i int, c *SessionConfig) { c.EndTick = uint64(100 * (i + 1)) }})
	w.run(10 * time.Second)
	var de *DisconnectError
	if w.nodes[0].err != engine.ErrStopped || !errors.As(w.nodes[1].err, &de) || !de.Left {
		t.Fatalf("node 0: %v (want ErrStopped), node 1: %v (want player 0 left)", w.nodes[0].err, w.nodes[1].err)
	}
}

// A peer whose loop pauses for longer than the disconnect timeout is not
// timed out (its Begin keeps in touch): the other stalls at
// MaxPrediction ticks past its last input, and once it resumes both go
// on with the same history.
func TestPausedPeerFreezesTheMatch(t *testing.T) {
	w := newWorld(t, worldOpts{sim: NetSim{Latency: 20 * time.Millisecond}})
	w.run(2 * time.Second)
	w.nodes[1].ts.SetPaused(true)
	w.run(5 * time.Second)
	w.noErrors(t)
	a, b := w.nodes[0].s, w.nodes[1].s
	if a.Tick() > b.Tick()+uint64(DefaultInputDelay)+DefaultMaxPrediction || a.Stats().Stalls < 250 {
		t.Errorf("while 1 paused: node 0 at tick %d with %d stalls, node 1 at %d", a.Tick(), a.Stats().Stalls, b.Tick())
	}
	w.nodes[1].ts.SetPaused(false)
	w.runInStep(t, 5*time.Second, 400)
}

// A joiner whose host is not there stops after HandshakeTimeout with an
// error saying so; a host waiting on an Accept transport never does.
func TestHandshakeTimeout(t *testing.T) {
	clk := &fakeClock{}
	net := NewMemNet()
	hostAddr := netip.MustParseAddrPort("10.0.0.1:7000")
	join, err := NewSession(SessionConfig{Local: 1, Addrs: []netip.AddrPort{hostAddr, {}}, InputSize: 2, Clock: clk},
		&testGame{player: 1, players: 2}, net.Listen(netip.MustParseAddrPort("10.0.0.2:7000")))
	if err != nil {
		t.Fatal(err)
	}
	host, err := NewSession(SessionConfig{Local: 0, Addrs: []netip.AddrPort{{}, Unknown}, InputSize: 2, Clock: clk},
		&testGame{player: 0, players: 2}, NewAccept(net.Listen(netip.MustParseAddrPort("10.0.0.3:7000")), 0))
	if err != nil {
		t.Fatal(err)
	}
	tk := tick0(t)
	var joinErr error
	for range 60 * 30 { // 30 s
		clk.now += 16_666_667
		if joinErr == nil {
			joinErr = join.Update(tk)
		}
		if err := host.Update(tk); err != nil {
			t.Fatalf("the host, waiting: %v", err)
		}
	}
	var de *DisconnectError
	if !errors.As(joinErr, &de) || !de.Handshake || de.Addr != hostAddr || de.Silence < DefaultHandshakeTimeout || de.Silence > DefaultHandshakeTimeout+20*time.Millisecond {
		t.Fatalf("the joiner: %v, want no answer from %v in 10s", joinErr, hostAddr)
	}
	t.Log(joinErr)
}
