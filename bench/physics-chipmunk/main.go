// Command physics-chipmunk runs fixstep's physics and Chipmunk2D (the Go
// port, github.com/jakecoffman/cp/v2 v2.1.0) side by side on the same
// scenes: a stack of 10 boxes, a 20-row pyramid, resting piles of 1,000 and
// 10,000 boxes between 10-unit-thick walls, and 1,000 bouncing balls, each
// twice: upright (turn=false: fixstep's bodies FixedRotation, Chipmunk's
// moment infinite) and turning (turn=true: each engine's moment of
// inertia for the shape). Every body has mass 1; dt is 1/60 s, gravity
// -9.8; Chipmunk runs its default 10 iterations, fixstep its defaults (8
// velocity and 3 position passes). Then two scenes of their own: Box2D
// v3's large_pyramid benchmark (100 rows, 5,050 turning boxes exactly
// touching, friction 0.6, gravity -10, no sleeping, 500 steps: the time
// per step and how far its top box ends below its ideal height; fixstep
// also with 4 sub-steps, engine=fixstep-substeps4), and a
// ball released on a 30° ramp (friction 0.6): how much its contact point
// slides, |v - ω·r|/|v|, over its second second. It is a module of its
// own, so fixstep itself does not depend on Chipmunk:
//
//	cd bench/physics-chipmunk && go run . -rounds 3
//
// Each result line gives, per engine and scene: the median step time over
// the measured steps, heap allocations per step, the mean speed of the
// bodies at the end (resting speed) and the speed of the last body added
// (the stack's top), the largest movement of any body during the tenth
// simulated second, and how deep the deepest body is in a static wall (and
// how many are deeper than 0.01), measured with each body's bounding box
// at its angle (exact for a corner in a wall's face).
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
	angle(i int) (angle, spin float64)
	count() int
}

// fixstep's World.
type fix struct {
	w       physics.World
	ids     []physics.BodyID
	statics [][4]float64
	upright bool
}

func newFix(sleep, turn bool) *fix {
	f := &fix{w: physics.World{Gravity: physics.Vec2{Y: -9.8}}, upright: !turn}
	if !sleep {
		f.w.SleepTime = -1
	}
	return f
}
func (f *fix) name() string {
	if f.w.Substeps != 0 {
		return fmt.Sprintf("fixstep-substeps%d", f.w.Substeps)
	}
	return "fixstep"
}
func (f *fix) addStatic(cx, cy, hw, hh float64) {
	f.w.Add(physics.Body{Kind: physics.Static, Shape: physics.Box, Pos: physics.Vec2{X: cx, Y: cy}, HalfW: hw, HalfH: hh, Friction: 0.6})
}
func (f *fix) addBox(x, y, hw, hh, e float64) {
	id, _ := f.w.Add(physics.Body{Shape: physics.Box, Pos: physics.Vec2{X: x, Y: y}, HalfW: hw, HalfH: hh, Friction: 0.6, Restitution: e, FixedRotation: f.upright})
	f.ids = append(f.ids, id)
}
func (f *fix) addBall(x, y, r, vx, vy float64) {
	id, _ := f.w.Add(physics.Body{Shape: physics.Circle, Pos: physics.Vec2{X: x, Y: y}, Vel: physics.Vec2{X: vx, Y: vy}, Radius: r, Restitution: 0.9, FixedRotation: f.upright})
	f.ids = append(f.ids, id)
}
func (f *fix) step() { f.w.Step(dt) }
func (f *fix) state(i int) (x, y, vx, vy float64) {
	b := f.w.Body(f.ids[i])
	return b.Pos.X, b.Pos.Y, b.Vel.X, b.Vel.Y
}
func (f *fix) angle(i int) (angle, spin float64) {
	b := f.w.Body(f.ids[i])
	return b.Angle, b.AngVel
}
func (f *fix) count() int { return len(f.ids) }

// Chipmunk2D's Space.
type chip struct {
	s      *cp.Space
	bodies []*cp.Body
	turn   bool
}

func newChip(sleep, turn bool) *chip {
	c := &chip{s: cp.NewSpace(), turn: turn}
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
	moment := math.Inf(1)
	if c.turn {
		moment = cp.MomentForBox(1, 2*hw, 2*hh)
	}
	b := c.s.AddBody(cp.NewBody(1, moment))
	b.SetPosition(cp.Vector{X: x, Y: y})
	sh := c.s.AddShape(cp.NewBox(b, 2*hw, 2*hh, 0))
	sh.SetFriction(0.6)
	sh.SetElasticity(e)
	c.bodies = append(c.bodies, b)
}
func (c *chip) addBall(x, y, r, vx, vy float64) {
	moment := math.Inf(1)
	if c.turn {
		moment = cp.MomentForCircle(1, 0, r, cp.Vector{})
	}
	b := c.s.AddBody(cp.NewBody(1, moment))
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
func (c *chip) angle(i int) (angle, spin float64) {
	return c.bodies[i].Angle(), c.bodies[i].AngularVelocity()
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
	msPerStep, allocsPerStep, restSpeed, lastSpeed, move10, deepest float64
	deep                                                            int
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
	res.msPerStep, res.allocsPerStep = timeSteps(s, timed)
	for i := range n {
		x, y, vx, vy := s.state(i)
		res.restSpeed += math.Hypot(vx, vy) / float64(n)
		res.lastSpeed = math.Hypot(vx, vy)
		a, _ := s.angle(i)
		c, sn := math.Abs(math.Cos(a)), math.Abs(math.Sin(a))
		hw, hh := c*sc.hw+sn*sc.hh, sn*sc.hw+c*sc.hh // the bounding box at its angle
		for _, w := range walls {
			ox := hw + w[2] - math.Abs(x-w[0])
			oy := hh + w[3] - math.Abs(y-w[1])
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

// largePyramid is Box2D v3's benchmark scene (benchmark/large_pyramid.c):
// 100 rows of boxes of half size 0.5 exactly touching on a ground, friction
// 0.6, gravity -10, no sleeping. It returns the median step time over
// steps, the allocations per step, and how far the top box ends below its
// ideal height (its centre at 99.5 above the ground).
func largePyramid(s sim, steps int) (ms, allocs, sink float64) {
	s.addStatic(0, -1, 100, 1)
	const rows = 100
	for row := range rows {
		n := rows - row
		for i := range n {
			s.addBox(float64(i)-float64(n-1)/2, 0.5+float64(row), 0.5, 0.5, 0)
		}
	}
	ms, allocs = timeSteps(s, steps)
	_, y, _, _ := s.state(s.count() - 1)
	return ms, allocs, (rows - 0.5) - y
}

// timeSteps runs n steps of s and returns the median step time in ms and
// the allocations per step.
func timeSteps(s sim, n int) (ms, allocs float64) {
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	mallocs := m.Mallocs
	times := make([]float64, 0, n)
	for range n {
		t0 := time.Now()
		s.step()
		times = append(times, float64(time.Since(t0))/1e6)
	}
	runtime.ReadMemStats(&m)
	slices.Sort(times)
	return times[len(times)/2], float64(m.Mallocs-mallocs) / float64(n)
}

func main() {
	rounds := flag.Int("rounds", 1, "rounds, the engines interleaved in each")
	timed := flag.Int("steps", 120, "steps timed per run")
	only := flag.String("scene", "", "run only this scene")
	large := flag.Bool("large", true, "run Box2D v3's large_pyramid (100 rows, 500 steps; Chipmunk takes about a minute)")
	flag.Parse()
	if *rounds < 1 || *timed < 1 {
		log.Fatal("physics-chipmunk: -rounds and -steps must be positive")
	}
	for round := 1; round <= *rounds; round++ {
		for _, sc := range scenes {
			if *only != "" && sc.name != *only {
				continue
			}
			for _, turn := range []bool{false, true} {
				for _, sleep := range []bool{false, true} {
					for _, s := range []sim{newFix(sleep, turn), newChip(sleep, turn)} {
						r := measure(sc, s, *timed)
						fmt.Printf("RESULT round=%d engine=%s scene=%s turn=%v sleep=%v ms_per_step=%.3f allocs_per_step=%.0f rest_speed=%.4f last_speed=%.4f move_10th_s=%.4f deepest_in_wall=%.4f deeper_than_0.01=%d\n",
							round, s.name(), sc.name, turn, sleep, r.msPerStep, r.allocsPerStep, r.restSpeed, r.lastSpeed, r.move10, r.deepest, r.deep)
					}
				}
			}
		}
		if *only == "" || *only == "ramp-ball" {
			for _, name := range []string{"fixstep", "chipmunk"} {
				slip, speed := rampRun(name)
				fmt.Printf("RESULT round=%d engine=%s scene=ramp-ball turn=true max_slip_2nd_s=%.5f speed_at_2s=%.4f want_speed=%.4f\n",
					round, name, slip, speed, 9.8*0.5/1.5*2)
			}
		}
		if *large && (*only == "" || *only == "large-pyramid") {
			// fixstep twice: its default 5 sub-steps, and 4, which costs
			// less and leaves its contacts softer (World.Substeps).
			soft := newFix(false, true)
			soft.w.Substeps = 4
			for _, s := range []sim{newFix(false, true), soft, newChip(false, true)} {
				switch s := s.(type) {
				case *fix:
					s.w.Gravity.Y = -10
				case *chip:
					s.s.SetGravity(cp.Vector{Y: -10})
				}
				ms, allocs, sink := largePyramid(s, 500)
				fmt.Printf("RESULT round=%d engine=%s scene=large-pyramid turn=true sleep=false ms_per_step=%.3f allocs_per_step=%.0f top_sink_500=%.4f\n",
					round, s.name(), ms, allocs, sink)
			}
		}
	}
}

// rampRun runs the ramp ball in one engine: a static box of half size
// 20×0.5 turned by -30°, the ball dropped onto it from just above.
func rampRun(engine string) (slip, speed float64) {
	const r = 0.5
	sn, cs := math.Sin(-math.Pi/6), math.Cos(-math.Pi/6)
	down, normal := [2]float64{cs, sn}, [2]float64{-sn, cs}
	x, y := -8*down[0]+(0.5+r)*normal[0], -8*down[1]+(0.5+r)*normal[1]
	var stepFn func()
	var state func() (vx, vy, w float64)
	switch engine {
	case "fixstep":
		w := &physics.World{Gravity: physics.Vec2{Y: -9.8}, SleepTime: -1}
		w.Add(physics.Body{Kind: physics.Static, Shape: physics.Box, HalfW: 20, HalfH: 0.5, Angle: -math.Pi / 6, Friction: 0.6})
		id, _ := w.Add(physics.Body{Shape: physics.Circle, Radius: r, Pos: physics.Vec2{X: x, Y: y}, Friction: 0.6})
		stepFn = func() { w.Step(dt) }
		state = func() (float64, float64, float64) { b := w.Body(id); return b.Vel.X, b.Vel.Y, b.AngVel }
	default:
		s := cp.NewSpace()
		s.SetGravity(cp.Vector{Y: -9.8})
		s.Iterations = 10
		ground := cp.NewBody(0, 0)
		ground.SetType(cp.BODY_STATIC)
		ground.SetAngle(-math.Pi / 6)
		s.AddBody(ground)
		gs := s.AddShape(cp.NewBox(ground, 40, 1, 0))
		gs.SetFriction(0.6)
		b := s.AddBody(cp.NewBody(1, cp.MomentForCircle(1, 0, r, cp.Vector{})))
		b.SetPosition(cp.Vector{X: x, Y: y})
		bs := s.AddShape(cp.NewCircle(b, r, cp.Vector{}))
		bs.SetFriction(0.6)
		stepFn = func() { s.Step(dt) }
		state = func() (float64, float64, float64) { v := b.Velocity(); return v.X, v.Y, b.AngularVelocity() }
	}
	for tick := range 120 {
		stepFn()
		vx, vy, w := state()
		v := vx*down[0] + vy*down[1]
		if tick >= 60 {
			slip = max(slip, math.Abs(v+w*r)/math.Abs(v))
		}
		speed = v
	}
	return slip, speed
}
