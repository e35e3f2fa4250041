// Package detmath is a stub of fixstep's detmath.
package detmath

func Sin(x float64) float64           { return x }
func Cos(x float64) float64           { return x }
func SinCos(x float64) (s, c float64) { return x, x }
func Atan2(y, x float64) float64      { return y }
func Hypot(x, y float64) float64      { return x }
