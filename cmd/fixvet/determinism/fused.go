package determinism

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// fusedWhere is the list of builds that fuse, as the messages say it.
const fusedWhere = "arm64, ppc64le, s390x, riscv64 and amd64 v3"

// returned reports an unrounded product returned, alone or as a field of
// a returned composite literal (vec{v.x * s, v.y * s}): a caller that adds
// the result may fuse it once it inlines the function.
func (c *checker) returned(u *unit, r ast.Expr) {
	for _, e := range elements(r) {
		if p := c.product(e); p != nil {
			edits := c.round(u, p)
			u.add(p.Pos(), p.End(), fmt.Sprintf("float product returned without rounding: a caller that adds %s may fuse it once it inlines this function (on %s); round it: %s",
				shorten(c.source(p)), fusedWhere, c.apply(p, edits)), []analysis.SuggestedFix{{Message: "Round the product", TextEdits: edits}})
		}
	}
}

// elements returns e, or the values of the composite literal e (&T{...}
// too).
func elements(e ast.Expr) []ast.Expr {
	e = ast.Unparen(e)
	if un, ok := e.(*ast.UnaryExpr); ok && un.Op == token.AND {
		e = ast.Unparen(un.X)
	}
	lit, ok := e.(*ast.CompositeLit)
	if !ok {
		return []ast.Expr{e}
	}
	var out []ast.Expr
	for _, el := range lit.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			el = kv.Value
		}
		out = append(out, el)
	}
	return out
}

// passes records the unrounded products call passes to a function of this
// package (as an argument, or a field of a composite literal argument),
// for run to report those the function adds.
func (c *checker) passes(u *unit, call *ast.CallExpr) {
	fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	if !ok || fn.Pkg() != c.pass.Pkg {
		return
	}
	for i, a := range call.Args {
		for _, e := range elements(a) {
			if p := c.product(e); p != nil {
				u.passed = append(u.passed, passedProduct{fn: fn, arg: i, prod: p, call: shorten(c.source(call.Fun))})
			}
		}
	}
}

// passedToAdd reports a product passed to a function that adds it.
func (c *checker) passedToAdd(u *unit, p passedProduct) {
	edits := c.round(u, p.prod)
	u.add(p.prod.Pos(), p.prod.End(), fmt.Sprintf("float product passed without rounding to %s, which adds it: once the call is inlined it may be fused (on %s); round it: %s",
		p.call, fusedWhere, c.apply(p.prod, edits)), []analysis.SuggestedFix{{Message: "Round the product", TextEdits: edits}})
}

// addedParams finds the parameters u adds to or subtracts from (x + p,
// p.x - y, z += p), by index.
func (c *checker) addedParams(u *unit) map[int]bool {
	if u.obj == nil {
		return nil
	}
	params := map[*types.Var]int{}
	sig := u.obj.Signature()
	for i := range sig.Params().Len() {
		params[sig.Params().At(i)] = i
	}
	adds := map[int]bool{}
	mark := func(e ast.Expr) {
		for {
			switch x := ast.Unparen(e).(type) {
			case *ast.SelectorExpr:
				e = x.X
				continue
			case *ast.Ident:
				if v, ok := c.pass.TypesInfo.Uses[x].(*types.Var); ok {
					if i, ok := params[v]; ok {
						adds[i] = true
					}
				}
			}
			return
		}
	}
	info := c.pass.TypesInfo
	ast.Inspect(u.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if (n.Op == token.ADD || n.Op == token.SUB) && isFloat(info.TypeOf(n)) {
				mark(n.X)
				mark(n.Y)
			}
		case *ast.AssignStmt:
			if (n.Tok == token.ADD_ASSIGN || n.Tok == token.SUB_ASSIGN) && len(n.Lhs) == 1 && isFloat(info.TypeOf(n.Lhs[0])) {
				mark(n.Lhs[0])
				mark(n.Rhs[0])
			}
		}
		return true
	})
	return adds
}

// isFloat reports whether t is a float32 or float64 type, or a type
// parameter that may be one.
func isFloat(t types.Type) bool {
	if t == nil {
		return false
	}
	if tp, ok := types.Unalias(t).(*types.TypeParam); ok {
		iface, _ := tp.Constraint().Underlying().(*types.Interface)
		return iface != nil && mayBeFloat(iface)
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsFloat != 0
}

// mayBeFloat reports whether a constraint's type set has a float type.
func mayBeFloat(iface *types.Interface) bool {
	for i := range iface.NumEmbeddeds() {
		switch e := iface.EmbeddedType(i).(type) {
		case *types.Union:
			for j := range e.Len() {
				if isFloat(e.Term(j).Type()) {
					return true
				}
			}
		default:
			if it, ok := e.Underlying().(*types.Interface); ok {
				if mayBeFloat(it) {
					return true
				}
			} else if isFloat(e) {
				return true
			}
		}
	}
	return false
}

// product returns e's unrounded float product, or nil: e itself, the x*y
// of -(x*y), or a division by a constant power of two (x/2 is x*0.5).
func (c *checker) product(e ast.Expr) *ast.BinaryExpr {
	e = ast.Unparen(e)
	if un, ok := e.(*ast.UnaryExpr); ok && un.Op == token.SUB {
		e = ast.Unparen(un.X)
	}
	b, ok := e.(*ast.BinaryExpr)
	if !ok || !isFloat(c.pass.TypesInfo.TypeOf(b)) || c.pass.TypesInfo.Types[b].Value != nil {
		return nil
	}
	if b.Op == token.MUL || b.Op == token.QUO && exactReciprocal(c.pass.TypesInfo.Types[b.Y].Value) {
		return b
	}
	return nil
}

// exactReciprocal reports whether v is a constant power of two (±2^k)
// whose reciprocal is a normal float64: the compiler turns x/v into the
// product x*(1/v), which it may fuse like any other.
func exactReciprocal(v constant.Value) bool {
	if v == nil {
		return false
	}
	f, _ := constant.Float64Val(constant.ToFloat(v))
	frac, _ := math.Frexp(math.Abs(f))
	r := 1 / math.Abs(f)
	return frac == 0.5 && r >= 0x1p-1022 && !math.IsInf(r, 0)
}

// A heldProduct is a local variable, or a field reached from one (b.Vel.X),
// assigned an unrounded product: an addition of it may be fused too (a
// field's stored value is forwarded to a later load). The edits round it
// where it is computed.
type heldProduct struct {
	pos   token.Pos // the first assignment
	line  int
	edits []analysis.TextEdit
}

// heldProducts finds what in u holds an unrounded product: v := x*y,
// v = x*y, var v = x*y, v *= y, b.Vel.X *= k. Local variables are keyed by
// their *types.Var, fields by their path's text.
func (c *checker) heldProducts(u *unit) map[any]*heldProduct {
	info := c.pass.TypesInfo
	held := map[any]*heldProduct{}
	add := func(lhs ast.Expr, edits []analysis.TextEdit) {
		key := c.holder(lhs)
		if key == nil {
			return
		}
		h := held[key]
		if h == nil {
			h = &heldProduct{pos: lhs.Pos(), line: c.pass.Fset.Position(lhs.Pos()).Line}
			held[key] = h
		}
		h.edits = append(h.edits, edits...)
	}
	ast.Inspect(u.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok == token.MUL_ASSIGN && len(n.Lhs) == 1 && isFloat(info.TypeOf(n.Lhs[0])) {
				lhs := c.source(n.Lhs[0])
				t := c.typeText(u.file, info.TypeOf(n.Lhs[0]))
				rhs := c.source(n.Rhs[0])
				if !simpleOperand(n.Rhs[0]) {
					rhs = "(" + rhs + ")"
				}
				if lhs != "" && rhs != "" {
					add(n.Lhs[0], []analysis.TextEdit{{Pos: n.Pos(), End: n.End(), NewText: []byte(fmt.Sprintf("%s = %s(%s * %s)", lhs, t, lhs, rhs))}})
				}
			}
			if (n.Tok == token.DEFINE || n.Tok == token.ASSIGN) && len(n.Lhs) == len(n.Rhs) {
				for i, r := range n.Rhs {
					if p := c.product(r); p != nil {
						add(n.Lhs[i], c.round(u, p))
					}
				}
			}
		case *ast.ValueSpec:
			if len(n.Names) == len(n.Values) {
				for i, r := range n.Values {
					if p := c.product(r); p != nil {
						add(n.Names[i], c.round(u, p))
					}
				}
			}
		}
		return true
	})
	return held
}

// holder returns the key of what e names when it can hold a product for a
// later addition in the function: a local variable's *types.Var, or the
// text of a field path rooted at a variable (g.vel, b.Vel.X); else nil.
func (c *checker) holder(e ast.Expr) any {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		v, ok := c.pass.TypesInfo.ObjectOf(e).(*types.Var)
		if !ok || v.IsField() || v.Parent() == nil || v.Parent() == c.pass.Pkg.Scope() {
			return nil
		}
		return v
	case *ast.SelectorExpr:
		for x := ast.Expr(e); ; {
			switch y := ast.Unparen(x).(type) {
			case *ast.SelectorExpr:
				if sel := c.pass.TypesInfo.Selections[y]; sel == nil || sel.Kind() != types.FieldVal {
					return nil
				}
				x = y.X
				continue
			case *ast.Ident:
				if _, ok := c.pass.TypesInfo.ObjectOf(y).(*types.Var); !ok {
					return nil
				}
				return types.ExprString(e)
			}
			return nil
		}
	}
	return nil
}

// simpleOperand reports whether e needs no parentheses as an operand of *.
func simpleOperand(e ast.Expr) bool {
	switch e.(type) {
	case *ast.Ident, *ast.BasicLit, *ast.SelectorExpr, *ast.CallExpr, *ast.ParenExpr, *ast.IndexExpr:
		return true
	}
	return false
}

// round returns the edits that convert the product p to its own type.
func (c *checker) round(u *unit, p *ast.BinaryExpr) []analysis.TextEdit {
	t := c.typeText(u.file, c.pass.TypesInfo.TypeOf(p))
	return []analysis.TextEdit{
		{Pos: p.Pos(), End: p.Pos(), NewText: []byte(t + "(")},
		{Pos: p.End(), End: p.End(), NewText: []byte(")")},
	}
}

// fused reports the sum or difference n (x + y, x - y, x += y, x -= y)
// when one of its operands is an unrounded product, or a local variable
// holding one.
func (c *checker) fused(u *unit, n ast.Node, held map[any]*heldProduct, operands ...ast.Expr) {
	var edits []analysis.TextEdit
	var via []string
	for _, op := range operands {
		if p := c.product(op); p != nil {
			edits = append(edits, c.round(u, p)...)
			continue
		}
		key := c.holder(op)
		h := held[key]
		if key == nil || h == nil {
			continue
		}
		if _, field := key.(string); field && op.Pos() < h.pos {
			continue // a field is read before the product is stored in it
		}
		edits = append(edits, h.edits...)
		via = append(via, fmt.Sprintf("%s (an unrounded product, line %d)", shorten(c.source(op)), h.line))
	}
	if len(edits) == 0 {
		return
	}
	what := c.source(n)
	msg := fmt.Sprintf("float product added without rounding: %s may be fused into one multiply-add on %s (another world there)", shorten(what), fusedWhere)
	if len(via) > 0 {
		msg = fmt.Sprintf("float product added without rounding through %s: %s may be fused into one multiply-add on %s; round it where it is computed", strings.Join(via, ", "), shorten(what), fusedWhere)
	}
	fixed := c.apply(n, edits)
	if len(via) == 0 && fixed != "" && len(fixed) <= 80 {
		msg += "; round the product: " + fixed
	} else if len(via) == 0 {
		msg += "; round the product: float64(x*y) + z"
	}
	u.add(n.Pos(), n.End(), msg, []analysis.SuggestedFix{{Message: "Round the product", TextEdits: edits}})
}

// shorten quotes s, eliding its middle past 60 bytes.
func shorten(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 60 {
		s = s[:28] + " ... " + s[len(s)-27:]
	}
	return s
}

// apply returns n's source with those edits that lie inside it applied,
// or "" when its source cannot be read.
func (c *checker) apply(n ast.Node, edits []analysis.TextEdit) string {
	src := c.source(n)
	if src == "" {
		return ""
	}
	base := n.Pos()
	var b strings.Builder
	at := 0
	for _, e := range sortedEdits(edits) {
		if e.Pos < base || e.End > n.End() {
			continue
		}
		from, to := int(e.Pos-base), int(e.End-base)
		if from < at {
			continue
		}
		b.WriteString(src[at:from])
		b.Write(e.NewText)
		at = to
	}
	b.WriteString(src[at:])
	return b.String()
}

func sortedEdits(edits []analysis.TextEdit) []analysis.TextEdit {
	out := append([]analysis.TextEdit(nil), edits...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && (out[j].Pos < out[j-1].Pos || out[j].Pos == out[j-1].Pos && out[j].End < out[j-1].End); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}
