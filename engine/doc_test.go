package engine

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDocProgram builds and runs the program in the package doc, exactly as
// a user would paste it, so the docs cannot rot.
func TestDocProgram(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	var prog strings.Builder
	in := false
	for _, line := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(line, "//\tpackage main") {
			in = true
		}
		if !in {
			continue
		}
		if !strings.HasPrefix(line, "//") {
			break
		}
		line = strings.TrimPrefix(strings.TrimPrefix(line, "//"), "\t")
		prog.WriteString(line + "\n")
	}
	if prog.Len() == 0 {
		t.Fatal("no program found in the package doc")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	mod := "module paste\n\ngo 1.24\n\nrequire github.com/fixstep/fixstep v0.0.0\n\nreplace github.com/fixstep/fixstep => " + root + "\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(prog.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "run", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "CGO_ENABLED=0")
	start := time.Now()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the package doc's program failed: %v\n%s", err, out)
	}
	want := "second 1: pos=+1.000\nsecond 2: pos=+1.000\nsecond 3: pos=+1.000\nstopped cleanly\n"
	if string(out) != want {
		t.Errorf("doc program printed (in %v):\n%s\nwant\n%s", time.Since(start), out, want)
	}
}
