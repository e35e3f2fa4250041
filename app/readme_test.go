package app_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestREADMEGame: the whole game the README shows builds as pasted, runs
// headless, and ends on the state hash the README says it does, under a
// sync test too: the guide cannot drift from the API.
func TestREADMEGame(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "<!-- the game: app/readme_test.go builds and runs it -->\n```go\n")
	code, _, ok2 := strings.Cut(rest, "```\n")
	if !ok || !ok2 {
		t.Fatal("README.md has no game code block after its marker")
	}
	m := regexp.MustCompile("-ticks 120` ends on\\s+`state-hash=([0-9a-f]{16})`").FindStringSubmatch(string(readme))
	if m == nil {
		t.Fatal("README.md does not say which state hash the game ends on")
	}
	// Inside the module, so that it builds against this checkout; testdata
	// keeps it out of ./... patterns.
	dir := filepath.Join("testdata", "readmegame")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "box")
	if out, err := exec.Command("go", "build", "-o", bin, "./"+filepath.ToSlash(dir)).CombinedOutput(); err != nil {
		t.Fatalf("the README's game does not build: %v\n%s", err, out)
	}
	for _, args := range [][]string{
		{"-headless", "-ticks", "120", "-sim-frame", "16ms"},
		{"-headless", "-ticks", "120", "-sim-frame", "40ms", "-synctest", "8"},
	} {
		out, err := exec.Command(bin, args...).Output()
		if got := strings.TrimSpace(string(out)); err != nil || got != "state-hash="+m[1] {
			t.Errorf("box %s: %v, stdout %q, want the README's state-hash=%s", strings.Join(args, " "), err, got, m[1])
		}
	}
}
