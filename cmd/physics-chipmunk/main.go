// Command physics-chipmunk runs fixstep's physics and Chipmunk2D (the Go
// port, github.com/jakecoffman/cp/v2 v2.1.0) side by side on the same
// scenes: a stack of 10 boxes, a 20-row pyramid, resting piles of 1,000 and
// 10,000 boxes between 10-unit-thick walls, and 1,000 bouncing balls. Every
// body has mass 1 and no rotation (Chipmunk's moment is infinite); dt is
// 1/60 s, gravity -9.8; Chipmunk runs its default 10 iterations, fixstep
// its defaults (8 velocity and 3 position passes). It is a module of its
// own, so fixstep itself does not depend on Chipmunk:
//
//	cd cmd/physics-chipmunk && go run . -rounds 3
//
// Each result line gives, per engine and scene: the median step time over
// the measured steps, heap allocations per step, the mean speed of the
// bodies at the end (resting speed), the largest movement of any body
// during the tenth simulated second, and how deep the deepest body is in a
// static wall (and how many are deeper than 0.01).
package main

import (
	"flag"
	"fmt"
	"log"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"time"

	"github.com/fixstep/fixstep/physics"
	"github.com/jakecoffman/cp/v2"
)

const dt = 1.0 / 60

// sim is one engine behind the scenes' common calls.
type sim interface {
	name() string
	addStatic(cx, cy, hw, hh float64)
	addBox(x, y, hw, hh, restitution float64)
	addBall(x, y, r, vx, vy float64)
	step()
	state(i int) (x, y, vx, vy float64)
	count() int
}

// fixstep's World.
type fix struct {
	w       physics.World
	ids     []physics.BodyID
	statics [][4]float64
}

func newFix(sleep bool) *fix {
	f := &fix{w: physics.World{Gravity: physics.Vec2{Y: -9.8}}}
	if !sleep {
		f.w.SleepTime = -1
	}
	return f
}
func (f *fix) name() string { return "fixstep" }
func (f *fix) addStatic(cx, cy, hw, hh float64) {
	f.w.Add(physics.Body{Kind: physics.Static, Shape: physics.Box, Pos: physics.Vec2{X: cx, Y: cy}, HalfW: hw, HalfH: hh, Friction: 0.6})
}
func (f *fix) addBox(x, y, hw, hh, e float64) {
	id, _ := f.w.Add(physics.Body{Shape: physics.Box, Pos: physics.Vec2{X: x, Y: y}, HalfW: hw, HalfH: hh, Friction: 0.6, Restitution: e})
	f.ids = append(f.ids, id)
}
func (f *fix) addBall(x, y, r, vx, vy float64) {
	id, _ := f.w.Add(physics.Body{Shape: physics.Circle, Pos: physics.Vec2{X: x, Y: y}, Vel: physics.Vec2{X: vx, Y: vy}, Radius: r, Restitution: 0.9})
	f.ids = append(f.ids, id)
}
func (f *fix) step() { f.w.Step(dt) }
func (f *fix) state(i int) (x, y, vx, vy float64) {
	b := f.w.Body(f.ids[i])
	return b.Pos.X, b.Pos.Y, b.Vel.X, b.Vel.Y
}
func (f *fix) count() int { return len(f.ids) }

// Chipmunk2D's Space.
type chip struct {
	s      *cp.Space
	bodies []*cp.Body
}

func newChip(sleep bool) *chip {
	c := &chip{s: cp.NewSpace()}
	c.s.SetGravity(cp.Vector{X: 0, Y: -9.8})
	c.s.Iterations = 10
	if sleep {
		c.s.SleepTimeThreshold = 0.5
	}
	return c
}
func (c *chip) name() string { return "chipmunk" }
func (c *chip) addStatic(cx, cy, hw, hh float64) {
	sh := c.s.AddShape(cp.NewBox2(c.s.StaticBody, cp.BB{L: cx - hw, B: cy - hh, R: cx + hw, T: cy + hh}, 0))
	sh.SetFriction(0.6)
}
func (c *chip) addBox(x, y, hw, hh, e float64) {
	b := c.s.AddBody(cp.NewBody(1, math.Inf(1)))
	b.SetPosition(cp.Vector{X: x, Y: y})
	sh := c.s.AddShape(cp.NewBox(b, 2*hw, 2*hh, 0))
	sh.SetFriction(0.6)
	sh.SetElasticity(e)
	c.bodies = append(c.bodies, b)
}
func (c *chip) addBall(x, y, r, vx, vy float64) {
	b := c.s.AddBody(cp.NewBody(1, math.Inf(1)))
	b.SetPosition(cp.Vector{X: x, Y: y})
	b.SetVelocity(vx, vy)
	sh := c.s.AddShape(cp.NewCircle(b, r, cp.Vector{}))
	sh.SetElasticity(0.9)
	c.bodies = append(c.bodies, b)
}
func (c *chip) step() { c.s.Step(dt) }
func (c *chip) state(i int) (x, y, vx, vy float64) {
	p, v := c.bodies[i].Position(), c.bodies[i].Velocity()
	return p.X, p.Y, v.X, v.Y
}
func (c *chip) count() int { return len(c.bodies) }

// A scene builds itself into a sim and returns its static boxes (for the
// penetration measure) and how many steps to settle before measuring.
type scene struct {
	name   string
	build  func(s sim) [][4]float64
	settle int
	hw, hh float64 // the boxes' half size, for the penetration measure
}

func wallsAround(s sim, left, right float64) [][4]float64 {
	walls := [][4]float64{
		{(left + right) / 2, -10, (right-left)/2 + 20, 10}, // floor, 10 thick
		{left - 10, 50, 10, 60},                            // left wall
		{right + 10, 50, 10, 60},                           // right wall
	}
	for _, w := range walls {
		s.addStatic(w[0], w[1], w[2], w[3])
	}
	return walls
}

var scenes = []scene{
	{name: "stack-10", settle: 600, hw: 0.5, hh: 0.5, build: func(s sim) [][4]float64 {
		w := wallsAround(s, -10, 10)
		for i := range 10 {
			s.addBox(0, 0.5+float64(i), 0.5, 0.5, 0)
		}
		return w
	}},
	{name: "pyramid-20", settle: 600, hw: 0.5, hh: 0.5, build: func(s sim) [][4]float64 {
		w := wallsAround(s, -20, 20)
		for row := range 20 {
			n := 20 - row
			for i := range n {
				s.addBox(float64(i)-float64(n-1)/2, 0.5+float64(row), 0.5, 0.5, 0)
			}
		}
		return w
	}},
	pile(1000), pile(10000),
	{name: "balls-1000", settle: 120, hw: 0.3, hh: 0.3, build: func(s sim) [][4]float64 {
		w := wallsAround(s, 0, 60)
		s.addStatic(30, 70, 50, 10) // a lid
		r := rand.New(rand.NewPCG(7, 8))
		for range 1000 {
			s.addBall(1+r.Float64()*58, 1+r.Float64()*55, 0.3, r.Float64()*10-5, r.Float64()*10-5)
		}
		return w
	}},
}

// pile drops n boxes of half size 0.25 in columns between thick walls; they
// fall a little and settle into a heap that presses on the walls.
func pile(n int) scene {
	return scene{name: fmt.Sprintf("pile-%d", n), settle: 600, hw: 0.25, hh: 0.25, build: func(s sim) [][4]float64 {
		cols := int(math.Ceil(math.Sqrt(float64(n)) * 1.2))
		width := float64(cols) * 0.52
		w := wallsAround(s, 0, width)
		r := rand.New(rand.NewPCG(uint64(n), 9))
		for i := range n {
			c, row := i%cols, i/cols
			s.addBox(0.26+float64(c)*0.52+r.Float64()*0.01, 0.3+float64(row)*0.56, 0.25, 0.25, 0)
		}
		return w
	}}
}

type result struct {
	msPerStep, allocsPerStep, restSpeed, move10, deepest float64
	deep                                                 int
}

// measure runs a scene: settle, the tenth second watched for movement,
// then steps timed one by one.
func measure(sc scene, s sim, timed int) result {
	walls := sc.build(s)
	n := s.count()
	// Up to 9 s, then watch the tenth second.
	for range 540 {
		s.step()
	}
	start := make([][2]float64, n)
	for i := range n {
		x, y, _, _ := s.state(i)
		start[i] = [2]float64{x, y}
	}
	var res result
	for range 60 {
		s.step()
		for i := range n {
			x, y, _, _ := s.state(i)
			res.move10 = max(res.move10, math.Hypot(x-start[i][0], y-start[i][1]))
		}
	}
	for range sc.settle - 600 {
		s.step()
	}
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	mallocs := ms.Mallocs
	times := make([]float64, 0, timed)
	for range timed {
		t0 := time.Now()
		s.step()
		times = append(times, float64(time.Since(t0))/1e6)
	}
	runtime.ReadMemStats(&ms)
	res.allocsPerStep = float64(ms.Mallocs-mallocs) / float64(timed)
	slices.Sort(times)
	res.msPerStep = times[len(times)/2]
	for i := range n {
		x, y, vx, vy := s.state(i)
		res.restSpeed += math.Hypot(vx, vy) / float64(n)
		for _, w := range walls {
			ox := sc.hw + w[2] - math.Abs(x-w[0])
			oy := sc.hh + w[3] - math.Abs(y-w[1])
			if d := min(ox, oy); d > 0 {
				res.deepest = max(res.deepest, d)
				if d > 0.01 {
					res.deep++
				}
			}
		}
	}
	return res
}

func main() {
	rounds := flag.Int("rounds", 1, "rounds, the engines interleaved in each")
	timed := flag.Int("steps", 120, "steps timed per run")
	only := flag.String("scene", "", "run only this scene")
	flag.Parse()
	if *rounds < 1 || *timed < 1 {
		log.Fatal("physics-chipmunk: -rounds and -steps must be positive")
	}
	for round := 1; round <= *rounds; round++ {
		for _, sc := range scenes {
			if *only != "" && sc.name != *only {
				continue
			}
			for _, sleep := range []bool{false, true} {
				for _, s := range []sim{newFix(sleep), newChip(sleep)} {
					r := measure(sc, s, *timed)
					fmt.Printf("RESULT round=%d engine=%s scene=%s sleep=%v ms_per_step=%.3f allocs_per_step=%.0f rest_speed=%.4f move_10th_s=%.4f deepest_in_wall=%.4f deeper_than_0.01=%d\n",
						round, s.name(), sc.name, sleep, r.msPerStep, r.allocsPerStep, r.restSpeed, r.move10, r.deepest, r.deep)
				}
			}
		}
	}
}
