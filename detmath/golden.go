package detmath

import (
	"math"

	"github.com/fixstep/fixstep/internal/fnv"
)

// GoldenHash is what Golden returns on every build and CPU.
const GoldenHash = 0xda1467ea54e1b09c

// Golden returns an FNV-1a hash of the bits of a fixed series of results
// of every function in the package, over arguments from tiny to beyond
// 2^29: the cross-build check (tools/worldhash, make cross) compares it
// with GoldenHash on each CPU and build it runs on.
func Golden() uint64 {
	h := fnv.Offset
	mix := func(v float64) { h = fnv.Uint64(h, math.Float64bits(v)) }
	x := 1e-9
	for i := range 4000 {
		s, c := SinCos(x)
		mix(s)
		mix(c)
		mix(Atan2(s-0.3, c+0.1))
		mix(Atan(x))
		mix(Hypot(x, s))
		x = float64(x*1.013) + float64(float64(i%7)*0.1) // rounded: see the package doc
		if i%1000 == 999 {
			x = -x
		}
	}
	return h
}
