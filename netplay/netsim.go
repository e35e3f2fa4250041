package netplay

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/fixstep/fixstep/engine"
)

// NetSim describes a bad network link: what a SimTransport does to the
// datagrams it sends. The zero NetSim is a perfect link.
type NetSim struct {
	// Latency is the one-way delay of every datagram.
	Latency time.Duration
	// Jitter spreads the delay: each datagram's is Latency plus a uniform
	// random offset in [-Jitter, +Jitter], never below zero. Datagrams
	// whose delays cross arrive out of order.
	Jitter time.Duration
	// Loss is the fraction of datagrams lost, in [0, 1].
	Loss float64
	// Dup is the fraction of datagrams delivered twice, in [0, 1]; the copy
	// has a delay of its own.
	Dup float64
	// Reorder is the fraction of datagrams held back 10 to 50 ms more than
	// their delay, so later ones overtake them, in [0, 1].
	Reorder float64
}

// Limits ParseNetSim checks against.
const maxSimDelay = 10 * time.Second

// ParseNetSim reads a NetSim as a -netsim flag spells it: comma-separated
// key=value pairs of latency, jitter (Go durations), loss, dup and reorder
// (fractions), as in "latency=50ms,jitter=10ms,loss=0.05,dup=0.01". Keys
// left out are zero; "" is a perfect link. An error names the key and its
// value.
func ParseNetSim(s string) (NetSim, error) {
	var n NetSim
	if strings.TrimSpace(s) == "" {
		return n, nil
	}
	for kv := range strings.SplitSeq(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok {
			return NetSim{}, fmt.Errorf("netplay: netsim %q: want key=value", kv)
		}
		switch k {
		case "latency", "jitter":
			d, err := time.ParseDuration(v)
			if err != nil || d < 0 || d > maxSimDelay {
				return NetSim{}, fmt.Errorf("netplay: netsim %s=%q: want a duration from 0 to %v", k, v, maxSimDelay)
			}
			if k == "latency" {
				n.Latency = d
			} else {
				n.Jitter = d
			}
		case "loss", "dup", "reorder":
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || !(f >= 0 && f <= 1) {
				return NetSim{}, fmt.Errorf("netplay: netsim %s=%q: want a fraction from 0 to 1", k, v)
			}
			switch k {
			case "loss":
				n.Loss = f
			case "dup":
				n.Dup = f
			default:
				n.Reorder = f
			}
		default:
			return NetSim{}, fmt.Errorf("netplay: netsim key %q: want latency, jitter, loss, dup or reorder", k)
		}
	}
	return n, nil
}

// String writes n as ParseNetSim reads it.
func (n NetSim) String() string {
	return fmt.Sprintf("latency=%v,jitter=%v,loss=%g,dup=%g,reorder=%g", n.Latency, n.Jitter, n.Loss, n.Dup, n.Reorder)
}

// simQueueLen bounds the datagrams a SimTransport holds back: those in
// flight on its link. A server sends a joiner up to chunksPerTick slices
// a tick, about 580 in flight on a 151 ms link (75.5 ms one way) and 770
// on a 201 ms one; 256, when a transfer went 32 slices a tick, capped a
// 151 ms link at 14 Mbit/s, a limit of the simulator, not of a link.
const simQueueLen = 1024

// SimTransport degrades the datagrams another Transport sends as a NetSim
// says, from a seeded random source: the same seed, clock readings and
// calls give the same losses and delays on every machine. Held-back
// datagrams go out, in order of their due time, when a later ReadFrom or
// WriteTo finds them due. It holds at most 1,024; more are dropped. Like
// the Transport it wraps, it is used from one goroutine.
type SimTransport struct {
	inner Transport
	sim   NetSim
	clock engine.Clock
	rng   rand.PCG

	held []simDatagram // a heap: the earliest due (then the first sent) first
	free []int         // the slots of bufs no held datagram uses
	bufs []byte        // simQueueLen slots of MaxPacket bytes
	seq  uint64        // sending order, to break ties in due time

	lost, dups, overflow uint64
}

// simDatagram is a datagram a SimTransport holds back.
type simDatagram struct {
	due  time.Duration
	seq  uint64
	to   netip.AddrPort
	n    int
	slot int // its bytes: bufs[slot*MaxPacket:][:n]
}

// NewSimTransport returns inner degraded as sim says, timed by clock (nil:
// the monotonic clock) and seeded by seed.
func NewSimTransport(inner Transport, sim NetSim, clock engine.Clock, seed uint64) *SimTransport {
	clock = cmp.Or[engine.Clock](clock, engine.NewMonoClock())
	t := &SimTransport{inner: inner, sim: sim, clock: clock,
		held: make([]simDatagram, 0, simQueueLen), free: make([]int, simQueueLen), bufs: make([]byte, simQueueLen*MaxPacket)}
	for i := range t.free {
		t.free[i] = simQueueLen - 1 - i
	}
	t.rng.Seed(seed, seed^0x9e3779b97f4a7c15)
	return t
}

// chance reports true with probability p.
func (t *SimTransport) chance(p float64) bool {
	return p > 0 && float64(t.rng.Uint64()>>11)/(1<<53) < p
}

// delay returns a datagram's random delay.
func (t *SimTransport) delay() time.Duration {
	d := t.sim.Latency
	if j := t.sim.Jitter; j > 0 {
		d += time.Duration(t.rng.Uint64()%uint64(2*j+1)) - j
	}
	if t.chance(t.sim.Reorder) {
		d += 10*time.Millisecond + time.Duration(t.rng.Uint64()%uint64(40*time.Millisecond))
	}
	return max(d, 0)
}

// WriteTo holds b back for its delay, loses it or duplicates it.
func (t *SimTransport) WriteTo(b []byte, to netip.AddrPort) error {
	now := t.clock.Now()
	if err := t.flush(now); err != nil {
		return err
	}
	if t.chance(t.sim.Loss) {
		t.lost++
		return nil
	}
	copies := 1
	if t.chance(t.sim.Dup) {
		copies, t.dups = 2, t.dups+1
	}
	for range copies {
		if len(t.held) == simQueueLen || len(b) > MaxPacket {
			t.overflow++
			continue
		}
		slot := t.free[len(t.free)-1]
		t.free = t.free[:len(t.free)-1]
		t.held = append(t.held, simDatagram{due: now + t.delay(), seq: t.seq, to: to, slot: slot,
			n: copy(t.bufs[slot*MaxPacket:(slot+1)*MaxPacket], b)})
		t.up(len(t.held) - 1)
		t.seq++
	}
	return t.flush(now)
}

// ReadFrom sends what is due, then reads from the wrapped transport.
func (t *SimTransport) ReadFrom(b []byte) (int, netip.AddrPort, bool) {
	t.flush(t.clock.Now()) // a send error shows at the next WriteTo
	return t.inner.ReadFrom(b)
}

// Flush sends every held datagram due by now.
func (t *SimTransport) Flush() error { return t.flush(t.clock.Now()) }

// flush sends the held datagrams due by now, earliest first.
func (t *SimTransport) flush(now time.Duration) error {
	for len(t.held) > 0 && t.held[0].due <= now {
		h := t.held[0]
		last := len(t.held) - 1
		t.held[0] = t.held[last]
		t.held = t.held[:last]
		t.down(0)
		t.free = append(t.free, h.slot)
		if err := t.inner.WriteTo(t.bufs[h.slot*MaxPacket:][:h.n], h.to); err != nil {
			return err
		}
	}
	return nil
}

// before reports whether held datagram i goes out before j.
func (t *SimTransport) before(i, j int) bool {
	a, b := &t.held[i], &t.held[j]
	return a.due < b.due || a.due == b.due && a.seq < b.seq
}

// up moves held datagram i up the heap to its place.
func (t *SimTransport) up(i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if !t.before(i, parent) {
			return
		}
		t.held[i], t.held[parent] = t.held[parent], t.held[i]
		i = parent
	}
}

// down moves held datagram i down the heap to its place.
func (t *SimTransport) down(i int) {
	for {
		first := i
		for _, c := range [2]int{2*i + 1, 2*i + 2} {
			if c < len(t.held) && t.before(c, first) {
				first = c
			}
		}
		if first == i {
			return
		}
		t.held[i], t.held[first] = t.held[first], t.held[i]
		i = first
	}
}

// SimStats counts what a SimTransport did to the datagrams it sent.
type SimStats struct {
	Lost     uint64 // lost on purpose
	Dups     uint64 // delivered twice
	Overflow uint64 // dropped because 1,024 were held back already
	Held     int    // held back now
}

// Stats returns the counts so far.
func (t *SimTransport) Stats() SimStats {
	return SimStats{Lost: t.lost, Dups: t.dups, Overflow: t.overflow, Held: len(t.held)}
}
