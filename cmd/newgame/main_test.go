package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fixstep/fixstep/app/apptest"
)

// TestNewGame makes a game in a temporary folder as make new does, then
// builds it and its test as their own module and runs it headless (plain
// and under -synctest, on one state hash; built without cgo by its make
// server, static, on the same hash) and for 30 frames offscreen,
// and checks that a taken folder or a bad name is refused.
func TestNewGame(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "mygame")
	root, _ := filepath.Abs("../..")
	if err := run([]string{"-name", "mygame", "-dir", dir, "-engine", root}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"main.go", "main_test.go", "hosting_test.go", "jump.wav", "go.mod", "go.sum", "Makefile", "README.md",
		"deploy/Dockerfile", "deploy/Dockerfile.dockerignore", "deploy/fleet.yaml", "deploy/allocation.yaml"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("the new game has no %s", f)
		}
	}
	src, _ := os.ReadFile(filepath.Join(dir, "main.go"))
	if !strings.Contains(string(src), "Command mygame is a fixstep game") || strings.Contains(string(src), `"skeleton"`) {
		t.Errorf("names not changed in the new game:\n%s", src)
	}
	if ig, _ := os.ReadFile(filepath.Join(dir, ".gitignore")); string(ig) != "/bin/\n*.test\n/mygame.png\n" {
		t.Errorf(".gitignore ignores more than the game writes (a sprite sheet's *.png would vanish from commits):\n%s", ig)
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
	// Its copied test builds there too, on the engine's shared helpers
	// (app/apptest).
	vet := exec.Command("go", "vet", ".")
	vet.Dir = dir
	if out, err := vet.CombinedOutput(); err != nil {
		t.Fatalf("go vet of the new game and its test, in its own module: %v\n%s", err, out)
	}
	// make test checks the game's code with fixvet first (go tool fixvet,
	// from the tool line of its go.mod): clean as made; a product planted
	// in Update is named by file and line, and fails it.
	fixvet := func() (string, error) {
		cmd := exec.Command("go", "tool", "fixvet", "./...")
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := fixvet(); err != nil {
		t.Fatalf("go tool fixvet in the new game: %v\n%s", err, out)
	}
	const update = "func (g *game) Update(t engine.Tick) error {\n"
	i := strings.Index(string(src), update)
	if i < 0 {
		t.Fatalf("the new game has no %q", update)
	}
	line := strings.Count(string(src[:i]), "\n") + 2
	planted := string(src[:i]) + update + "\tdrift := float64(t.N)\n\tdrift = drift*1.0001 + 0.5\n\t_ = drift\n" + string(src[i+len(update):])
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(planted), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := fixvet(); err == nil || !strings.Contains(out, fmt.Sprintf("main.go:%d:", line+1)) || !strings.Contains(out, "drift*1.0001 + 0.5") {
		t.Errorf("go tool fixvet with drift = drift*1.0001 + 0.5 planted in Update: %v, want a failure naming main.go:%d:\n%s", err, line+1, out)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	if mk, _ := os.ReadFile(filepath.Join(dir, "Makefile")); !strings.Contains(string(mk), "test: deps\n\t$(GO) tool fixvet ./...\n") {
		t.Errorf("the new game's make test does not run fixvet first:\n%s", mk)
	}

	// Every mode, without a display: a bot's headless run and the same
	// run under -synctest 8 end on one state hash.
	var hashes []string
	for _, args := range [][]string{{"-headless", "-ticks", "120", "-sim-frame", "16ms", "-bot", "3"},
		{"-headless", "-ticks", "120", "-sim-frame", "7ms", "-bot", "3", "-synctest", "8"}} {
		out, err := exec.Command(filepath.Join(dir, "bin", "mygame"), args...).Output()
		if err != nil || !strings.HasPrefix(string(out), "state-hash=") {
			t.Fatalf("the new game %q: %v, stdout %q, want state-hash=", args, err, out)
		}
		hashes = append(hashes, string(out))
	}
	if hashes[0] != hashes[1] {
		t.Errorf("the new game's -synctest 8 run ends on %q, its plain run on %q", hashes[1], hashes[0])
	}
	// It builds without cgo too (make server: bin/mygame-server), static,
	// and ends the headless run on the same hash.
	server := exec.Command("make", "server")
	server.Dir = dir
	if out, err := server.CombinedOutput(); err != nil {
		t.Fatalf("make server in the new game: %v\n%s", err, out)
	}
	if err := apptest.CheckStatic(filepath.Join(dir, "bin", "mygame-server")); err != nil {
		t.Error(err)
	}
	if out, err := exec.Command(filepath.Join(dir, "bin", "mygame-server"), "-headless", "-ticks", "120", "-sim-frame", "16ms", "-bot", "3").Output(); err != nil || string(out) != hashes[0] {
		t.Errorf("the new game built without cgo: %v, stdout %q, want the cgo build's %q", err, out, hashes[0])
	}
	game := exec.Command(filepath.Join(dir, "bin", "mygame"), "-frames", "30")
	game.Env = append(os.Environ(), "SDL_VIDEODRIVER=offscreen")
	out, err := game.CombinedOutput()
	if err != nil {
		apptest.SkipWithoutGL(t, string(out))
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

// TestStandardLibraryNames: a game named after a standard library package
// (log, arena, image) is refused before anything is written, with the fix
// in the message, and works with MODULE set; a failure later leaves no
// half-made folder behind.
func TestStandardLibraryNames(t *testing.T) {
	root, _ := filepath.Abs("../..")
	for _, name := range []string{"log", "arena", "image", "sort"} {
		dir := filepath.Join(t.TempDir(), name)
		err := run([]string{"-name", name, "-dir", dir, "-engine", root, "-tidy=false"})
		if err == nil || !strings.Contains(err.Error(), "MODULE=example.com/"+name) {
			t.Errorf("NAME=%s: %v, want a refusal that suggests MODULE=example.com/%s", name, err, name)
		}
		if _, err := os.Stat(dir); err == nil {
			t.Errorf("NAME=%s: %s was written", name, dir)
		}
	}
	dir := filepath.Join(t.TempDir(), "log")
	if err := run([]string{"-name", "log", "-module", "example.com/log", "-dir", dir, "-engine", root, "-tidy=false"}); err != nil {
		t.Errorf("NAME=log MODULE=example.com/log: %v", err)
	}
	if err := run([]string{"-name", "x", "-module", "bad module", "-dir", filepath.Join(t.TempDir(), "x"), "-engine", root}); err == nil {
		t.Error("a module path with a space was taken")
	}
	// A failing go mod tidy (no module proxy, no network) removes the folder.
	dir = filepath.Join(t.TempDir(), "offline")
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperNewGame$")
	cmd.Env = append(os.Environ(), "FIXSTEP_NEWGAME_DIR="+dir, "FIXSTEP_NEWGAME_ROOT="+root, "GOFLAGS=-mod=mod", "GOPROXY=off", "GOMODCACHE="+t.TempDir())
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "nothing was left in") {
		t.Errorf("make new with go mod tidy failing: %v\n%s", err, out)
	}
	if _, err := os.Stat(dir); err == nil {
		t.Errorf("a failed make new left %s behind", dir)
	}
}

// TestHelperNewGame runs make new in a child process whose environment a
// test sets (FIXSTEP_NEWGAME_DIR): it exits 1 when run fails.
func TestHelperNewGame(t *testing.T) {
	dir := os.Getenv("FIXSTEP_NEWGAME_DIR")
	if dir == "" {
		t.Skip("a helper for TestStandardLibraryNames")
	}
	if err := run([]string{"-name", "offline", "-dir", dir, "-engine", os.Getenv("FIXSTEP_NEWGAME_ROOT")}); err != nil {
		t.Fatal(err)
	}
}
