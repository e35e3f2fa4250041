package gfx

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// TestTurnQuarters: no rotation and the quarter turns are exact (the
// float32 nearest π/2 is not, but its cosine rounds to 0), and values
// round to the nearest 1/16384, halves up.
func TestTurnQuarters(t *testing.T) {
	for _, c := range []struct {
		a        float32
		cos, sin int16
	}{
		{0, turnOne, 0}, {float32(math.Pi / 2), 0, turnOne}, {float32(math.Pi), -turnOne, 0},
		{float32(-math.Pi / 2), 0, -turnOne}, {float32(3 * math.Pi / 2), 0, -turnOne}, {float32(2 * math.Pi), turnOne, 0},
	} {
		if cos, sin := turn(c.a); cos != c.cos || sin != c.sin {
			t.Errorf("turn(%v) = %d, %d, want %d, %d", c.a, cos, sin, c.cos, c.sin)
		}
	}
	for _, c := range []struct {
		v    float64
		want int16
	}{{0.5 / turnOne, 1}, {0.49 / turnOne, 0}, {-0.5 / turnOne, 0}, {-0.51 / turnOne, -1}, {-1, -turnOne}, {1, turnOne}, {0.3, 4915}} {
		if got := fixedTurn(c.v); got != c.want {
			t.Errorf("fixedTurn(%v) = %d, want %d", c.v, got, c.want)
		}
		if f := turnFloat(c.want); float64(f) != float64(c.want)/turnOne {
			t.Errorf("turnFloat(%d) = %v, want %v", c.want, f, float64(c.want)/turnOne)
		}
	}
}

// TestTurnMatchesSincos: turn's cosine and sine are math.Sincos's rounded
// to 1/16384, or one unit from them where the value is within a hair of
// a rounding boundary, at 2 million angles from -2π to 2π, around every
// quarter turn, and far out (up to 10^6 radians, then past the fast
// reduction).
func TestTurnMatchesSincos(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	check := func(a float32) {
		t.Helper()
		c, s := turn(a)
		ws, wc := math.Sincos(float64(a))
		for _, v := range []struct {
			name string
			got  int16
			want float64
		}{{"cos", c, wc}, {"sin", s, ws}} {
			exact := v.want * turnOne
			d := math.Abs(float64(v.got) - exact)
			// Rounded: within half a unit; or one unit off where the
			// exact value is within 1e-4 units of a half.
			if d > 0.5 && !(d <= 1 && math.Abs(math.Abs(exact-math.Floor(exact))-0.5) < 1e-4) {
				t.Fatalf("turn(%v): %s %d, want %v·16384 = %.6f", a, v.name, v.got, v.want, exact)
			}
		}
	}
	for range 1 << 21 {
		check(float32(rng.Float64()*4*math.Pi - 2*math.Pi))
	}
	for q := -8; q <= 8; q++ {
		a := float32(float64(q) * math.Pi / 2)
		for _, d := range []float32{0, 1e-7, -1e-7, 1e-4, -1e-4, 0.01, -0.01} {
			check(a + d)
		}
	}
	for range 1 << 16 {
		check(float32((rng.Float64()*2 - 1) * 1.2e6))
	}
	for _, a := range []float32{float32(math.NaN()), float32(math.Inf(1)), 3e38} {
		turn(a) // no panic; math.Sincos's answer
	}
}

// BenchmarkTurn is turn's cost, against math.Sincos's with the same
// rounding, at random angles from -10 to 10 radians; cpu-ns/op is the
// thread's own CPU time (Linux), which a shared machine inflates less
// than ns/op.
func BenchmarkTurn(b *testing.B) {
	angles := make([]float32, 1024)
	rng := rand.New(rand.NewPCG(1, 1))
	for i := range angles {
		angles[i] = float32(rng.Float64()*20 - 10)
	}
	var sink int16
	b.Run("turn", func(b *testing.B) {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		cpu0, ok := threadCPU()
		for i := 0; b.Loop(); i++ {
			c, s := turn(angles[i&1023])
			sink += c ^ s
		}
		reportCPU(b, cpu0, ok, b.N)
	})
	b.Run("Sincos", func(b *testing.B) {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		cpu0, ok := threadCPU()
		for i := 0; b.Loop(); i++ {
			s, c := math.Sincos(float64(angles[i&1023]))
			sink += fixedTurn(c) ^ fixedTurn(s)
		}
		reportCPU(b, cpu0, ok, b.N)
	})
	_ = sink
}
