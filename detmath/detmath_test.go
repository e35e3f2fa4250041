package detmath

import (
	"math"
	"math/rand/v2"
	"testing"
)

// ulps returns how many float64 steps apart a and b are.
func ulps(a, b float64) uint64 {
	if a == b {
		return 0
	}
	ia, ib := int64(math.Float64bits(a)), int64(math.Float64bits(b))
	if ia < 0 {
		ia = math.MinInt64 - ia
	}
	if ib < 0 {
		ib = math.MinInt64 - ib
	}
	if ia > ib {
		return uint64(ia - ib)
	}
	return uint64(ib - ia)
}

// The stated bounds, checked over a million arguments each.
func TestSinCosWithinOneUlp(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var worst uint64
	for i := range 1_000_000 {
		scale := [...]float64{1, 8, 1e3, 1e6, 1 << 29}[i%5]
		x := (r.Float64()*2 - 1) * scale
		s, c := SinCos(x)
		worst = max(worst, ulps(s, math.Sin(x)), ulps(c, math.Cos(x)))
		if Sin(x) != s || Cos(x) != c {
			t.Fatalf("Sin, Cos and SinCos disagree at %v", x)
		}
	}
	if worst > 1 {
		t.Errorf("Sin/Cos: %d ulps from math at worst, want at most 1", worst)
	}
	t.Logf("Sin/Cos for |x| < 2^29: at most %d ulp from math", worst)
}

func TestSinCosLargeArguments(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 100_000 {
		x := (1 << 29) * (1 + r.Float64()*1e6)
		if d := math.Abs(Sin(x) - math.Sin(x)); d > x*0x1p-52 {
			t.Fatalf("Sin(%v) = %v, math %v: off by %v, over |x|·2^-52", x, Sin(x), math.Sin(x), d)
		}
		if d := math.Abs(Cos(x) - math.Cos(x)); d > x*0x1p-52 {
			t.Fatalf("Cos(%v) = %v, math %v: off by %v", x, Cos(x), math.Cos(x), d)
		}
	}
}

func TestAtan2WithinOneUlp(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var worst uint64
	for i := range 1_000_000 {
		scale := [...]float64{1, 1e-3, 1e3, 1e9}[i%4]
		y, x := (r.Float64()*2-1)*scale, (r.Float64()*2 - 1)
		worst = max(worst, ulps(Atan2(y, x), math.Atan2(y, x)), ulps(Atan(y), math.Atan(y)))
	}
	if worst > 1 {
		t.Errorf("Atan2/Atan: %d ulps from math at worst, want at most 1", worst)
	}
	t.Logf("Atan2/Atan: at most %d ulp from math", worst)
}

func TestSpecialCases(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	vals := []float64{0, math.Copysign(0, -1), 1, -1, inf, -inf, nan, math.Pi, -math.Pi / 2}
	same := func(a, b float64) bool {
		return a == b && math.Signbit(a) == math.Signbit(b) || math.IsNaN(a) && math.IsNaN(b)
	}
	for _, y := range vals {
		for _, x := range vals {
			if got, want := Atan2(y, x), math.Atan2(y, x); !same(got, want) {
				t.Errorf("Atan2(%v, %v) = %v, math says %v", y, x, got, want)
			}
		}
		if got, want := Sin(y), math.Sin(y); !same(got, want) && ulps(got, want) > 1 {
			t.Errorf("Sin(%v) = %v, math says %v", y, got, want)
		}
		if got, want := Cos(y), math.Cos(y); !same(got, want) && ulps(got, want) > 1 {
			t.Errorf("Cos(%v) = %v, math says %v", y, got, want)
		}
	}
}

func TestHypotWithinTwoUlps(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var worst uint64
	for i := range 1_000_000 {
		scale := [...]float64{1, 1e-100, 1e100, 1e150}[i%4]
		x, y := (r.Float64()*2-1)*scale, (r.Float64()*2-1)*scale
		worst = max(worst, ulps(Hypot(x, y), math.Hypot(x, y)))
	}
	if worst > 2 {
		t.Errorf("Hypot: %d ulps from math.Hypot at worst, want at most 2", worst)
	}
	t.Logf("Hypot: at most %d ulp from math.Hypot", worst)
}

// TestGolden: the bits of a fixed series of results, the same on every
// build (make cross runs this package's golden series on other CPUs
// through tools/worldhash).
func TestGolden(t *testing.T) {
	if got, want := Golden(), uint64(GoldenHash); got != want {
		t.Errorf("Golden() = %016x, want %016x: detmath gives other bits on this build", got, want)
	}
}

func BenchmarkSin(b *testing.B) {
	x := 0.0
	for b.Loop() {
		x += Sin(x + 0.1)
	}
}

func BenchmarkMathSin(b *testing.B) {
	x := 0.0
	for b.Loop() {
		x += math.Sin(x + 0.1)
	}
}

func BenchmarkAtan2(b *testing.B) {
	x := 0.0
	for b.Loop() {
		x += Atan2(x+0.3, 0.7)
	}
}
