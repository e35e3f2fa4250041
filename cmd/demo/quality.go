package main

import (
	"github.com/fixstep/fixstep/gfx"
	"github.com/fixstep/fixstep/physics"
)

// knobs are what each quality level (0 lowest .. 4) changes in the demo.
type knobs struct {
	scale  float32 // render scale of the world (dynamic resolution)
	msaa   int     // MSAA samples (used at scale 1 only)
	debris int     // debris particles alive at most
	graph  int     // frames in the overlay's graph
}

var levels = [5]knobs{
	{scale: 0.5, msaa: 0, debris: 0, graph: 60},
	{scale: 0.625, msaa: 0, debris: 64, graph: 120},
	{scale: 0.75, msaa: 0, debris: 128, graph: 180},
	{scale: 0.875, msaa: 0, debris: 256, graph: 300},
	{scale: 1, msaa: 4, debris: maxDebris, graph: 300},
}

func knobsAt(level int) knobs { return levels[min(max(level, 0), len(levels)-1)] }

// maxDebris bounds the debris pool.
const maxDebris = 512

// particle is one piece of debris: visual only, outside the physics world
// and its hash.
type particle struct {
	pos, prev, vel physics.Vec2
	life           int // ticks left
	tag            int32
}

// debris is a fixed pool of particles thrown off hard impacts.
type debris struct {
	p     [maxDebris]particle
	next  int
	limit int // particles alive at most, set by the quality level
}

// BeginContact spawns debris where a fast bouncer hits something; the scene
// is the world's ContactListener.
func (s *scene) BeginContact(c *physics.Contact) {
	s.bounceSound(c)
	if s.debris.limit == 0 {
		return
	}
	for _, id := range [2]physics.BodyID{c.A, c.B} {
		body := s.world.Body(id)
		if body.Kind != physics.Dynamic || body.Tag < 0 || body.Vel.Len() < 6 {
			continue
		}
		for range 4 {
			d := &s.debris
			p := &d.p[d.next]
			d.next = (d.next + 1) % max(d.limit, 1)
			*p = particle{pos: body.Pos, prev: body.Pos, life: 40, tag: body.Tag,
				vel: physics.Vec2{X: s.fx.Float64()*8 - 4, Y: s.fx.Float64() * 6}}
		}
	}
}

// maxSoundsPerTick bounds the bounces heard in one tick: a heap that lands
// at once is one clatter, not a hundred voices.
const maxSoundsPerTick = 3

// bounceSound plays a bounce for a contact that begins hard enough: louder
// for a larger impulse (mass times the speed change), panned to where it
// happened.
func (s *scene) bounceSound(c *physics.Contact) {
	if s.sound == nil || s.tickSound >= maxSoundsPerTick || c.Impulse < 1 {
		return
	}
	s.tickSound++
	pan := float32(2*c.Point.X/arenaW - 1)
	s.sound.Play(s.bounce, float32(min(c.Impulse/8, 1)), pan)
}

// EndContact does nothing.
func (s *scene) EndContact(a, b physics.BodyID) {}

// stepDebris moves the particles one tick.
func (s *scene) stepDebris(dt float64) {
	for i := range s.debris.p {
		p := &s.debris.p[i]
		if p.life <= 0 {
			continue
		}
		p.life--
		p.prev = p.pos
		p.vel.Y -= 20 * dt
		p.pos = p.pos.Add(p.vel.Scale(dt))
	}
}

// drawDebris draws the particles alive, interpolated.
func (s *scene) drawDebris(r *gfx.Renderer, alpha float64) {
	for i := range s.debris.p {
		p := &s.debris.p[i]
		if p.life <= 0 || i >= s.debris.limit {
			continue
		}
		x := p.prev.X + (p.pos.X-p.prev.X)*alpha
		y := p.prev.Y + (p.pos.Y-p.prev.Y)*alpha
		c := hue(p.tag)
		r.Rect(float32(x), float32(y), 0.1, 0.1, 0, c)
	}
}
