package determinism

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
)

// This file has what differs by build or by run but hides from the
// eye: a complex product (fused inside), hash/maphash's seeds, and the
// orders reflect and sync.Map iterate a map in.

// complexProduct reports a complex multiplication or division (x*y, x/y,
// z *= y, z /= y): Go computes a complex product's real part as
// re(x)*re(y) - im(x)*im(y), which arm64 and amd64 v3 fuse, each its own
// way, product alone, whatever conversion wraps it; a division runs the
// runtime's complex128div, fused the same way on those builds.
func (c *checker) complexProduct(u *unit, n ast.Node, op token.Token, t types.Type) {
	if !isComplex(t) || op != token.MUL && op != token.QUO && op != token.MUL_ASSIGN && op != token.QUO_ASSIGN {
		return
	}
	what := "product"
	if op == token.QUO || op == token.QUO_ASSIGN {
		what = "quotient"
	}
	u.add(n.Pos(), n.End(), fmt.Sprintf("complex %s %s in simulation code: its parts are computed with products the compiler fuses on %s (a conversion does not stop it: complex128(x*y) is fused too); compute the real and imaginary parts as floats with rounded products: complex(float64(a*c)-float64(b*d), float64(a*d)+float64(b*c))",
		what, shorten(c.source(n)), fusedWhere), nil)
}

// isComplex reports whether t is a complex64 or complex128 type.
func isComplex(t types.Type) bool {
	if t == nil {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsComplex != 0
}

// exactCmplx are the functions of math/cmplx that give the same bits on
// every build.
var exactCmplx = map[string]bool{"Conj": true, "Inf": true, "NaN": true, "IsInf": true, "IsNaN": true}

// sortedKeys returns the local variables of u that a sort function sorts
// (sort.Slice(keys, ...), slices.SortFunc(keys, ...)), and the MapKeys
// calls assigned to one of them, whose order the sort then fixes.
func (c *checker) sortedKeys(u *unit) map[*ast.SelectorExpr]bool {
	sorted := map[*types.Var]bool{}
	ast.Inspect(u.body, func(n ast.Node) bool {
		path, name, arg := c.callOf(asExpr(n))
		if arg == nil || !(path == "sort" && (name == "Slice" || name == "SliceStable") ||
			path == "slices" && (name == "SortFunc" || name == "SortStableFunc")) {
			return true
		}
		if id, ok := ast.Unparen(arg).(*ast.Ident); ok {
			if v, ok := c.pass.TypesInfo.Uses[id].(*types.Var); ok {
				sorted[v] = true
			}
		}
		return true
	})
	accepted := map[*ast.SelectorExpr]bool{}
	ast.Inspect(u.body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, r := range as.Rhs {
			call, ok := ast.Unparen(r).(*ast.CallExpr)
			if !ok {
				continue
			}
			sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "MapKeys" {
				continue
			}
			if id, ok := as.Lhs[i].(*ast.Ident); ok {
				if v, ok := c.pass.TypesInfo.ObjectOf(id).(*types.Var); ok && sorted[v] {
					accepted[sel] = true
				}
			}
		}
		return true
	})
	return accepted
}

// asExpr returns n as an expression, or nil.
func asExpr(n ast.Node) ast.Expr {
	e, _ := n.(ast.Expr)
	return e
}

// methodOrder reports a method whose result differs from run to run:
// reflect.Value's MapRange and MapKeys (a map's order; MapKeys whose
// result is sorted in the function is fine), sync.Map's Range, and any
// method of hash/maphash's Hash (its seed is random unless SetSeed gives
// it one, and a Seed comes only from MakeSeed, random too).
func (c *checker) methodOrder(u *unit, n *ast.SelectorExpr, sortedMapKeys map[*ast.SelectorExpr]bool) {
	sel := c.pass.TypesInfo.Selections[n]
	if sel == nil || sel.Kind() != types.MethodVal {
		return
	}
	recv := sel.Recv()
	if p, ok := types.Unalias(recv).(*types.Pointer); ok {
		recv = p.Elem()
	}
	name := n.Sel.Name
	switch {
	case isNamed(recv, "reflect", "Value") && name == "MapRange":
		u.add(n.Pos(), n.End(), "reflect.Value.MapRange in simulation code: it iterates the map in an order that is random on every run; sort the keys first: keys := v.MapKeys(); slices.SortFunc(keys, ...)", nil)
	case isNamed(recv, "reflect", "Value") && name == "MapKeys" && !sortedMapKeys[n]:
		u.add(n.Pos(), n.End(), "reflect.Value.MapKeys in simulation code: its keys come in an order that is random on every run; sort them in this function: keys := v.MapKeys(); slices.SortFunc(keys, ...)", nil)
	case isNamed(recv, "sync", "Map") && name == "Range":
		u.add(n.Pos(), n.End(), "sync.Map.Range in simulation code: it visits the entries in no fixed order; keep the state in a slice, or a map ranged over sorted keys", nil)
	case isNamed(recv, "hash/maphash", "Hash"):
		u.add(n.Pos(), n.End(), fmt.Sprintf("maphash.Hash.%s in simulation code: a maphash seed is random on every run (a Hash's own, and every MakeSeed), so its hashes are too; hash with hash/fnv, or a hash of your own with a fixed seed", name), nil)
	}
}
