// Package helpers is a game's own package, not marked: what simulates in it
// is what the game's simulation calls.
package helpers

// Move is called from the game's Update.
func Move(x, v, dt float64) float64 { return x + v*dt } // want Move:`findings\(1\)`

// Wave reaches a product through a call.
func Wave(x float64) float64 { return half(x) } // want Wave:`findings\(1\)`

func half(x float64) float64 { return x*0.5 + 1 }

// Blend is called only from Draw.
func Blend(a, b, t float64) float64 { return a + (b-a)*t } // want Blend:`findings\(1\)`

// Exact has nothing to report.
func Exact(x float64) float64 { return x + 1 }
