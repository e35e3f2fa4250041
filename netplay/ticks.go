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
