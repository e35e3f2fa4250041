// Package marked is all simulation: a game's own physics.
//
//fixvet:sim
package marked

import "math"

// Integrate moves x by v.
func Integrate(x, v, dt float64) float64 { return x + v*dt } // want `float product added`

// Angle is a direction's angle.
func Angle(x, y float64) float64 { return math.Atan2(y, x) } // want `use detmath.Atan2`
