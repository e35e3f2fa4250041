package physics

import (
	"math"

	"github.com/fixstep/fixstep/internal/fnv"
)

// Hash returns a stable 64-bit FNV-1a hash of the world's full state: every
// body's kind, shape, position, previous position and velocity, and the
// touching pairs. Two worlds that hash alike have evolved identically, so
// hashes compare runs across frame rates, builds, CPUs and replays.
func (w *World) Hash() uint64 {
	h := fnv.Offset
	mix := func(v uint64) { h = fnv.Uint64(h, v) }
	mix(w.ticks)
	for i := range w.bodies {
		b := &w.bodies[i]
		if b.removed {
			mix(0xdead)
			continue
		}
		mix(uint64(b.Kind)<<8 | uint64(b.Shape) | uint64(b.gen)<<16)
		for _, f := range [9]float64{b.Pos.X, b.Pos.Y, b.Prev.X, b.Prev.Y, b.Vel.X, b.Vel.Y, b.Angle, b.PrevAngle, b.AngVel} {
			mix(math.Float64bits(f))
		}
	}
	for i := range w.contacts {
		mix(w.contacts[i].key)
	}
	return h
}
