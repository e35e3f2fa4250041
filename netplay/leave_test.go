package netplay

import (
	"errors"
	"fmt"
	"net/netip"
	"testing"
	"time"

	"github.com/fixstep/fixstep/engine"
)

// seatTape is a test TickListener that keeps every tick's inputs and
// empty seats, as a recording does.
type seatTape struct {
	rows  [][]byte
	empty []uint32
	err   error
}

func (r *seatTape) Confirmed(n uint64, in engine.Inputs, _ []byte) error {
	if n != uint64(len(r.rows)) && r.err == nil {
		r.err = fmt.Errorf("tick %d given after %d", n, len(r.rows)-1)
	}
	if !in.Confirmed() && r.err == nil {
		r.err = fmt.Errorf("tick %d given with predicted inputs", n)
	}
	r.rows = append(r.rows, append([]byte(nil), in.Bytes()...))
	r.empty = append(r.empty, in.EmptySeats())
	return nil
}

// replay runs a new game of players through the tape, as a replay runs a
// recording, and returns the hash it ends on.
func (r *seatTape) replay(players int) (uint64, error) {
	g := &testGame{players: players}
	for n, row := range r.rows {
		in := engine.NewInputs(row, 2, 0).WithEmptySeats(r.empty[n])
		if err := g.Update(engine.Tick{N: uint64(n), Input: in}); err != nil {
			return 0, err
		}
	}
	return g.h, nil
}

// gate is a node's transport with links that a test cuts: a datagram
// from node from to node to is lost while cut says so.
type gate struct {
	Transport
	from int
	cut  func(from, to int) bool
}

func (g *gate) WriteTo(b []byte, to netip.AddrPort) error {
	if g.cut(g.from, int(to.Addr().As4()[3])-1) {
		return nil
	}
	return g.Transport.WriteTo(b, to)
}

// drops counts the drop datagrams the transport it wraps sends.
type drops struct {
	Transport
	n *int
}

func (d drops) WriteTo(b []byte, to netip.AddrPort) error {
	if len(b) > 3 && b[3] == kindDrop {
		*d.n++
	}
	return d.Transport.WriteTo(b, to)
}

// lossy is the link of the lost-peer tests: loss, jitter, reordering.
var lossy = NetSim{Latency: 30 * time.Millisecond, Jitter: 15 * time.Millisecond, Loss: 0.05, Reorder: 0.02}

// leaveWorld returns a world of players (and spectators fed by node 0)
// that ends at tick end, recording every node on a seatTape, each
// node's links cut while cut (nil: never) says so.
func leaveWorld(t *testing.T, players, spectators int, seed uint64, end uint64, cut func(from, to int) bool) (*world, []*seatTape) {
	t.Helper()
	o := worldOpts{players: players, spectators: spectators, sim: lossy, seed: seed, jitter: true,
		tweak: func(i int, c *SessionConfig) { c.EndTick = end }}
	if cut != nil {
		o.transport = func(i int, tr Transport) Transport { return &gate{Transport: tr, from: i, cut: cut} }
	}
	w := newWorld(t, o)
	tapes := make([]*seatTape, len(w.nodes))
	for i, n := range w.nodes {
		tapes[i] = &seatTape{}
		n.s.SetTickListener(tapes[i])
	}
	return w, tapes
}

// playedOn checks that every node but those in lost ended the match at
// end with engine.ErrStopped on one state hash, without player lost[0]
// from one tick T on: every player's SessionStats.Left says so, every
// tape holds the same ticks with the seat empty exactly from T, and each
// replays alone to the match's hash. It returns T.
func playedOn(t *testing.T, w *world, tapes []*seatTape, end int, lost ...int) int {
	t.Helper()
	isLost := func(i int) bool {
		for _, l := range lost {
			if l == i {
				return true
			}
		}
		return false
	}
	T, ref := -1, -1
	for i, n := range w.nodes {
		if isLost(i) {
			continue
		}
		if n.err != engine.ErrStopped {
			t.Fatalf("node %d: %v, want engine.ErrStopped at the end", i, n.err)
		}
		st := n.s.Stats()
		if st.Desyncs != 0 || n.g.n != uint64(end) {
			t.Fatalf("node %d: %d desyncs, at tick %d", i, st.Desyncs, n.g.n)
		}
		if ref < 0 {
			ref = i
		}
		if n.g.h != w.nodes[ref].g.h {
			t.Fatalf("node %d ends on %x, node %d on %x: one match, two worlds", i, n.g.h, ref, w.nodes[ref].g.h)
		}
		if n.s.local >= 0 {
			if len(st.Left) != 1 || st.Left[0].Player != lost[0] {
				t.Fatalf("node %d: Left %v, want player index %d", i, st.Left, lost[0])
			}
			if T < 0 {
				T = int(st.Left[0].Tick)
			}
			if int(st.Left[0].Tick) != T {
				t.Fatalf("node %d: player %d left at tick %d, for another node at %d", i, lost[0]+1, st.Left[0].Tick, T)
			}
		}
	}
	if T <= 0 || T >= end {
		t.Fatalf("player %d left at tick %d: want one inside the match", lost[0]+1, T)
	}
	for i, tp := range tapes {
		if isLost(i) {
			continue
		}
		if tp.err != nil || len(tp.rows) != end {
			t.Fatalf("node %d's tape: %v, %d ticks", i, tp.err, len(tp.rows))
		}
		for k := range end {
			want := uint32(0)
			if k >= T {
				want = 1 << lost[0]
			}
			if tp.empty[k] != want || string(tp.rows[k]) != string(tapes[ref].rows[k]) {
				t.Fatalf("node %d's tick %d: inputs %v, empty seats %#x; node %d's %v; want empty seats %#x", i, k, tp.rows[k], tp.empty[k], ref, tapes[ref].rows[k], want)
			}
		}
		if h, err := tp.replay(w.nodes[i].g.players); err != nil || h != w.nodes[ref].g.h {
			t.Fatalf("node %d's tape replays to %x (%v), want %x", i, h, err, w.nodes[ref].g.h)
		}
	}
	return T
}

// A match of three or four loses a player (it vanishes, on a lossy link,
// at various ticks, whichever player it is): the others agree on the tick
// from which its seat is empty, play on to the end on one hash, and each
// one's recording replays to it; a spectator fed by a player that plays
// on sees the seat empty from the same tick, and ends on the same hash.
func TestLostPeerPlaysOn(t *testing.T) {
	const end = 600
	for _, c := range []struct {
		players, spectators, lost int
		at                        time.Duration
	}{
		{3, 1, 2, 1500 * time.Millisecond},
		{3, 0, 0, 2300 * time.Millisecond},
		{4, 1, 1, 1100 * time.Millisecond},
		{4, 0, 3, 2730 * time.Millisecond},
		{4, 0, 0, 4100 * time.Millisecond},
	} {
		for seed := range uint64(2) {
			w, tapes := leaveWorld(t, c.players, c.spectators, seed+3, end, nil)
			w.run(c.at)
			w.noErrors(t)
			w.nodes[c.lost].off = true
			gone, lostAt := w.nodes[c.lost].s.Tick(), w.clock.now
			var first, last time.Duration // the first player to drop it, the last to vacate its seat
			var vacated [MaxPeers]bool
			for w.step() {
				for i, n := range w.nodes[:c.players] {
					if i == c.lost {
						continue
					}
					if n.s.dropped != 0 && first == 0 {
						first = w.clock.now
					}
					if n.s.vacant != 0 && !vacated[i] {
						vacated[i], last = true, w.clock.now
					}
				}
				if w.clock.now > lostAt+30*time.Second {
					break
				}
			}
			T := playedOn(t, w, tapes, end, c.lost)
			if T < int(gone)-DefaultMaxPrediction-DefaultInputDelay || T > int(gone)+DefaultMaxPrediction+DefaultInputDelay {
				t.Errorf("%d players, player %d lost at its tick %d: its seat empty from %d", c.players, c.lost+1, gone, T)
			}
			t.Logf("%d players (+%d spectators), seed %d: player %d vanished at its tick %d; dropped after %v, agreed %v later, empty from %d;%s",
				c.players, c.spectators, seed, c.lost+1, gone, (first - lostAt).Round(time.Millisecond), (last - first).Round(time.Millisecond), T, w.nodes[(c.lost+1)%c.players].s.Report())
		}
	}
}

// Three players still in touch, each with a different last input of the
// one that vanished (its links to them fail one after another first):
// they agree on the largest, the two that lack some of its inputs are
// sent them by one that has them, and all end on one hash.
func TestLostPeerLastInputsDiffer(t *testing.T) {
	const end = 480
	var cutAt [4]time.Duration // when node 3's link to each node fails
	var w *world
	w, tapes := leaveWorld(t, 4, 0, 5, end, func(from, to int) bool {
		return from == 3 && cutAt[to] != 0 && w.clock.now >= cutAt[to]
	})
	w.run(2 * time.Second)
	w.noErrors(t)
	cutAt[1] = w.clock.now
	cutAt[2] = w.clock.now + 150*time.Millisecond
	w.run(300 * time.Millisecond)
	w.nodes[3].off = true
	var votes [3]int
	for w.step() {
		for i := range 3 {
			if s := w.nodes[i].s; s.dropped != 0 && votes[i] == 0 {
				votes[i] = s.vote[3]
			}
		}
	}
	T := playedOn(t, w, tapes, end, 3)
	t.Logf("votes %v, empty from %d", votes, T)
	if !(votes[1] < votes[2] && votes[2] < votes[0]) || T != votes[0] {
		t.Errorf("votes %v, seat empty from %d: want three different votes, and the largest taken", votes, T)
	}
}

// A match of four loses one player, then, once the three others played
// on, another: the two left are a majority of the three seated before, so
// they play on again, and end on one hash with both seats empty from the
// ticks they agreed on.
func TestLostOneAfterAnother(t *testing.T) {
	const end = 700
	w, tapes := leaveWorld(t, 4, 0, 9, end, nil)
	w.run(1500 * time.Millisecond)
	w.nodes[3].off = true
	w.run(4 * time.Second)
	w.noErrors(t)
	w.nodes[1].off = true
	w.run(30 * time.Second)
	a, b := w.nodes[0], w.nodes[2]
	if a.err != engine.ErrStopped || b.err != engine.ErrStopped || a.g.h != b.g.h || a.g.n != end {
		t.Fatalf("node 0: %v at tick %d, hash %x; node 2: %v, hash %x", a.err, a.g.n, a.g.h, b.err, b.g.h)
	}
	la, lb := a.s.Stats().Left, b.s.Stats().Left
	if len(la) != 2 || la[0].Player != 3 || la[1].Player != 1 || fmt.Sprint(la) != fmt.Sprint(lb) || la[0].Tick >= la[1].Tick {
		t.Fatalf("left: node 0 %v, node 2 %v; want player 4, then player 2, the same on both", la, lb)
	}
	for _, i := range []int{0, 2} {
		tp := tapes[i]
		for k := range end {
			want := uint32(0)
			if k >= int(la[0].Tick) {
				want |= 1 << 3
			}
			if k >= int(la[1].Tick) {
				want |= 1 << 1
			}
			if tp.empty[k] != want {
				t.Fatalf("node %d's tick %d: empty seats %#b, want %#b", i, k, tp.empty[k], want)
			}
		}
		if h, err := tp.replay(4); err != nil || h != a.g.h {
			t.Fatalf("node %d's tape replays to %x (%v), want %x", i, h, err, a.g.h)
		}
	}
	t.Log(a.s.Report())
}

// The players send drop datagrams while they agree, and none once they
// all have: a lost player costs a burst, not a stream.
func TestDropsStopOnceAgreed(t *testing.T) {
	var n int
	w := newWorld(t, worldOpts{players: 4, sim: lossy, seed: 3, jitter: true,
		transport: func(i int, tr Transport) Transport { return drops{tr, &n} }})
	w.run(2 * time.Second)
	w.nodes[1].off = true
	w.run(3 * time.Second) // the timeout, then the round
	round := n
	w.run(10 * time.Second)
	w.noErrors(t)
	t.Logf("%d drop datagrams in the round", round)
	if left := w.nodes[0].s.Stats().Left; round == 0 || n != round || len(left) != 1 {
		t.Errorf("%d drop datagrams sent in the round, %d in the 10 s after; left %v", round, n-round, left)
	}
}

// A player that quits a match of three (a bye) leaves its seat empty from
// a tick the two others agree on, and they play on.
func TestQuitPlaysOn(t *testing.T) {
	const end = 400
	w, tapes := leaveWorld(t, 3, 0, 2, end, nil)
	w.run(1500 * time.Millisecond)
	w.noErrors(t)
	w.nodes[1].s.Close()
	w.nodes[1].off = true
	w.run(20 * time.Second)
	playedOn(t, w, tapes, end, 1)
}

// A player cut off from the others (both ways, for longer than the
// disconnect timeout) cannot play on alone: it stops with a
// *DisconnectError of its own, while the three others drop it and play on
// to the end on one hash; the link healing changes nothing.
func TestPartitionedPeerStops(t *testing.T) {
	const end = 500
	var from, to time.Duration
	var w *world
	w, tapes := leaveWorld(t, 4, 0, 8, end, func(a, b int) bool {
		return (a == 2 || b == 2) && w.clock.now >= from && w.clock.now < to
	})
	from, to = 1500*time.Millisecond+w.clock.now, 5500*time.Millisecond+w.clock.now
	w.run(30 * time.Second)
	playedOn(t, w, tapes, end, 2)
	var de *DisconnectError
	if err := w.nodes[2].err; !errors.As(err, &de) || de.Dropped || de.Left || de.Player == 2 {
		t.Fatalf("the peer cut off: %v, want a *DisconnectError naming another player as silent", err)
	}
	t.Log("the peer cut off:", w.nodes[2].err)
}

// A player whose datagrams stop reaching the others, while theirs reach
// it, is dropped, told so, and stops with an error that says so: the
// tick from which the others play without it.
func TestDroppedPeerIsTold(t *testing.T) {
	const end = 500
	var w *world
	var cutAt time.Duration
	w, tapes := leaveWorld(t, 3, 0, 4, end, func(a, b int) bool {
		return a == 0 && cutAt != 0 && w.clock.now >= cutAt
	})
	w.run(time.Second)
	cutAt = w.clock.now
	w.run(30 * time.Second)
	T := playedOn(t, w, tapes, end, 0)
	var de *DisconnectError
	if err := w.nodes[0].err; !errors.As(err, &de) || !de.Dropped || de.Player != 0 || de.Tick == 0 || de.Tick > uint64(T) {
		t.Fatalf("the peer dropped: %v, want a *DisconnectError saying player 1 was dropped from about tick %d", err, T)
	}
	t.Log("the peer dropped:", w.nodes[0].err)
}

// A player whose process stalls for longer than the disconnect timeout
// (a debugger, a swapping machine) is dropped by the three others, which
// play on; when it runs again, the first thing it reads is that it was
// dropped, and it stops saying so, not with a desync.
func TestStalledPeerIsTold(t *testing.T) {
	const end = 500
	w, tapes := leaveWorld(t, 4, 0, 6, end, nil)
	w.run(1200 * time.Millisecond)
	w.noErrors(t)
	n := w.nodes[1]
	n.off = true
	w.run(3 * time.Second)
	n.off, n.next = false, w.clock.now
	w.run(30 * time.Second)
	T := playedOn(t, w, tapes, end, 1)
	var de *DisconnectError
	if err := n.err; !errors.As(err, &de) || !de.Dropped || de.Player != 1 || de.Tick != uint64(T) {
		t.Fatalf("the stalled peer: %v, want a *DisconnectError saying player 2 was dropped from tick %d", err, T)
	}
	t.Log("the stalled peer:", n.err)
}

// Half the players of a match of four vanish at once: the two left are
// no majority, and stop, naming one that vanished (not each other, which
// the first to stop tells the other as it goes).
func TestHalfVanishedStops(t *testing.T) {
	for seed := range uint64(4) {
		w := newWorld(t, worldOpts{players: 4, seed: seed, jitter: true, sim: lossy})
		w.run(time.Second)
		w.noErrors(t)
		w.nodes[2].off, w.nodes[3].off = true, true
		w.run(5 * time.Second)
		for i, n := range w.nodes[:2] {
			var de *DisconnectError
			if !errors.As(n.err, &de) || de.Player < 2 || de.Left || de.Dropped || de.Addr != addr(de.Player) {
				t.Fatalf("seed %d: node %d: %v, want player 3 or 4 vanished", seed, i, n.err)
			}
		}
	}
}

// A match of four that loses a player allocates nothing in a frame, from
// the loss through the agreement to the play after it, rollbacks
// included.
func TestLostPeerZeroAllocs(t *testing.T) {
	w := newWorld(t, worldOpts{players: 4, sim: badLink, seed: 12, jitter: true})
	w.run(3 * time.Second) // warm up: the saved states reach their size
	w.noErrors(t)
	w.nodes[2].off = true
	before := w.nodes[0].s.Stats().Rollbacks
	allocs := testing.AllocsPerRun(2500, func() { w.step() })
	w.noErrors(t)
	st := w.nodes[0].s.Stats()
	t.Logf("%.3f allocations per frame; %d rollbacks meanwhile; %s", allocs, st.Rollbacks-before, w.nodes[0].s.Report())
	if allocs != 0 {
		t.Errorf("%v allocations per frame, want 0", allocs)
	}
	if len(st.Left) != 1 || st.Rollbacks == before || w.nodes[0].s.Tick() < uint64(st.Left[0].Tick)+300 {
		t.Errorf("left %v, %d rollbacks, at tick %d: the measure did not cover the loss and play after it", st.Left, st.Rollbacks-before, w.nodes[0].s.Tick())
	}
}
