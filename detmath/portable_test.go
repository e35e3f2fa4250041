package detmath

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// exact are the math functions that IEEE 754 (or their own definition)
// makes exact: the same bits on every CPU and build. Every other math
// function may be fused, or have assembly of its own on some CPU.
var exact = map[string]bool{
	"Sqrt": true, "Abs": true, "Floor": true, "Ceil": true, "Trunc": true, "Round": true,
	"RoundToEven": true, "Mod": true, "Copysign": true, "Signbit": true, "Inf": true, "IsInf": true,
	"IsNaN": true, "NaN": true, "Max": true, "Min": true, "Float64bits": true, "Float64frombits": true,
	"Float32bits": true, "Float32frombits": true, "Nextafter": true, "Frexp": true, "Ldexp": true,
}

// TestSimulationUsesPortableMath reads the simulating packages' sources
// (tests aside) and fails on any call of a math function outside exact:
// math.Sin and friends give other bits on other builds; use detmath.
func TestSimulationUsesPortableMath(t *testing.T) {
	for _, dir := range []string{".", "../physics", "../input", "../cmd/demo/arena", "../tools/worldhash"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no Go files (%v)", dir, err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			fset := token.NewFileSet()
			file, err := parser.ParseFile(fset, f, src, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(file, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "math" && !exact[sel.Sel.Name] && !isConst(sel.Sel.Name) {
					t.Errorf("%s: math.%s in simulating code: its bits differ across builds; use detmath", fset.Position(sel.Pos()), sel.Sel.Name)
				}
				return true
			})
		}
	}
}

// isConst reports whether name is one of math's constants.
func isConst(name string) bool {
	return name == "Pi" || name == "E" || name == "Sqrt2" || strings.HasPrefix(name, "Max") || strings.HasPrefix(name, "Min") ||
		strings.HasPrefix(name, "Smallest") || strings.HasPrefix(name, "Ln") || strings.HasPrefix(name, "Log2E") || strings.HasPrefix(name, "Phi")
}
