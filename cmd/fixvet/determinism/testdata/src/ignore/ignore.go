// Package ignore accepts findings with //fixvet:ignore.
package ignore

import (
	"time"

	"github.com/fixstep/fixstep/engine"
)

type game struct {
	x, y  float64
	since time.Duration
	m     map[int]int
}

func (g *game) Update(t engine.Tick) error {
	g.since = time.Since(time.Time{}) //fixvet:ignore a debug counter no tick reads
	//fixvet:ignore the sum is order-independent (integers)
	for _, v := range g.m {
		g.y += float64(v)
	}
	// A directive without a reason accepts nothing, and is reported.
	g.x = g.x*g.y + 1 //fixvet:ignore // want `//fixvet:ignore needs a reason` `float product added`
	//fixvet:ignore the product below is not on the next line

	g.x = g.x*g.y + 2 // want `float product added`
	return nil
}
