package lint

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestConflictMarkers plants merge-conflict markers in a git checkout
// that has the engine's Makefile: make conflicts (part of make lint)
// fails naming each marker's file and line, in any tracked file, and
// passes once they are resolved; an untracked file is not its business.
func TestConflictMarkers(t *testing.T) {
	dir := t.TempDir()
	makefile, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sh := func(name string, args ...string) (string, error) {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	write("Makefile", string(makefile))
	write("guide.md", "# Guide\n\n<<<<<<< HEAD\nours\n||||||| base\nbase\n=======\ntheirs\n>>>>>>> branch\n")
	write("ok.go", "package ok\n\n// a <<<<<<< in a comment, not at a line's start\nconst x = \"=======\"\n")
	if out, err := sh("git", "init", "-q"); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	if out, err := sh("git", "add", "Makefile", "guide.md", "ok.go"); err != nil {
		t.Fatalf("git add: %v\n%s", err, out)
	}
	out, err := sh("make", "-s", "conflicts")
	for _, want := range []string{"guide.md:3:<<<<<<< HEAD", "guide.md:5:||||||| base", "guide.md:7:=======", "guide.md:9:>>>>>>> branch"} {
		if err == nil || !strings.Contains(out, want) {
			t.Errorf("make conflicts with markers planted: %v, want a failure naming %q:\n%s", err, want, out)
		}
	}
	if strings.Contains(out, "ok.go") {
		t.Errorf("make conflicts named ok.go, which has none:\n%s", out)
	}
	write("guide.md", "# Guide\n\nours and theirs\n")
	write("draft.md", "<<<<<<< HEAD\n") // untracked
	if out, err := sh("make", "-s", "conflicts"); err != nil || out != "" {
		t.Errorf("make conflicts once resolved: %v, want silence:\n%s", err, out)
	}
}
