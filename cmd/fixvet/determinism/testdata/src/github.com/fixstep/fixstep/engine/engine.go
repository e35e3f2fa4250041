// Package engine is a stub of fixstep's engine: the types fixvet looks for.
package engine

import "time"

type Tick struct {
	N     uint64
	Time  time.Duration
	Input Inputs
}

func (t Tick) DtSeconds() float64 { return 1.0 / 60 }

type Inputs struct{ b []byte }

func (in Inputs) Player(i int) []byte { return in.b }

type Frame struct{ Alpha float64 }
