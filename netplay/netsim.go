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

// simQueueLen bounds the datagrams a SimTransport holds back: a second
// of 60 TPS traffic to three peers, with duplicates.
const simQueueLen = 256

// SimTransport degrades the datagrams another Transport sends as a NetSim
// says, from a seeded random source: the same seed, clock readings and
// calls give the same losses and delays on every machine. Held-back
// datagrams go out, in order of their due time, when a later ReadFrom or
// WriteTo finds them due. It holds at most 256; more are dropped. Like the
// Transport it wraps, it is used from one goroutine.
type SimTransport struct {
	inner Transport
	sim   NetSim
	clock engine.Clock
	rng   rand.PCG

	held [simQueueLen]struct {
		due time.Duration
		seq uint64
		to  netip.AddrPort
		n   int
		buf [MaxPacket]byte
	}
	n   int    // held datagrams, held[:n]
	seq uint64 // sending order, to break ties in due time

	lost, dups, overflow uint64
}

// NewSimTransport returns inner degraded as sim says, timed by clock (nil:
// the monotonic clock) and seeded by seed.
func NewSimTransport(inner Transport, sim NetSim, clock engine.Clock, seed uint64) *SimTransport {
	clock = cmp.Or[engine.Clock](clock, engine.NewMonoClock())
	t := &SimTransport{inner: inner, sim: sim, clock: clock}
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
		if t.n == simQueueLen || len(b) > MaxPacket {
			t.overflow++
			continue
		}
		h := &t.held[t.n]
		h.due, h.seq, h.to = now+t.delay(), t.seq, to
		h.n = copy(h.buf[:], b)
		t.n++
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
	for {
		best := -1
		for i := range t.n {
			h := &t.held[i]
			if h.due <= now && (best < 0 || h.due < t.held[best].due ||
				h.due == t.held[best].due && h.seq < t.held[best].seq) {
				best = i
			}
		}
		if best < 0 {
			return nil
		}
		h := &t.held[best]
		err := t.inner.WriteTo(h.buf[:h.n], h.to)
		t.n--
		t.held[best] = t.held[t.n]
		if err != nil {
			return err
		}
	}
}

// SimStats counts what a SimTransport did to the datagrams it sent.
type SimStats struct {
	Lost     uint64 // lost on purpose
	Dups     uint64 // delivered twice
	Overflow uint64 // dropped because 256 were held back already
	Held     int    // held back now
}

// Stats returns the counts so far.
func (t *SimTransport) Stats() SimStats {
	return SimStats{Lost: t.lost, Dups: t.dups, Overflow: t.overflow, Held: t.n}
}
