package engine

import (
	"math"
	"math/bits"
)

// The timestep keeps time as exact fractions of a nanosecond. These helpers
// are the little integer arithmetic that needs.

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// mulDiv returns floor(a·b/c) for non-negative a, b and positive c, without
// overflowing in the product. The quotient must fit in 63 bits.
func mulDiv(a, b, c uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	if hi >= c {
		// The quotient would not fit in 64 bits; saturate rather than panic.
		return math.MaxInt64
	}
	q, _ := bits.Div64(hi, lo, c)
	return q
}

// approxRatio returns the fraction p/q closest to x with q <= maxDen, by
// continued fractions. x must be finite and non-negative.
func approxRatio(x float64, maxDen int64) (p, q int64) {
	// Convergents h/k of the continued fraction of x.
	h0, h1 := int64(0), int64(1)
	k0, k1 := int64(1), int64(0)
	f := x
	for range 64 {
		a := int64(math.Floor(f))
		h2, k2 := a*h1+h0, a*k1+k0
		if k2 > maxDen {
			// Best semiconvergent within the bound, if it beats h1/k1.
			t := (maxDen - k0) / k1
			hs, ks := t*h1+h0, t*k1+k0
			if math.Abs(x-float64(hs)/float64(ks)) < math.Abs(x-float64(h1)/float64(k1)) {
				return hs, ks
			}
			return h1, k1
		}
		h0, h1, k0, k1 = h1, h2, k1, k2
		frac := f - float64(a)
		if frac < 1e-12 {
			break
		}
		f = 1 / frac
	}
	return h1, k1
}

// mulDivCeil returns ceil(a·b/c) for positive c, saturating like mulDiv.
func mulDivCeil(a, b, c uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	if hi >= c {
		return math.MaxInt64
	}
	q, r := bits.Div64(hi, lo, c)
	if r != 0 {
		q++
	}
	return q
}
