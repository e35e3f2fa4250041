// Command fixvet is go vet for fixstep games: it reports what makes a game's
// simulation give other bits on another build or another run (a product the
// compiler may fuse into a multiply-add, a math function that differs by
// CPU, a map's order, the clock, the global random source, goroutines and
// select), in the code that simulates: the game's Update and Input, what
// they call, the set-up that builds its world, and what the game marks
// //fixvet:sim. Drawing code and tests are not checked. Package
// determinism says precisely what is checked and what is not; the fix for
// each finding is in docs/determinism.md.
//
// From a game's module:
//
//	go run github.com/fixstep/fixstep/cmd/fixvet ./...
//
// prints each finding as file:line:col: message and exits non-zero when
// there is one; -fix applies the suggested fixes (rounding each product).
// It also runs under go vet:
//
//	go build -o bin/fixvet github.com/fixstep/fixstep/cmd/fixvet
//	go vet -vettool=$PWD/bin/fixvet ./...
//
// A finding that is intended (a debug counter read by no tick) is accepted
// with a //fixvet:ignore comment that says why, on its line or the line
// above.
package main

import (
	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/fixstep/fixstep/cmd/fixvet/determinism"
)

func main() { singlechecker.Main(determinism.Analyzer) }
