package determinism

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/token"
	"go/types"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Analyzer reports non-portable and non-reproducible code in what a fixstep
// game simulates (see the package doc for what and where).
var Analyzer = &analysis.Analyzer{
	Name:      "determinism",
	Doc:       "report code that makes a fixstep game's simulation differ between builds or runs\n\nIn Update, Input, the set-up that builds the world and what they call: float products the compiler may fuse (round them: float64(x*y) + z), math functions that differ by CPU (use detmath), complex products, map order (range, reflect, sync.Map), hash/maphash, the clock, the global random source, go and select.",
	URL:       "https://github.com/fixstep/fixstep/blob/main/docs/determinism.md#the-checker-fixvet",
	Run:       run,
	FactTypes: []analysis.Fact{new(Findings)},
}

// all is the -allfuncs flag: every function simulates.
var all bool

func init() {
	Analyzer.Flags.BoolVar(&all, "allfuncs", false, "check every function, as if each package were marked //fixvet:sim (the engine's own packages)")
}

// Findings is the fact a package exports for each of its exported
// functions and methods that would be reported if they simulated, but do
// not in their own package: the findings of its body and of what it
// reaches, as "path/file.go:line:col: message". A simulating caller in
// another package of the module reports them at its call.
type Findings struct {
	Lines []string
}

// AFact marks Findings as an analysis fact.
func (*Findings) AFact() {}

// String is how analysistest and -debug show the fact.
// String is how analysistest and -debug show the fact.
func (f *Findings) String() string { return fmt.Sprintf("findings(%d)", len(f.Lines)) }

// A finding is one report in a function's body.
type finding struct {
	pos, end token.Pos
	msg      string
	fix      []analysis.SuggestedFix
}

// A unit is a function declaration, or a function literal with a hook's
// signature (a bot in app.Options): its findings and what it references.
type unit struct {
	decl *ast.FuncDecl // nil for a literal
	body *ast.BlockStmt
	obj  *types.Func // nil for a literal
	file *ast.File
	root bool
	// changesWorld: it calls a World method that changes it, writes a
	// physics.Body literal or assigns to a field of a Body or World.
	changesWorld bool
	found        []finding
	callees      []*types.Func  // functions and methods of this package it references
	ifaces       []*types.Func  // interface methods it calls
	ext          []extReference // functions of other packages of the module
	// passed are the unrounded products it passes to functions of this
	// package; adds, the indices of its parameters it adds to or
	// subtracts from: such a product is fusable once the call is inlined.
	passed []passedProduct
	adds   map[int]bool
}

// A passedProduct is an unrounded product passed as argument arg of a call
// to fn.
type passedProduct struct {
	fn   *types.Func
	arg  int
	prod *ast.BinaryExpr
	call string
}

// An extReference is a reference to a function of another package.
type extReference struct {
	fn  *types.Func
	pos token.Pos
}

func run(pass *analysis.Pass) (any, error) {
	if len(pass.Files) == 0 || inGOROOT(pass, pass.Files[0]) {
		return nil, nil // the standard library is never game code
	}
	c := &checker{pass: pass, ignored: map[string]map[int]bool{}}
	g := newGraph(c.units())
	for _, u := range g.units {
		for _, p := range u.passed {
			if v := g.byObj[p.fn.Origin()]; v != nil && v.adds[p.arg] {
				c.passedToAdd(u, p)
			}
		}
	}
	sim := g.simulating()
	c.reportSimulating(g, sim)
	c.exportFindings(g, sim)
	return nil, nil
}

// units returns the package's functions (test files left out), with their
// findings, each a root when it simulates by itself.
func (c *checker) units() []*unit {
	marked := false
	var units []*unit
	for _, f := range c.pass.Files {
		name := c.pass.Fset.File(f.Pos()).Name()
		if strings.HasSuffix(name, "_test.go") || ast.IsGenerated(f) {
			continue
		}
		c.directives(f)
		marked = marked || packageMarked(f)
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			obj, _ := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if obj == nil {
				continue
			}
			u := &unit{decl: fd, body: fd.Body, obj: obj, file: f}
			lits := c.inspect(u)
			u.root = c.isRoot(u)
			units = append(units, u)
			units = append(units, lits...)
		}
	}
	if marked || all {
		for _, u := range units {
			u.root = true
		}
	}
	return units
}

// reportSimulating reports the simulating units' findings, and those of
// the functions of other packages they call that do not simulate there.
func (c *checker) reportSimulating(g *graph, sim map[*unit]bool) {
	reported := map[string]bool{}
	for _, u := range g.units {
		if !sim[u] {
			continue
		}
		for _, f := range u.found {
			c.report(f)
		}
		for _, e := range u.ext {
			fact := c.fact(e.fn)
			if fact == nil {
				continue
			}
			for _, line := range fact.Lines {
				if !reported[line] {
					reported[line] = true
					c.report(finding{pos: e.pos, msg: fmt.Sprintf("%s simulates: %s", funcName(e.fn), line)})
				}
			}
		}
	}
}

// exportFindings exports the findings of each exported function that does
// not simulate here, with what it reaches, for callers in other packages
// of the module.
func (c *checker) exportFindings(g *graph, sim map[*unit]bool) {
	for _, u := range g.units {
		if sim[u] || u.obj == nil || !u.obj.Exported() {
			continue
		}
		lines := map[string]bool{}
		for _, v := range g.reach(u) {
			if sim[v] {
				continue // reported here
			}
			for _, f := range v.found {
				if !c.isIgnored(f.pos) {
					lines[c.where(f.pos)+": "+f.msg] = true
				}
			}
			for _, e := range v.ext {
				if fact := c.fact(e.fn); fact != nil {
					for _, l := range fact.Lines {
						lines[l] = true
					}
				}
			}
		}
		if len(lines) > 0 {
			c.pass.ExportObjectFact(u.obj, &Findings{Lines: slices.Sorted(maps.Keys(lines))})
		}
	}
}

// checker holds what one pass needs across functions.
type checker struct {
	pass    *analysis.Pass
	ignored map[string]map[int]bool // file name → lines accepted by //fixvet:ignore
}

// fact returns the findings another package exported for fn, when that
// package is of this module.
func (c *checker) fact(fn *types.Func) *Findings {
	if fn.Pkg() == nil || !c.sameModule(fn.Pkg().Path()) {
		return nil
	}
	var f Findings
	if !c.pass.ImportObjectFact(fn.Origin(), &f) {
		return nil
	}
	return &f
}

// sameModule reports whether the package path is in the analyzed package's
// module (without module information, one whose first path element is the
// same).
func (c *checker) sameModule(path string) bool {
	mod := ""
	if m := c.pass.Module; m != nil && m.Path != "" {
		mod = m.Path
	} else {
		mod, _, _ = strings.Cut(c.pass.Pkg.Path(), "/")
	}
	return path == mod || strings.HasPrefix(path, mod+"/")
}

// report reports f unless a //fixvet:ignore accepts it.
func (c *checker) report(f finding) {
	if c.isIgnored(f.pos) {
		return
	}
	c.pass.Report(analysis.Diagnostic{Pos: f.pos, End: f.end, Category: "determinism", Message: f.msg, SuggestedFixes: f.fix})
}

// where names a position as the package path, the file's base name, its
// line and column.
func (c *checker) where(pos token.Pos) string {
	p := c.pass.Fset.Position(pos)
	return fmt.Sprintf("%s/%s:%d:%d", c.pass.Pkg.Path(), filepath.Base(p.Filename), p.Line, p.Column)
}

// funcName is pkg.F or pkg.T.M.
func funcName(fn *types.Func) string {
	name := fn.Name()
	if recv := fn.Signature().Recv(); recv != nil {
		t := recv.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := t.(*types.Named); ok {
			name = n.Obj().Name() + "." + name
		}
	}
	return fn.Pkg().Name() + "." + name
}

// inGOROOT reports whether f is a file of the Go distribution.
func inGOROOT(pass *analysis.Pass, f *ast.File) bool {
	root := build.Default.GOROOT
	return root != "" && strings.HasPrefix(pass.Fset.File(f.Pos()).Name(), filepath.Join(root, "src")+string(filepath.Separator))
}
