// Package rules is marked: it reports its own findings.
//
//fixvet:sim
package rules

// Score adds a bonus.
func Score(s, bonus, k float64) float64 { return s + bonus*k } // want `float product added`
