package determinism_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/fixstep/fixstep/cmd/fixvet/determinism"
)

// TestFused checks every fusable form, its message and its suggested fix
// (fused.go.golden), and the forms that cannot fuse.
func TestFused(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), determinism.Analyzer, "fused")
}

// TestMath checks that the math functions that differ by build are
// reported, with detmath's where it has one, and the exact ones are not.
func TestMath(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), determinism.Analyzer, "mathfuncs")
}

// TestOrder checks map order, the clock, the global random sources, go and
// select, and that a seeded generator the game owns is fine.
func TestOrder(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), determinism.Analyzer, "order")
}

// TestScope checks what simulates (the hooks, what they reach, set-up that
// changes a physics world, a command's constructor of its game,
// //fixvet:sim) and what does not (Draw and what only it reaches, reading
// a world, tests, unreached code).
func TestScope(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), determinism.Analyzer, "scope", "marked", "maingame")
}

// TestIgnore checks that //fixvet:ignore with a reason accepts a finding on
// its line or the next, and without one is reported.
func TestIgnore(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), determinism.Analyzer, "ignore")
}

// TestModule checks that what simulation calls in another package of the
// module is reported at the call, naming the line, unless that package
// reports it itself (//fixvet:sim); and that what only Draw calls is not.
func TestModule(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), determinism.Analyzer, "game", "game/helpers", "game/rules")
}

// TestScene is the first target: fused set-up arithmetic and
// impulses, math.Sin and a map ranged in the tick are each named; the same
// scene with its products rounded (and detmath, sorted keys) is clean.
func TestScene(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), determinism.Analyzer, "scene", "scenefixed")
}

// TestInlined checks the products that reach an addition through a call
// the compiler may inline: returned, or passed to a function that adds its
// parameter.
func TestInlined(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), determinism.Analyzer, "inlined")
}

// TestAllFuncs checks that -allfuncs checks functions no game reaches, as
// make cross's disassembly check does (the engine's own packages).
func TestAllFuncs(t *testing.T) {
	if err := determinism.Analyzer.Flags.Set("allfuncs", "true"); err != nil {
		t.Fatal(err)
	}
	defer determinism.Analyzer.Flags.Set("allfuncs", "false")
	analysistest.Run(t, analysistest.TestData(), determinism.Analyzer, "allfuncs")
}

// TestNoGame checks that without -allfuncs the same package is clean:
// nothing in it simulates.
func TestNoGame(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), determinism.Analyzer, "nogame")
}

// TestHidden checks what differs without looking like it: complex
// products and quotients (fused inside, converted or not), math/cmplx,
// hash/maphash, reflect's MapRange and unsorted MapKeys, sync.Map.Range;
// and what is fine beside them (sums, constants, rounded parts,
// cmplx.Conj, hash/fnv, MapKeys sorted in the function).
func TestHidden(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), determinism.Analyzer, "hidden")
}
