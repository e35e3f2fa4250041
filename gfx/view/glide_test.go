package view

import (
	"math"
	"testing"
	"time"

	"github.com/fixstep/fixstep/engine"
)

// glideStep is one frame of a scripted series: the frame, whether the
// game's Load ran before it, where the simulation puts the thing and where
// it must be drawn.
type glideStep struct {
	ticks   int
	alpha   float64
	correct bool
	x, want float64
}

// runGlide draws a thing moving along x at speed units a tick, 40 frames
// a second.
func runGlide(t *testing.T, g *Glide, speed float64, steps []glideStep) {
	t.Helper()
	for i, s := range steps {
		if s.correct {
			g.Correct()
		}
		g.Frame(engine.Frame{Elapsed: 25 * time.Millisecond, Ticks: s.ticks, Alpha: s.alpha})
		p := g.At(3, Pose{X: s.x, Y: 1}, Pose{X: speed})
		if p != (Pose{X: s.want, Y: 1}) {
			t.Errorf("frame %d: simulation at x %v: drawn at %+v, want x %v, y 1, angle 0", i+1, s.x, p, s.want)
		}
	}
}

// TestGlideSnapBetweenTicks: a body moving 2 units a tick, drawn at
// fractions of ticks, is snapped 1 unit back; it is drawn where its motion
// was taking it, then the unit glides out as (1 − t/100ms)², frame by frame.
func TestGlideSnapBetweenTicks(t *testing.T) {
	var g Glide
	runGlide(t, &g, 2, []glideStep{
		{ticks: 1, alpha: 0.5, x: 3, want: 3},                     // tick 1.5
		{ticks: 0, alpha: 0.75, x: 3.5, want: 3.5},                // 1.75: 2 a tick
		{ticks: 1, alpha: 0.25, x: 4.5, want: 4.5},                // 2.25
		{ticks: 1, alpha: 0.75, correct: true, x: 6.5, want: 7.5}, // 3.75: 7.5 snapped to 6.5
		{ticks: 1, alpha: 0, x: 7, want: 7.5625},                  // 4: 1·(3/4)²
		{ticks: 0, alpha: 0.5, x: 8, want: 8.25},                  // (1/2)²
		{ticks: 1, alpha: 0, x: 9, want: 9.0625},                  // (1/4)²
		{ticks: 0, alpha: 0.5, x: 10, want: 10},                   // 100 ms: gone
		{ticks: 1, alpha: 0, x: 11, want: 11},
	})
}

// TestGlideStacks: a second correction while the first glides adds to what
// is left of it.
func TestGlideStacks(t *testing.T) {
	var g Glide
	runGlide(t, &g, 1, []glideStep{
		{ticks: 1, x: 0, want: 0},
		{ticks: 1, x: 1, want: 1},
		{ticks: 1, x: 2, want: 2},
		{ticks: 1, correct: true, x: 2.5, want: 3},     // 0.5 back
		{ticks: 1, correct: true, x: 3, want: 3.78125}, // 0.5·(3/4)² + 0.5 more, from 3.5
		{ticks: 1, x: 4, want: 4 + 0.78125*0.5625},     // the sum, 25 ms on
		{ticks: 1, x: 5, want: 5 + 0.78125*0.25},
		{ticks: 1, x: 6, want: 6 + 0.78125*0.0625},
		{ticks: 1, x: 7, want: 7},
	})
}

// TestGlideDuration: Duration sets the glide's length.
func TestGlideDuration(t *testing.T) {
	g := Glide{Duration: 50 * time.Millisecond}
	runGlide(t, &g, 1, []glideStep{
		{ticks: 1, x: 0, want: 0},
		{ticks: 1, x: 1, want: 1},
		{ticks: 1, correct: true, x: 4, want: 2}, // 2 ahead
		{ticks: 1, x: 5, want: 4.5},              // -2·(1/2)²
		{ticks: 1, x: 6, want: 6},
	})
}

// TestGlideOnlyCorrections: without Correct, every jump is the game's own
// (a teleport, a respawn) and is drawn at once, exactly as given.
func TestGlideOnlyCorrections(t *testing.T) {
	var g Glide
	runGlide(t, &g, 1, []glideStep{
		{ticks: 1, x: 0, want: 0},
		{ticks: 1, x: 1, want: 1},
		{ticks: 1, x: 50, want: 50},
		{ticks: 1, x: -3, want: -3},
		{ticks: 1, alpha: 0.5, x: -2.5, want: -2.5},
	})
}

// TestGlideMaxGlide: an offset longer than MaxGlide snaps; one as long
// glides.
func TestGlideMaxGlide(t *testing.T) {
	g := Glide{MaxGlide: 0.5}
	runGlide(t, &g, 1, []glideStep{
		{ticks: 1, x: 0, want: 0},
		{ticks: 1, x: 1, want: 1},
		{ticks: 1, correct: true, x: 1, want: 1},   // 1 back: snaps
		{ticks: 1, x: 2, want: 2},                  // no glide left over
		{ticks: 1, correct: true, x: 2.5, want: 3}, // 0.5 back: glides
		{ticks: 1, x: 3.5, want: 3.5 + 0.5*0.5625}, // and goes on gliding
		{ticks: 1, correct: true, x: 6, want: 6},   // 1.5 ahead, less 0.5·0.25 left: snaps
	})
}

// TestGlideForgets: a key Forgotten, or not drawn in the previous frame,
// starts afresh and is drawn as given even after a correction.
func TestGlideForgets(t *testing.T) {
	var g Glide
	frame := engine.Frame{Elapsed: 25 * time.Millisecond, Ticks: 1}
	draw := func(key int, x float64) float64 {
		return g.At(key, Pose{X: x}, Pose{X: 1}).X
	}
	for _, x := range []float64{0, 1, 2} {
		g.Frame(frame)
		draw(1, x)
		draw(2, x)
		draw(3, x)
	}
	g.Frame(frame) // key 2 is not drawn in this frame
	draw(1, 3)
	draw(3, 3)
	g.Forget(1)
	g.Correct()
	g.Frame(frame)
	if got := draw(1, 10); got != 10 {
		t.Errorf("forgotten key drawn at %v, want 10", got)
	}
	if got := draw(2, 10); got != 10 {
		t.Errorf("key not drawn last frame drawn at %v, want 10", got)
	}
	if got := draw(3, 10); got != 4 {
		t.Errorf("key drawn throughout drawn at %v, want 4 (3 plus its motion)", got)
	}
	if got := draw(3, 10); got != 4 {
		t.Errorf("key drawn twice in a frame drawn at %v the second time, want 4 again", got)
	}
}

// TestGlideCorrectedEveryFrame: a Correct before every frame (a sync test
// loads every frame) with nothing corrected draws a steady body exactly as
// given, and an accelerating one within a bounded lag, because each
// frame's motion is the game's, not one from before the corrections.
func TestGlideCorrectedEveryFrame(t *testing.T) {
	var g Glide
	frame := engine.Frame{Elapsed: 25 * time.Millisecond, Ticks: 1}
	// Frame n: x = n(n+1)/2, moved n in its last tick; y = 3n, moved 3.
	want := []float64{0, 0, 1.4375, 4.12109375}
	for n := range 200 {
		g.Correct()
		g.Frame(frame)
		x := float64(n * (n + 1) / 2)
		p := g.At(0, Pose{X: x, Y: float64(3 * n)}, Pose{X: float64(n), Y: 3})
		if p.Y != float64(3*n) || p.Angle != 0 {
			t.Fatalf("frame %d: steady y %v, angle 0, drawn at %v, angle %v", n, 3*n, p.Y, p.Angle)
		}
		if n < len(want) && p.X != want[n] {
			t.Errorf("frame %d: x %v drawn at %v, want %v", n, x, p.X, want[n])
		}
		// A lag of a tick's acceleration a frame, the sum shrunk by 9/16
		// a frame: at most 1/(1 − 9/16) = 16/7, to rounding.
		if lag := x - p.X; lag < 0 || lag > 16.0/7+1e-9 {
			t.Fatalf("frame %d: x %v drawn at %v, %v behind, want at most 16/7", n, x, p.X, lag)
		}
	}
}

// TestGlideAngle: an angle's correction is taken the shorter way round,
// across ±π, and glides like a position.
func TestGlideAngle(t *testing.T) {
	var g Glide
	frame := engine.Frame{Elapsed: 25 * time.Millisecond, Ticks: 1}
	turn := Pose{Angle: 0.5} // half a radian a tick
	for _, a := range []float64{math.Pi - 1, math.Pi - 0.5} {
		g.Frame(frame)
		g.At(0, Pose{Angle: a}, turn)
	}
	// Corrected a quarter turn ahead of π, given wrapped to near -π.
	g.Correct()
	g.Frame(frame)
	got := g.At(0, Pose{Angle: -math.Pi + 0.25}, turn).Angle
	if d := math.Remainder(got-math.Pi, 2*math.Pi); math.Abs(d) > 1e-12 {
		t.Errorf("corrected frame drawn at %v rad, want π (its motion), off by %v", got, d)
	}
	g.Frame(frame)
	got = g.At(0, Pose{Angle: -math.Pi + 0.75}, turn).Angle
	want := -math.Pi + 0.75 - 0.25*0.5625 // the offset, -0.25, shrunk
	if math.Abs(got-want) > 1e-12 {
		t.Errorf("next frame drawn at %v rad, want %v", got, want)
	}
}

// TestGlideKeys: keys outside [0, MaxKeys) are drawn as given and take no
// memory.
func TestGlideKeys(t *testing.T) {
	g := Glide{MaxKeys: 8}
	frame := engine.Frame{Elapsed: 25 * time.Millisecond, Ticks: 1}
	for _, x := range []float64{0, 1, 2} {
		if x == 2 {
			g.Correct()
		}
		g.Frame(frame)
		for _, k := range []int{-1, 8, 1 << 40} {
			if got := g.At(k, Pose{X: x * 5}, Pose{X: 5}).X; got != x*5 {
				t.Errorf("key %d drawn at %v, want %v", k, got, x*5)
			}
		}
	}
	if len(g.slots) != 0 {
		t.Errorf("keys out of range took %d slots, want 0", len(g.slots))
	}
	g.At(7, Pose{}, Pose{})
	if len(g.slots) != 8 {
		t.Errorf("%d slots for key 7 of MaxKeys 8, want 8", len(g.slots))
	}
}

// TestGlideAllocs: Frame and At allocate nothing once the keys are known,
// corrections or not.
func TestGlideAllocs(t *testing.T) {
	var g Glide
	frame := engine.Frame{Elapsed: 16 * time.Millisecond, Ticks: 1}
	x := 0.0
	run := func() {
		x++
		if int(x)%3 == 0 {
			g.Correct()
		}
		g.Frame(frame)
		for k := range 300 {
			g.At(k, Pose{X: x + float64(k%7), Y: x, Angle: x / 8}, Pose{X: 1, Y: 1, Angle: 0.125})
		}
	}
	run()
	if n := testing.AllocsPerRun(100, run); n != 0 {
		t.Errorf("%v allocations per frame of 300 keys, want 0", n)
	}
}

// BenchmarkGlideAt draws 300 things a frame, every third frame corrected.
func BenchmarkGlideAt(b *testing.B) {
	var g Glide
	frame := engine.Frame{Elapsed: 16 * time.Millisecond, Ticks: 1}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if i%3 == 0 {
			g.Correct()
		}
		g.Frame(frame)
		for k := range 300 {
			g.At(k, Pose{X: float64(i + k%7), Y: float64(i)}, Pose{X: 1, Y: 1})
		}
	}
}
