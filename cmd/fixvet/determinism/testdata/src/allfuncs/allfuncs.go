// Package allfuncs has no game: with -allfuncs, every function is checked.
package allfuncs

import "time"

func step(x, v, dt float64) float64 { return x + v*dt } // want `float product added`

func stamp() time.Time { return time.Now() } // want `time.Now reads the clock`
