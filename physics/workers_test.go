package physics

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
)

// workerCounts are the pools every world is stepped on beside the one
// stepped alone: one of each size the issue names, and more workers than
// this machine has cores.
var workerCounts = []int{2, 3, 4, 8, 16, 32}

// TestWorkersSameWorld: a world stepped on a pool of any size is the same,
// bit for bit, as the world stepped alone, after every step: upright and
// turning piles, a pyramid, a machine of every feature (polygons, a
// sweeping kinematic paddle, a spinning one, fast bullets through thin
// walls, damping, bouncing balls, a raft carrying more bodies than there
// are colours), a pile-up past the contact limit, and bodies removed,
// faulted and added from callbacks; and the pools did take blocks.
func TestWorkersSameWorld(t *testing.T) {
	steps := 60
	if raceEnabled {
		steps = 8 // the race detector is 10 to 20 times slower; it checks the blocks' memory, not the physics
	}
	for _, sc := range sameScenes {
		t.Run(sc.name, func(t *testing.T) {
			ref := sc.build(t)
			start := ref.Snapshot(nil)
			worlds := make([]*World, len(workerCounts))
			for k, n := range workerCounts {
				worlds[k] = &World{Workers: NewWorkers(n)}
				worlds[k].Workers.MinBodies = 1 // the small scenes too
				defer worlds[k].Workers.Close()
				if err := worlds[k].Restore(start); err != nil {
					t.Fatal(err)
				}
				if sc.listen != nil {
					sc.listen(worlds[k])
				}
			}
			var want, got []byte
			for step := range steps {
				sc.tick(ref, step)
				ref.Step(dt)
				want = ref.Snapshot(want[:0])
				for k, w := range worlds {
					sc.tick(w, step)
					w.Step(dt)
					if got = w.Snapshot(got[:0]); !bytes.Equal(got, want) || w.Hash() != ref.Hash() {
						t.Fatalf("%d workers, step %d: another world than one worker's: %s", workerCounts[k], step+1, Diff(want, got))
					}
				}
			}
			if sc.check != nil {
				sc.check(t, ref)
			}
			taken := uint64(0)
			for _, w := range worlds {
				taken += w.Workers.done.Load()
			}
			if taken == 0 {
				t.Errorf("no worker but the callers took a block in %d steps: the pools were not used", steps)
			}
		})
	}
}

// sameScene is a world for TestWorkersSameWorld: how to build it, what to
// do to it before each step, and what its run must have done.
type sameScene struct {
	name   string
	build  func(testing.TB) *World
	listen func(w *World) // sets the listener of a copy of the world built
	tick   func(w *World, step int)
	check  func(t *testing.T, w *World)
}

var sameScenes = []sameScene{
	{name: "upright pile", build: func(tb testing.TB) *World { return arenaWith(tb, 1200, true) }, tick: noTick},
	{name: "turning pile", build: func(tb testing.TB) *World { return arenaWith(tb, 1200, false) }, tick: noTick},
	{name: "pyramid", build: func(tb testing.TB) *World { return pyramidWorld(tb, 40) }, tick: noTick},
	{name: "machine", build: machineWorld, tick: machineTick, check: func(t *testing.T, w *World) {
		if n := w.spans[colours+1] - w.spans[colours]; n < minParallel && !w.alone && !raceEnabled { // (the race run's 8 steps: the balls still land)
			t.Errorf("the raft left %d constraints without a colour, want a stage's worth (%d)", n, minParallel)
		}
	}},
	{name: "pile-up", build: pileUpWorld, tick: noTick, check: func(t *testing.T, w *World) {
		if w.Overloads() == 0 {
			t.Error("the pile-up never reached the contact limit")
		}
	}},
	{name: "churn", build: churnWorld, listen: listenChurn, tick: churnTick, check: func(t *testing.T, w *World) {
		if w.Faults() == 0 {
			t.Error("no body was taken out as a fault")
		}
	}},
}

func noTick(*World, int) {}

// pyramidWorld is a pyramid of rows rows of unit boxes, as Box2D v3's
// large_pyramid (rows 100), on a ground.
func pyramidWorld(tb testing.TB, rows int) *World {
	w := &World{Gravity: Vec2{0, -10}, SleepTime: -1}
	mustAdd(tb, w, Body{Kind: Static, Shape: Box, Pos: Vec2{0, -1}, HalfW: float64(rows), HalfH: 1, Friction: 0.6})
	for i := range rows {
		y := float64(2*i+1) * 0.5
		for j := i; j < rows; j++ {
			x := float64(i+1)*0.5 + float64(j-i) - 0.5*float64(rows)
			mustAdd(tb, w, Body{Shape: Box, Pos: Vec2{x, y}, HalfW: 0.5, HalfH: 0.5, Friction: 0.6})
		}
	}
	return w
}

// machineWorld has every feature the step's blocks must keep in order: a
// raft (a dynamic plank with 300 balls on it: more constraints on one body
// than there are colours), polygons, a kinematic paddle that sweeps and
// one that spins, fast bullets between thin walls, damped bodies, bouncing
// balls. The raft's 200 balls that touch it leave more than a stage's
// worth of constraints without a colour.
func machineWorld(tb testing.TB) *World {
	w := &World{Gravity: Vec2{0, -9.8}}
	for _, b := range []Body{
		{Pos: Vec2{0, -1}, HalfW: 40, HalfH: 1}, {Pos: Vec2{-41, 20}, HalfW: 1, HalfH: 22},
		{Pos: Vec2{41, 20}, HalfW: 1, HalfH: 22}, {Pos: Vec2{20, 12}, HalfW: 8, HalfH: 0.02, Angle: 0.2},
	} {
		b.Kind, b.Shape, b.Friction, b.Restitution = Static, Box, 0.5, 0.3
		mustAdd(tb, w, b)
	}
	mustAdd(tb, w, Body{Kind: Kinematic, Shape: Box, Sweep: true, Pos: Vec2{-20, 3}, HalfW: 3, HalfH: 0.3, Vel: Vec2{6, 0}})
	mustAdd(tb, w, Body{Kind: Kinematic, Shape: Box, Pos: Vec2{0, 6}, HalfW: 3, HalfH: 0.2, AngVel: 2})
	mustAdd(tb, w, Body{Shape: Box, Pos: Vec2{-14, 1}, HalfW: 25, HalfH: 0.25, Mass: 40, Friction: 0.6})
	for i := range 300 {
		mustAdd(tb, w, Body{Shape: Circle, Pos: Vec2{-38.9 + float64(i%200)*0.24, 1.38 + float64(i/200)*0.24}, Radius: 0.12, Mass: 0.5, Friction: 0.3})
	}
	hull, err := NewHull(Vec2{-0.4, -0.3}, Vec2{0.4, -0.3}, Vec2{0.5, 0.1}, Vec2{0, 0.5}, Vec2{-0.5, 0.1})
	if err != nil {
		tb.Fatal(err)
	}
	r := rand.New(rand.NewPCG(7, 8))
	for i := range 600 {
		b := Body{Shape: Shape(i % 3), Radius: 0.3, HalfW: 0.35, HalfH: 0.25, Hull: hull,
			Pos:   Vec2{float64(60*r.Float64()) - 30, 4 + float64(30*r.Float64())},
			Angle: float64(6 * r.Float64()), Restitution: float64(0.9 * r.Float64()), Friction: 0.4,
			LinearDamping: float64(i%4) * 0.2, AngularDamping: float64(i%3) * 0.3, FixedRotation: i%11 == 0}
		if i%50 == 0 { // a bullet
			b.Shape, b.Vel = Circle, Vec2{float64(r.IntN(2)*2-1) * 400, 50}
		}
		mustAdd(tb, w, b)
	}
	return w
}

// machineTick turns the sweeping paddle back at the walls.
func machineTick(w *World, step int) {
	p := w.Body(w.ID(4))
	if p.Pos.X > 30 || p.Pos.X < -30 {
		p.Vel.X = -p.Vel.X
	}
}

// pileUpWorld drops 300 boxes onto one point: more pairs touch than the
// contact limit lets the step solve.
func pileUpWorld(tb testing.TB) *World {
	w := &World{Gravity: Vec2{0, -9.8}}
	mustAdd(tb, w, Body{Kind: Static, Shape: Box, Pos: Vec2{0, -1}, HalfW: 10, HalfH: 1})
	for i := range 300 {
		mustAdd(tb, w, Body{Shape: Shape(i % 2), Pos: Vec2{float64(i%3) * 0.01, 0.5}, Radius: 0.5, HalfW: 0.5, HalfH: 0.5})
	}
	return w
}

// churnWorld is a turning pile whose listener removes a body at each
// contact it begins, now and then, and adds one back.
func churnWorld(tb testing.TB) *World {
	w := arenaWith(tb, 1000, false)
	listenChurn(w)
	return w
}

// listenChurn sets w's listener to a churnListener.
func listenChurn(w *World) { w.Listener = &churnListener{w: w} }

// churnTick makes a body's velocity NaN now and then, which the step
// takes out as a fault.
func churnTick(w *World, step int) {
	if step%7 == 3 {
		i := 10 + step*13%900
		if w.Alive(w.ID(i)) {
			w.Body(w.ID(i)).Vel.X = math.NaN()
		}
	}
}

// churnListener removes the B body of every 40th contact that begins, and adds
// a ball for each.
type churnListener struct {
	w     *World
	begun int
}

func (r *churnListener) BeginContact(c *Contact) {
	if r.begun++; r.begun%40 == 0 && r.w.Alive(c.B) && r.w.Body(c.B).Kind == Dynamic {
		r.w.Remove(c.B)
		r.w.Add(Body{Shape: Circle, Radius: 0.25, Pos: Vec2{0, 20}})
	}
}
func (r *churnListener) EndContact(a, b BodyID) {}

// TestWorkersIdle: a pool whose workers never start (none is scheduled)
// does not hold a step up: the caller takes every block, and the world is
// the one stepped alone.
func TestWorkersIdle(t *testing.T) {
	ref, w := arenaWith(t, 600, false), arenaWith(t, 600, false)
	w.Workers = &Workers{n: 4, MinBodies: 1, wake: make([]chan struct{}, 4), quit: make(chan struct{})} // no goroutines
	w.Workers.word.Store(stepEnd)
	for i := range w.Workers.wake {
		w.Workers.wake[i] = make(chan struct{}, 1)
	}
	for range 30 {
		ref.Step(dt)
		w.Step(dt)
	}
	if !bytes.Equal(ref.Snapshot(nil), w.Snapshot(nil)) {
		t.Fatalf("a pool of idle workers made another world: %s", Diff(ref.Snapshot(nil), w.Snapshot(nil)))
	}
	if w.Workers.target != 0 || w.Workers.done.Load() != 0 {
		t.Errorf("the caller waited for %d blocks of idle workers", w.Workers.target)
	}
}

// TestWorkersShared: one pool serves worlds stepped at once from several
// goroutines (a world that finds it busy steps alone), each the same as
// the world stepped alone.
func TestWorkersShared(t *testing.T) {
	steps := 40
	if raceEnabled {
		steps = 8
	}
	ref := arenaWith(t, 800, false)
	start := ref.Snapshot(nil)
	for range steps {
		ref.Step(dt)
	}
	want := ref.Snapshot(nil)
	p := NewWorkers(3)
	p.MinBodies = 1
	defer p.Close()
	var wg sync.WaitGroup
	got := make([][]byte, 4)
	go1 := make(chan struct{})
	var busy atomic.Int32 // steps under way: more than one at times, or the test tests nothing
	var overlap atomic.Bool
	for k := range got {
		w := &World{Workers: p}
		if err := w.Restore(start); err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			<-go1 // all at once
			for range steps {
				if busy.Add(1) > 1 {
					overlap.Store(true)
				}
				w.Step(dt)
				busy.Add(-1)
			}
			got[k] = w.Snapshot(nil)
		})
	}
	close(go1)
	wg.Wait()
	if !overlap.Load() {
		t.Error("no two steps ran at once: the pool was never shared")
	}
	for k, g := range got {
		if !bytes.Equal(g, want) {
			t.Errorf("world %d of 4 sharing a pool: %s", k, Diff(want, g))
		}
	}
}

// TestWorkersClose: Close stops the pool (twice is fine), and a world on a
// closed pool steps alone, to the same world; a nil pool is one worker.
func TestWorkersClose(t *testing.T) {
	ref, w := arenaWith(t, 300, false), arenaWith(t, 300, false)
	w.Workers = NewWorkers(4)
	w.Workers.MinBodies = 1
	for range 10 {
		ref.Step(dt)
		w.Step(dt)
	}
	w.Workers.Close()
	w.Workers.Close()
	for range 10 {
		ref.Step(dt)
		w.Step(dt)
	}
	if !bytes.Equal(ref.Snapshot(nil), w.Snapshot(nil)) {
		t.Fatalf("after Close: %s", Diff(ref.Snapshot(nil), w.Snapshot(nil)))
	}
	var none *Workers
	none.Close()
	if none.Len() != 1 || NewWorkers(0).Len() != 1 || w.Workers.Len() != 4 {
		t.Errorf("Len: nil %d, NewWorkers(0) %d, NewWorkers(4) %d; want 1, 1, 4", none.Len(), NewWorkers(0).Len(), w.Workers.Len())
	}
}

// TestWorkersSmallWorldAlone: a world of fewer movers than the pool's
// MinBodies steps on the caller alone, without taking the pool; one of as
// many takes it.
func TestWorkersSmallWorldAlone(t *testing.T) {
	p := NewWorkers(2)
	defer p.Close()
	w := arenaWith(t, DefaultMinBodies-1, false)
	w.Workers = p
	w.Step(dt)
	if p.seq != 0 {
		t.Errorf("a world of %d movers took the pool for %d stages, want none below %d", len(w.movers), p.seq, DefaultMinBodies)
	}
	w = arenaWith(t, DefaultMinBodies, false)
	w.Workers = p
	w.Step(dt)
	if p.seq == 0 {
		t.Errorf("a world of %d movers stepped alone", len(w.movers))
	}
}

// TestWorkersStepAllocs: a step on a pool allocates nothing and starts no
// goroutine.
func TestWorkersStepAllocs(t *testing.T) {
	w := arenaWith(t, 1000, false)
	w.Workers = NewWorkers(4)
	defer w.Workers.Close()
	for range 5 {
		w.Step(dt)
	}
	if n := testing.AllocsPerRun(20, func() { w.Step(dt) }); n != 0 {
		t.Errorf("a step of 1000 bodies on 4 workers allocates %v times, want 0", n)
	}
}

// BenchmarkWorkersStage is the pool's cost for one stage of empty blocks:
// publishing it, the claims, and waiting for the last block (the barrier),
// on pools of 1 (the caller alone) to 4; a step of the large pyramid runs
// about 150 stages.
func BenchmarkWorkersStage(b *testing.B) {
	for _, n := range []int{1, 2, 4} {
		for _, blocks := range []int{2, 16} {
			b.Run(fmt.Sprintf("workers=%d/blocks=%d", n, blocks), func(b *testing.B) {
				p := NewWorkers(n)
				defer p.Close()
				w := &World{Workers: p}
				w.fitScratch()
				if n > 1 && !p.begin(w) {
					b.Fatal("the pool is busy")
				}
				for b.Loop() {
					if n > 1 {
						p.run(w, stageNone, blocks)
					} else {
						for i := range blocks {
							w.runBlock(stageNone, i, 0)
						}
					}
				}
				if n > 1 {
					p.end()
				}
			})
		}
	}
}

// ExampleWorkers steps a world on four workers: the same world as
// stepped alone, bit for bit.
func ExampleWorkers() {
	pool := NewWorkers(4) // the caller and 3 goroutines
	defer pool.Close()

	alone, shared := &World{Gravity: Vec2{0, -10}}, &World{Gravity: Vec2{0, -10}}
	shared.Workers = pool
	for _, w := range []*World{alone, shared} {
		w.Add(Body{Kind: Static, Shape: Box, Pos: Vec2{0, -1}, HalfW: 50, HalfH: 1})
		for i := range 1200 { // at least pool.MinBodies (1,000 by default): a smaller world steps alone
			w.Add(Body{Shape: Box, Pos: Vec2{float64(i%40) - 20, float64(i/40) + 0.5}, HalfW: 0.45, HalfH: 0.45})
		}
		for range 60 {
			w.Step(1.0 / 60)
		}
	}
	fmt.Println(alone.Hash() == shared.Hash())
	// Output: true
}
