package determinism

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// exactMath are the math functions that give the same bits on every build:
// IEEE 754 operations rounded exactly, bit manipulation and tables.
var exactMath = map[string]bool{
	"Sqrt": true, "Abs": true, "Floor": true, "Ceil": true, "Trunc": true, "Round": true, "RoundToEven": true,
	"Mod": true, "Remainder": true, "Min": true, "Max": true, "Dim": true, "Copysign": true, "FMA": true,
	"Frexp": true, "Ldexp": true, "Modf": true, "Nextafter": true, "Nextafter32": true, "Pow10": true,
	"Ilogb": true, "Logb": true, "Signbit": true, "IsNaN": true, "IsInf": true, "Inf": true, "NaN": true,
	"Float64bits": true, "Float64frombits": true, "Float32bits": true, "Float32frombits": true,
}

// detmathFor names detmath's portable version of a math function.
var detmathFor = map[string]string{
	"Sin": "Sin", "Cos": "Cos", "Sincos": "SinCos", "Atan": "Atan", "Atan2": "Atan2", "Hypot": "Hypot",
}

// randConstructors are the functions of math/rand and math/rand/v2 that
// make a generator the game owns, rather than use the global one.
var randConstructors = map[string]bool{"New": true, "NewSource": true, "NewPCG": true, "NewChaCha8": true, "NewZipf": true}

// clock are the time functions that read the clock.
var clock = map[string]bool{"Now": true, "Since": true, "Until": true}

// inspect finds u's findings and what it references, and returns the
// units of the function literals in it that have a hook's signature (a
// bot), inspected apart.
func (c *checker) inspect(u *unit) []*unit {
	info := c.pass.TypesInfo
	held := c.heldProducts(u)
	sortedMapKeys := c.sortedKeys(u)
	u.adds = c.addedParams(u)
	var lits []*unit
	ast.Inspect(u.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			if sig, ok := info.TypeOf(n).(*types.Signature); ok && isBot(sig) {
				lit := &unit{body: n.Body, file: u.file, root: true}
				lits = append(lits, lit)
				lits = append(lits, c.inspect(lit)...)
				return false
			}
		case *ast.BinaryExpr:
			if (n.Op == token.ADD || n.Op == token.SUB) && isFloat(info.TypeOf(n)) && info.Types[n].Value == nil {
				c.fused(u, n, held, n.X, n.Y)
			}
			if info.Types[n].Value == nil {
				c.complexProduct(u, n, n.Op, info.TypeOf(n))
			}
		case *ast.AssignStmt:
			if (n.Tok == token.ADD_ASSIGN || n.Tok == token.SUB_ASSIGN) && len(n.Lhs) == 1 && isFloat(info.TypeOf(n.Lhs[0])) {
				c.fused(u, n, held, n.Rhs[0])
			}
			if len(n.Lhs) == 1 {
				c.complexProduct(u, n, n.Tok, info.TypeOf(n.Lhs[0]))
			}
			for _, l := range n.Lhs {
				if c.writesWorld(l) {
					u.changesWorld = true
				}
			}
		case *ast.IncDecStmt:
			if c.writesWorld(n.X) {
				u.changesWorld = true
			}
		case *ast.CompositeLit:
			if isNamed(info.TypeOf(n), physicsPath, "Body") {
				u.changesWorld = true
			}
		case *ast.RangeStmt:
			c.rangeOrder(u, n)
		case *ast.ReturnStmt:
			for _, r := range n.Results {
				c.returned(u, r)
			}
		case *ast.CallExpr:
			c.passes(u, n)
		case *ast.GoStmt:
			u.add(n.Pos(), n.Go+2, "go statement in simulation code: the scheduler decides when it runs; simulate on the tick's goroutine", nil)
		case *ast.SelectStmt:
			u.add(n.Pos(), n.Select+6, "select in simulation code: it picks among ready cases at random; simulate on the tick's goroutine", nil)
		case *ast.SelectorExpr:
			c.packageFunc(u, n)
			c.methodOrder(u, n, sortedMapKeys)
			if sel := info.Selections[n]; sel != nil && sel.Kind() == types.MethodVal && worldChanges[n.Sel.Name] && isWorldState(sel.Recv()) {
				u.changesWorld = true
			}
		case *ast.Ident:
			fn, ok := info.Uses[n].(*types.Func)
			if !ok || fn.Pkg() == nil {
				break
			}
			switch {
			case fn.Pkg() == c.pass.Pkg && isAbstract(fn):
				u.ifaces = append(u.ifaces, fn)
			case fn.Pkg() == c.pass.Pkg:
				u.callees = append(u.callees, fn)
			case c.sameModule(fn.Pkg().Path()):
				u.ext = append(u.ext, extReference{fn: fn, pos: n.Pos()})
			}
		}
		return true
	})
	return lits
}

// add records a finding.
func (u *unit) add(pos, end token.Pos, msg string, fix []analysis.SuggestedFix) {
	u.found = append(u.found, finding{pos: pos, end: end, msg: msg, fix: fix})
}

// isAbstract reports whether fn is an interface method.
func isAbstract(fn *types.Func) bool {
	recv := fn.Signature().Recv()
	return recv != nil && types.IsInterface(recv.Type())
}

// source returns n's source text, or "" when it cannot be read.
func (c *checker) source(n ast.Node) string {
	tf := c.pass.Fset.File(n.Pos())
	if tf == nil {
		return ""
	}
	src, err := c.pass.ReadFile(tf.Name())
	if err != nil {
		return ""
	}
	from, to := tf.Offset(n.Pos()), tf.Offset(n.End())
	if from < 0 || to > len(src) || from > to {
		return ""
	}
	return string(src[from:to])
}

// typeText writes t as file f names it.
func (c *checker) typeText(f *ast.File, t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string {
		if p == c.pass.Pkg {
			return ""
		}
		for _, imp := range f.Imports {
			if strings.Trim(imp.Path.Value, `"`) == p.Path() {
				if imp.Name != nil {
					return imp.Name.Name
				}
				return p.Name()
			}
		}
		return p.Name()
	})
}

// writesWorld reports whether the assigned expression l is a field of a
// physics.Body or World (or of a field of one: b.Pos.X), other than one of
// a local copy (b := *w.Body(id); b.Pos.X += 1, as drawing code may do)
// and other than a World's Workers (the pool that steps it, or a field of
// the pool), which are no part of the world.
func (c *checker) writesWorld(l ast.Expr) bool {
	found := false
	for {
		switch x := ast.Unparen(l).(type) {
		case *ast.SelectorExpr:
			if t := c.pass.TypesInfo.TypeOf(x.X); isWorldState(t) {
				if x.Sel.Name == "Workers" && (isNamed(t, physicsPath, "World") || isPointerTo(t, physicsPath, "World")) {
					return false
				}
				found = true
			}
			l = x.X
			continue
		case *ast.Ident:
			if v, ok := c.pass.TypesInfo.ObjectOf(x).(*types.Var); ok && found && v.Parent() != c.pass.Pkg.Scope() && !v.IsField() {
				if _, ptr := types.Unalias(v.Type()).(*types.Pointer); !ptr && isWorldState(v.Type()) {
					return false // a local copy of a Body or World
				}
			}
		}
		return found
	}
}

// rangeOrder reports a range over a map, or over maps.Keys, Values or All.
func (c *checker) rangeOrder(u *unit, n *ast.RangeStmt) {
	const why = "its order is random on every run; range over sorted keys: for _, k := range slices.Sorted(maps.Keys(m))"
	if t := c.pass.TypesInfo.TypeOf(n.X); t != nil {
		if _, ok := t.Underlying().(*types.Map); ok {
			u.add(n.Pos(), n.X.End(), "range over a map in simulation code: "+why, nil)
			return
		}
	}
	x := n.X
	if path, name, arg := c.callOf(x); path == "slices" && name == "Collect" {
		x = arg // slices.Collect(maps.Keys(m)) keeps the map's order
	}
	if path, name, _ := c.callOf(x); path == "maps" && (name == "Keys" || name == "Values" || name == "All") {
		u.add(n.Pos(), n.X.End(), "range over maps."+name+" in simulation code: "+why, nil)
	}
}

// callOf returns the import path and name of the package-level function
// that e calls, and its first argument.
func (c *checker) callOf(e ast.Expr) (path, name string, arg ast.Expr) {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return "", "", nil
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return "", "", nil
	}
	if len(call.Args) > 0 {
		arg = call.Args[0]
	}
	path, name = c.packageOf(sel)
	return path, name, arg
}

// packageOf returns the import path and name of a package-level function
// pkg.Name, or "" for anything else.
func (c *checker) packageOf(sel *ast.SelectorExpr) (path, name string) {
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return "", ""
	}
	pn, ok := c.pass.TypesInfo.Uses[id].(*types.PkgName)
	if !ok {
		return "", ""
	}
	if _, ok := c.pass.TypesInfo.Uses[sel.Sel].(*types.Func); !ok {
		return "", ""
	}
	return pn.Imported().Path(), sel.Sel.Name
}

// packageFunc reports the use (a call, or a function value) of a math
// function that differs by build, the clock or the global random source.
func (c *checker) packageFunc(u *unit, sel *ast.SelectorExpr) {
	path, name := c.packageOf(sel)
	switch {
	case path == "math" && !exactMath[name]:
		msg := fmt.Sprintf("math.%s differs between builds (its Go code is fused on %s, s390x has assembly of its own, amd64 picks code at run time): ", name, fusedWhere)
		if d := detmathFor[name]; d != "" {
			msg += fmt.Sprintf("use detmath.%s (github.com/fixstep/fixstep/detmath), the same bits everywhere", d)
		} else {
			msg += "detmath has no portable " + name + ": compute it from + - * / and math.Sqrt with rounded products, or use a table"
		}
		u.add(sel.Pos(), sel.End(), msg, nil)
	case path == "time" && clock[name]:
		u.add(sel.Pos(), sel.End(), fmt.Sprintf("time.%s reads the clock in simulation code: use the tick (t.N, t.Time, t.DtSeconds())", name), nil)
	case (path == "math/rand" || path == "math/rand/v2") && !randConstructors[name]:
		u.add(sel.Pos(), sel.End(), fmt.Sprintf("rand.%s uses the global random source: keep a seeded *rand.Rand in the game's saved state (rand.New(rand.NewPCG(seed, 0))) and call its %s", name, name), nil)
	case path == "math/cmplx" && !exactCmplx[name]:
		u.add(sel.Pos(), sel.End(), fmt.Sprintf("cmplx.%s differs between builds (it is built on math's inexact functions and complex products, which %s fuse): compute it from + - * / and math.Sqrt with rounded products, or detmath's functions", name, fusedWhere), nil)
	case path == "hash/maphash":
		u.add(sel.Pos(), sel.End(), fmt.Sprintf("maphash.%s in simulation code: a maphash seed is random on every run (MakeSeed's, and a Hash's own), so its hashes are too; hash with hash/fnv, or a hash of your own with a fixed seed", name), nil)
	case path == "crypto/rand":
		u.add(sel.Pos(), sel.End(), fmt.Sprintf("crypto/rand.%s is random on every run: keep a seeded *rand.Rand from math/rand/v2 in the game's saved state", name), nil)
	}
}
