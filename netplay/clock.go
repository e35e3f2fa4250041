package netplay

import (
	"fmt"
	"math/bits"
	"time"

	"github.com/fixstep/fixstep/engine"
)

// tickTime is every role's tick arithmetic: a tick lasts exactly num/den
// ns at tps ticks a second, so tick f starts at f·num/den ns of game time
// on every machine, whatever the loop's frames did.
type tickTime struct {
	num, den uint64
	tps      int
	checked  bool // the loop's tick length was checked
}

// newTickTime returns the arithmetic of tps ticks a second.
func newTickTime(tps int) tickTime {
	g := gcd(uint64(time.Second), uint64(tps))
	return tickTime{num: uint64(time.Second) / g, den: uint64(tps) / g, tps: tps}
}

func gcd(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// at returns the game time at the start of tick f.
func (c *tickTime) at(f int) time.Duration {
	hi, lo := bits.Mul64(uint64(f), c.num)
	q, _ := bits.Div64(hi%c.den, lo, c.den) // hi < den for any tick count a game reaches
	return time.Duration(q)
}

// length returns a tick's length in ns, for the time syncs' estimates.
func (c *tickTime) length() float64 { return float64(c.num) / float64(c.den) }

// tick returns the loop's tick t renumbered as the role's tick f, with
// no input yet.
func (c *tickTime) tick(t engine.Tick, f int, rerun bool) engine.Tick {
	t.N, t.Time, t.Rerun, t.Input = uint64(f), c.at(f), rerun, engine.Inputs{}
	return t
}

// check returns an error, once, if the loop's tick t is not this tick
// rate's: field names the role's setting (ServerConfig.TPS, say).
func (c *tickTime) check(t engine.Tick, field string) error {
	if c.checked {
		return nil
	}
	c.checked = true
	if want := time.Duration(c.num / c.den); t.Dt != want {
		return fmt.Errorf("netplay: the loop ticks every %v, but %s = %d ticks every %v", t.Dt, field, c.tps, want)
	}
	return nil
}

// roundTrip measures the round trip to the other end of a link, from the
// clock readings its datagrams carry (a peer's input, a client's update,
// a server's final): each end sends its clock (us), keeps the newest
// reading the other sent, and echoes it back with how long it held it;
// the echo that comes back, less the hold, is a round trip. Every role
// keeps one per link.
type roundTrip struct {
	rtt  time.Duration // smoothed (1/8 of each sample), 0 until measured
	ts   uint32        // the newest clock reading the other end sent, µs
	tsAt time.Duration // when it came
	tsOK bool
}

// us returns d in whole µs, wrapping: the wire's clock.
func us(d time.Duration) uint32 { return uint32(d / time.Microsecond) }

// heard keeps ts, the other end's clock reading that came at now, if it
// is the first or newer than the last, and reports whether it was.
func (r *roundTrip) heard(ts uint32, now time.Duration) bool {
	if r.tsOK && int32(ts-r.ts) <= 0 {
		return false
	}
	r.ts, r.tsAt, r.tsOK = ts, now, true
	return true
}

// echo returns the reading to echo at now and how long it was held, or
// false before one came.
func (r *roundTrip) echo(now time.Duration) (ts, hold uint32, ok bool) {
	return r.ts, us(now - r.tsAt), r.tsOK
}

// measure takes the echo of our clock reading echo, held hold µs by the
// other end, that came back at now. A sample that is negative or over
// 10 s (a forged or mangled echo) is dropped; the first is taken whole,
// and is at least 1 ns, so a measured link never reads as unmeasured.
func (r *roundTrip) measure(now time.Duration, echo, hold uint32) {
	d := time.Duration(int32(us(now)-echo-hold)) * time.Microsecond
	if d < 0 || d >= 10*time.Second {
		return
	}
	if r.rtt == 0 {
		r.rtt = max(d, 1)
	} else {
		r.rtt += (d - r.rtt) / 8
	}
}

// timeout returns the retransmission timeout: a round trip, a quarter
// more and 20 ms, or unmeasured until the first sample.
func (r *roundTrip) timeout(unmeasured time.Duration) time.Duration {
	if r.rtt == 0 {
		return unmeasured
	}
	return r.rtt + r.rtt/4 + 20*time.Millisecond
}
