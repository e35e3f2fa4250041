package determinism_test

import (
	"golang.org/x/tools/go/analysis/multichecker"
	"golang.org/x/tools/go/analysis/passes/printf"

	"github.com/fixstep/fixstep/cmd/fixvet/determinism"
)

// A game's own checker can run the determinism analyzer beside others:
// this main prints the findings of both as file:line:col: message.
func Example() {
	multichecker.Main(determinism.Analyzer, printf.Analyzer)
}
