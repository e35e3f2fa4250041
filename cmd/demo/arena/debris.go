package arena

import "github.com/fixstep/fixstep/physics"

// MaxDebris bounds the debris pool.
const MaxDebris = 512

// Particle is one piece of debris: visual only, outside the physics world
// and its hash.
type Particle struct {
	Pos, Prev, Vel physics.Vec2
	Life           int // ticks left; 0: unused
	Tag            int32
}

// Debris is a fixed pool of particles thrown off hard impacts.
type Debris struct {
	P [MaxDebris]Particle
	// Limit is how many particles live at most, set by the quality level
	// (0: no debris).
	Limit int
	next  int
}

// add puts p in the pool, over the oldest when it is full.
func (d *Debris) add(p Particle) {
	d.P[d.next] = p
	d.next = (d.next + 1) % max(d.Limit, 1)
}

// step moves the particles one tick.
func (d *Debris) step(dt float64) {
	for i := range d.P {
		p := &d.P[i]
		if p.Life <= 0 {
			continue
		}
		p.Life--
		p.Prev = p.Pos
		p.Vel.Y -= float64(20 * dt)
		p.Pos = p.Pos.Add(p.Vel.Scale(dt))
	}
}
