package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestNewGame makes a game in a temporary folder as make new does, then
// builds it as its own module and runs it for 30 frames offscreen, and
// checks that a taken folder or a bad name is refused.
func TestNewGame(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mygame")
	root, _ := filepath.Abs("../..")
	if err := run([]string{"-name", "mygame", "-dir", dir, "-engine", root}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"main.go", "main_test.go", "jump.wav", "go.mod", "go.sum", "Makefile", "README.md"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("the new game has no %s", f)
		}
	}
	src, _ := os.ReadFile(filepath.Join(dir, "main.go"))
	if !strings.Contains(string(src), "Command mygame is a fixstep game") || strings.Contains(string(src), `"skeleton"`) {
		t.Errorf("names not changed in the new game:\n%s", src)
	}
	mod, _ := os.ReadFile(filepath.Join(dir, "go.mod"))
	if !strings.Contains(string(mod), "module mygame") || !strings.Contains(string(mod), "replace github.com/fixstep/fixstep => "+root) {
		t.Errorf("go.mod:\n%s", mod)
	}
	build := exec.Command("go", "build", "-o", filepath.Join(dir, "bin", "mygame"), ".")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the new game in its own module: %v\n%s", err, out)
	}
	game := exec.Command(filepath.Join(dir, "bin", "mygame"), "-frames", "30")
	game.Env = append(os.Environ(), "SDL_VIDEODRIVER=offscreen")
	out, err := game.CombinedOutput()
	if err != nil && os.Getenv("CI") != "true" && strings.Contains(string(out), "no display") {
		t.Skipf("no GL context: %s", out)
	}
	if err != nil || !strings.Contains(string(out), "stats frames=30 ") {
		t.Errorf("the new game: %v\n%s", err, out)
	}
	if err := run([]string{"-name", "mygame", "-dir", dir, "-engine", root}); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("a second make new into the same folder: %v", err)
	}
	if err := run([]string{"-name", "My-Game", "-engine", root}); err == nil || !strings.Contains(err.Error(), "is not a valid game name") {
		t.Errorf("a bad name: %v", err)
	}
}
