package layers

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "write the table into the README")

// graph is the module's packages as the go command lists them, with
// their imports: env is added to the command's (CGO_ENABLED=0).
type graph map[string][]string

func list(t *testing.T, env string, args ...string) graph {
	t.Helper()
	// -e: without cgo, a package of cgo files alone (go-gl's) lists with
	// an error, and its importers are listed all the same.
	cmd := exec.Command("go", append([]string{"list", "-e", "-deps", "-f", "{{.ImportPath}} {{join .Imports \" \"}}"}, args...)...)
	cmd.Dir = "../.."
	cmd.Env = os.Environ()
	if env != "" {
		cmd.Env = append(cmd.Env, env)
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	g := graph{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		g[f[0]] = f[1:]
	}
	if len(g) < 50 {
		t.Fatalf("go list found only %d packages", len(g))
	}
	return g
}

// reaches reports whether from reaches to (a path or a prefix of one)
// through g, and the path it takes.
func (g graph) reaches(from, to string) []string {
	seen := map[string]bool{}
	var walk func(p string, path []string) []string
	walk = func(p string, path []string) []string {
		if seen[p] {
			return nil
		}
		seen[p] = true
		path = append(path, p)
		if p == to || strings.HasPrefix(p, to+"/") {
			return path
		}
		for _, i := range g[p] {
			if r := walk(i, path); r != nil {
				return r
			}
		}
		return nil
	}
	for _, i := range g[from] {
		if r := walk(i, []string{from}); r != nil {
			return r
		}
	}
	return nil
}

// full returns a row's or a rule's path as an import path.
func full(path string) string {
	if strings.Contains(strings.Split(path, "/")[0], ".") || path == "C" || path == "runtime/cgo" {
		return path
	}
	return Module + "/" + path
}

// TestTable: every package of the module has a row, every row a package,
// and each imports only what its row lets it.
func TestTable(t *testing.T) {
	g := list(t, "CGO_ENABLED=1", "./...")
	for p, imports := range g {
		rest, ok := strings.CutPrefix(p, Module+"/")
		if !ok {
			continue // the standard library, or outside the module
		}
		row, ok := Find(rest)
		if !ok {
			t.Errorf("%s is not in internal/layers' table: add its row (what it owns, what it may import)", rest)
			continue
		}
		for _, i := range imports {
			if !row.MayImport(i) {
				t.Errorf("%s imports %s, which its row in internal/layers does not let it", rest, i)
			}
		}
	}
	for _, row := range Table {
		if _, ok := g[full(row.Path)]; !ok {
			t.Errorf("internal/layers has a row for %s, which is no package of the module", row.Path)
		}
		for _, i := range row.Imports {
			if _, ok := Find(i); !ok {
				t.Errorf("%s may import %s, which has no row", row.Path, i)
			}
		}
	}
}

// TestNever: no package reaches what its row says it must never reach,
// with cgo and without (a pure package's cgo rules hold without it: with
// cgo, the standard library's net takes the system's resolver); and no
// package but a benchmark peer, built without cgo (a server's static
// build), reaches SDL or OpenGL's bindings.
func TestNever(t *testing.T) {
	isCgo := func(r Rule) bool { return slices.Contains(noCgo, r) }
	for _, b := range []struct {
		env string
		g   graph
	}{{"", list(t, "CGO_ENABLED=1", "./...")}, {"CGO_ENABLED=0", list(t, "CGO_ENABLED=0", "./...")}} {
		for _, row := range Table {
			var rules []Rule
			for _, r := range row.Never {
				if b.env != "" || !isCgo(r) {
					rules = append(rules, r)
				}
			}
			if b.env != "" && !row.Pure && !strings.HasPrefix(row.Path, "bench/") {
				rules = append(rules, noCgo[:2]...)
			}
			for _, r := range rules {
				if path := b.g.reaches(full(row.Path), full(r.Path)); path != nil {
					t.Errorf("%s %s reaches %s (%s): %s", b.env, row.Path, r.Path, strings.Join(path, " -> "), r.Why)
				}
			}
		}
	}
	for _, row := range Table {
		if row.Pure && (len(row.Never) < len(noCgo) || !slices.Equal(row.Never[:len(noCgo)], noCgo)) {
			t.Errorf("%s is pure, and its rules do not keep cgo out", row.Path)
		}
	}
}

// TestReadme: the README's table of packages is the table's.
func TestReadme(t *testing.T) {
	const begin, end = "<!-- the table of internal/layers: go test ./internal/layers -update writes it -->\n", "<!-- end of the table -->"
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	i, j := bytes.Index(readme, []byte(begin)), bytes.Index(readme, []byte(end))
	if i < 0 || j < i {
		t.Fatalf("README.md has no %q ... %q around its table of packages", strings.TrimSpace(begin), end)
	}
	want := Markdown()
	if got := string(readme[i+len(begin) : j]); got != want {
		if !*update {
			t.Fatalf("README.md's table of packages is not internal/layers' (go test ./internal/layers -update writes it):\n%s", want)
		}
		out := append(append(append([]byte{}, readme[:i+len(begin)]...), want...), readme[j:]...)
		if err := os.WriteFile("../../README.md", out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
