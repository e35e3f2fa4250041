package nocgo

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// packages are the folders whose files differ with and without cgo.
var packages = []string{"../../gfx", "../../audio"}

// TestOneAPI: gfx and audio export the same API with cgo and without.
func TestOneAPI(t *testing.T) {
	for _, dir := range packages {
		with, err := exported(dir, true)
		if err != nil {
			t.Fatal(err)
		}
		without, err := exported(dir, false)
		if err != nil {
			t.Fatal(err)
		}
		if len(with) < 10 {
			t.Fatalf("%s: only %d exported declarations found with cgo: %q", dir, len(with), with)
		}
		for _, d := range diff(with, without) {
			t.Errorf("%s: only with cgo: %s", filepath.Base(dir), d)
		}
		for _, d := range diff(without, with) {
			t.Errorf("%s: only without cgo: %s", filepath.Base(dir), d)
		}
	}
}

// TestOneAPIFindsADifference: the comparison sees a method that one
// build lacks, a changed signature and a field that one build lacks.
func TestOneAPIFindsADifference(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a.go": "package p\n\n// T is shared.\ntype T struct{ A int }\n",
		"c.go": "//go:build cgo\n\npackage p\n\ntype W struct{ X, y int }\n\nfunc (w *W) M(a int) error { return nil }\nfunc (w *W) N() {}\nfunc F() {}\n",
		"n.go": "//go:build !cgo\n\npackage p\n\ntype W struct{ z int }\n\nfunc (w *W) M(a int64) error { return nil }\nfunc F() {}\n",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	with, _ := exported(dir, true)
	without, _ := exported(dir, false)
	got := strings.Join(append(diff(with, without), diff(without, with)...), "\n")
	want := strings.Join([]string{
		"func (w *W) M(a int) error",
		"func (w *W) N()",
		"type W struct{ X int }",
		"func (w *W) M(a int64) error",
		"type W struct{}",
	}, "\n")
	if got != want {
		t.Errorf("differences:\n%s\nwant:\n%s", got, want)
	}
}

// exported returns the exported declarations of the package in dir, as
// the build with or without cgo for this system compiles it (test files
// left out): each one printed without its doc comment or body, a struct
// with only its exported fields, an interface whole, a constant or a
// variable by name and type.
func exported(dir string, cgo bool) ([]string, error) {
	ctx := build.Default
	ctx.CgoEnabled = cgo
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	var out []string
	str := func(n any) string {
		var b bytes.Buffer
		printer.Fprint(&b, fset, n)
		return b.String()
	}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		if ok, err := ctx.MatchFile(dir, name); err != nil || !ok {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() || d.Recv != nil && !exportedRecv(d.Recv.List[0].Type) {
					continue
				}
				d.Doc, d.Body = nil, nil
				out = append(out, str(d))
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if !s.Name.IsExported() {
							continue
						}
						st, ok := s.Type.(*ast.StructType)
						if !ok {
							s.Doc, s.Comment = nil, nil
							out = append(out, "type "+str(s))
							continue
						}
						var fields []string
						for _, f := range st.Fields.List {
							if len(f.Names) == 0 && embeddedExported(f.Type) {
								fields = append(fields, str(f.Type))
							}
							for _, n := range f.Names {
								if n.IsExported() {
									fields = append(fields, n.Name+" "+str(f.Type))
								}
							}
						}
						var params []string
						if s.TypeParams != nil {
							for _, p := range s.TypeParams.List {
								for _, n := range p.Names {
									params = append(params, n.Name+" "+str(p.Type))
								}
							}
						}
						tp := ""
						if len(params) > 0 {
							tp = "[" + strings.Join(params, ", ") + "]"
						}
						body := "{}"
						if len(fields) > 0 {
							body = "{ " + strings.Join(fields, "; ") + " }"
						}
						out = append(out, "type "+s.Name.Name+tp+" struct"+body)
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() {
								typ := ""
								if s.Type != nil {
									typ = " " + str(s.Type)
								}
								out = append(out, fmt.Sprintf("%s %s%s", d.Tok, n.Name, typ))
							}
						}
					}
				}
			}
		}
	}
	slices.Sort(out)
	return out, nil
}

// exportedRecv reports whether a method's receiver type is exported.
func exportedRecv(t ast.Expr) bool {
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if ix, ok := t.(*ast.IndexExpr); ok {
		t = ix.X
	}
	id, ok := t.(*ast.Ident)
	return ok && id.IsExported()
}

// embeddedExported reports whether an embedded field's type is exported.
func embeddedExported(t ast.Expr) bool {
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch t := t.(type) {
	case *ast.Ident:
		return t.IsExported()
	case *ast.SelectorExpr:
		return t.Sel.IsExported()
	}
	return false
}

// diff returns the lines of a not in b, both sorted.
func diff(a, b []string) []string {
	var out []string
	for _, x := range a {
		if _, found := slices.BinarySearch(b, x); !found {
			out = append(out, x)
		}
	}
	return out
}
