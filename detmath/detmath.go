// Package detmath is the math a simulation may use: functions that give
// the same bits on every build and CPU, where the math package does not.
//
// Go lets the compiler fuse x*y + z into one fused multiply-add (FMA),
// which rounds once instead of twice: arm64, ppc64le, s390x and riscv64
// always fuse, amd64 does from GOAMD64=v3, and a debugger build
// (-gcflags=all=-N -l) fuses differently again. The math package's pure Go
// Sin, Cos and Atan2 are fused the same way, s390x has assembly versions of
// its own, and amd64's Exp picks an FMA path at run time. Each of those
// gives a simulation another world on another machine.
//
// Every function here is built from + − × ÷ and math.Sqrt, which IEEE 754
// rounds exactly on every CPU, and rounds every product before it is added
// (float64(x*y) + z: the one form the Go specification promises not to
// fuse). So each returns the same float64 everywhere, bit for bit.
//
// Accuracy. Sin, Cos and Atan2 use the same Cephes polynomials and
// reductions as the math package's pure Go code, evaluated without fusion:
// on amd64 with GOAMD64=v1, where math does not fuse either, they return
// math's bits exactly (about 1 ulp from the true value); on other builds
// math differs from them by an ulp here and there. Measured over millions
// of arguments (detmath_test.go checks each bound):
//
//	Sin, Cos, SinCos  |x| < 2^29: within 1 ulp of math; beyond, the
//	                  argument is first reduced modulo 2π (math.Mod is
//	                  exact), accurate to |x|·2^-52 absolute
//	Atan, Atan2       within 1 ulp of math, special cases as math's
//	Hypot             within 2 ulps of math.Hypot (each is within about
//	                  1 ulp of the true value), for |x| and |y| between
//	                  1e-150 and 1e150; beyond, x² underflows or overflows
//
// Use them in everything that simulates: Update and what it calls. Draw
// may use the math package: it does not feed the next tick.
//
//fixvet:sim
package detmath

import "math"

// Pi/4 split into three parts for Cody and Waite's reduction: the first two
// have enough trailing zero bits that y·PI4A and y·PI4B are exact for the
// octant counts y this package reduces (below 2^29·4/π).
const (
	pi4a = 7.85398125648498535156e-1  // 0x3fe921fb40000000
	pi4b = 3.77489470793079817668e-8  // 0x3e64442d00000000
	pi4c = 2.69515142907905952645e-15 // 0x3ce8469898cc5170
)

// reduceLimit bounds the arguments reduced by Cody and Waite's method with
// full accuracy; larger ones are reduced modulo 2π first.
const reduceLimit = 1 << 29

// Minimax polynomials for sin and cos on [-π/4, π/4] (Cephes, Moshier).
var (
	sinP = [6]float64{
		1.58962301576546568060e-10,
		-2.50507477628578072866e-8,
		2.75573136213857245213e-6,
		-1.98412698295895385996e-4,
		8.33333333332211858878e-3,
		-1.66666666666666307295e-1,
	}
	cosP = [6]float64{
		-1.13585365213876817300e-11,
		2.08757008419747316778e-9,
		-2.75573141792967388112e-7,
		2.48015872888517045348e-5,
		-1.38888888888730564116e-3,
		4.16666666666665929218e-2,
	}
)

// Sin returns the sine of x radians, the same bits on every build.
// Sin(±0) = ±0; Sin(±Inf) and Sin(NaN) = NaN.
func Sin(x float64) float64 {
	s, _ := SinCos(x)
	return s
}

// Cos returns the cosine of x radians, the same bits on every build.
// Cos(±Inf) and Cos(NaN) = NaN.
func Cos(x float64) float64 {
	_, c := SinCos(x)
	return c
}

// SinCos returns Sin(x), Cos(x), computed together: one reduction for both.
func SinCos(x float64) (sin, cos float64) {
	switch {
	case x == 0:
		return x, 1
	case math.IsNaN(x) || math.IsInf(x, 0):
		return math.NaN(), math.NaN()
	}
	sinSign, cosSign := false, false
	if x < 0 {
		x = -x
		sinSign = true
	}
	if x >= reduceLimit {
		x = math.Mod(x, 2*math.Pi) // exact: the same bits everywhere
	}
	j := uint64(int64(x * (4 / math.Pi))) // the octant: x is below 2^29 here
	y := float64(j)
	if j&1 == 1 { // map zeros to the origin
		j++
		y++
	}
	j &= 7
	z := ((x - float64(y*pi4a)) - float64(y*pi4b)) - float64(y*pi4c)
	if j > 3 { // reflect in the x axis
		j -= 4
		sinSign, cosSign = !sinSign, !cosSign
	}
	if j > 1 {
		cosSign = !cosSign
	}
	zz := float64(z * z)
	c := 1.0 - float64(0.5*zz) + float64(float64(zz*zz)*poly(&cosP, zz))
	s := z + float64(float64(z*zz)*poly(&sinP, zz))
	if j == 1 || j == 2 {
		s, c = c, s
	}
	if sinSign {
		s = -s
	}
	if cosSign {
		c = -c
	}
	return s, c
}

// poly evaluates p[0]·z^5 + ... + p[5] by Horner's rule, rounding each
// product.
func poly(p *[6]float64, z float64) float64 {
	r := p[0]
	for _, c := range p[1:] {
		r = float64(r*z) + c
	}
	return r
}

// Atan returns the arctangent of x in radians, the same bits on every
// build. Atan(±0) = ±0, Atan(±Inf) = ±π/2.
func Atan(x float64) float64 {
	switch {
	case x == 0 || math.IsNaN(x):
		return x
	case x > 0:
		return satan(x)
	}
	return -satan(-x)
}

// satan reduces a positive argument to [0, 0.66] and calls xatan.
func satan(x float64) float64 {
	const (
		morebits = 6.123233995736765886130e-17 // π/2 = math.Pi/2 + morebits
		tan3pi8  = 2.41421356237309504880      // tan(3π/8)
	)
	if x <= 0.66 {
		return xatan(x)
	}
	if x > tan3pi8 {
		return math.Pi/2 - xatan(1/x) + morebits
	}
	return math.Pi/4 + xatan((x-1)/(x+1)) + 0.5*morebits
}

// xatan is atan on [0, 0.66]: x + x·z·P(z)/Q(z), z = x² (Cephes).
func xatan(x float64) float64 {
	const (
		p0 = -8.750608600031904122785e-01
		p1 = -1.615753718733365076637e+01
		p2 = -7.500855792314704667340e+01
		p3 = -1.228866684490136173410e+02
		p4 = -6.485021904942025371773e+01
		q0 = +2.485846490142306297962e+01
		q1 = +1.650270098316988542046e+02
		q2 = +4.328810604912902668951e+02
		q3 = +4.853903996359136964868e+02
		q4 = +1.945506571482613964425e+02
	)
	z := float64(x * x)
	p := p0
	for _, c := range [...]float64{p1, p2, p3, p4} {
		p = float64(p*z) + c
	}
	q := z + q0
	for _, c := range [...]float64{q1, q2, q3, q4} {
		q = float64(q*z) + c
	}
	p = float64(z*p) / q
	return float64(x*p) + x
}

// Atan2 returns the arctangent of y/x in radians, using the signs of both
// to find the quadrant: the angle of the vector (x, y), in [-π, π]. The
// special cases are math.Atan2's.
func Atan2(y, x float64) float64 {
	switch {
	case math.IsNaN(y) || math.IsNaN(x):
		return math.NaN()
	case y == 0:
		if x >= 0 && !math.Signbit(x) {
			return math.Copysign(0, y)
		}
		return math.Copysign(math.Pi, y)
	case x == 0:
		return math.Copysign(math.Pi/2, y)
	case math.IsInf(x, 0):
		if math.IsInf(x, 1) {
			if math.IsInf(y, 0) {
				return math.Copysign(math.Pi/4, y)
			}
			return math.Copysign(0, y)
		}
		if math.IsInf(y, 0) {
			return math.Copysign(3*math.Pi/4, y)
		}
		return math.Copysign(math.Pi, y)
	case math.IsInf(y, 0):
		return math.Copysign(math.Pi/2, y)
	}
	q := Atan(y / x)
	if x < 0 {
		if q <= 0 {
			return q + math.Pi
		}
		return q - math.Pi
	}
	return q
}

// Hypot returns √(x²+y²), the same bits on every build (math.Hypot has an
// assembly version on some CPUs and a fused one on others). It overflows
// to +Inf when x² + y² does (|x| or |y| above about 1e154).
func Hypot(x, y float64) float64 {
	return math.Sqrt(float64(x*x) + float64(y*y))
}

// Dot returns ax·bx + ay·by with both products rounded: the same bits on
// every build, where the plain expression may be fused.
func Dot(ax, ay, bx, by float64) float64 {
	return float64(ax*bx) + float64(ay*by)
}
