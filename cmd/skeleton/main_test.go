package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain lets a test run the game's main in a child process: SDL must
// own the main thread, which the test runner keeps.
func TestMain(m *testing.M) {
	if os.Getenv("FIXSTEP_SKELETON_MAIN") == "1" {
		os.Args = append([]string{"skeleton"}, strings.Fields(os.Getenv("FIXSTEP_SKELETON_ARGS"))...)
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func skipWithoutGL(t *testing.T, out string) {
	t.Helper()
	if os.Getenv("CI") != "true" && strings.Contains(out, "no display") {
		t.Skipf("no GL context: %s", out)
	}
}

// TestSkeletonRuns runs the skeleton for 30 frames under SDL's offscreen
// driver, profiles on, so the template can never rot.
func TestSkeletonRuns(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "SDL_VIDEODRIVER=offscreen", "FIXSTEP_SKELETON_MAIN=1",
		"FIXSTEP_SKELETON_ARGS=-frames 30 -cpuprofile "+filepath.Join(dir, "cpu.prof"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		skipWithoutGL(t, string(out))
		t.Fatalf("skeleton failed: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "stats frames=30 ticks=") {
		t.Errorf("output:\n%s", out)
	}
	if st, err := os.Stat(filepath.Join(dir, "cpu.prof")); err != nil || st.Size() == 0 {
		t.Errorf("CPU profile not flushed at exit: %v", err)
	}
}

// TestMakeNew runs make new as a user would, builds the new game and runs it
// for a few frames, and checks that make new refuses a taken or bad name.
func TestMakeNew(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make")
	}
	root, _ := filepath.Abs("../..")
	// A folder whose name starts with _ is skipped by ./... patterns, so a
	// concurrent go vet ./... never sees the half-made game.
	newdir, err := os.MkdirTemp(filepath.Join(root, "cmd"), "_newtest")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		os.RemoveAll(newdir)
		os.Remove(filepath.Join(root, "bin", "mygame"))
	})
	rel, _ := filepath.Rel(root, newdir)
	make := func(args ...string) (string, error) {
		cmd := exec.Command("make", append([]string{"-s", "-C", root, "new", "NEWDIR=" + rel}, args...)...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := make("NAME=mygame")
	if err != nil {
		t.Fatalf("make new: %v\n%s", err, out)
	}
	if !strings.Contains(out, "Run it: ./bin/mygame") {
		t.Errorf("make new said:\n%s", out)
	}
	src, _ := os.ReadFile(filepath.Join(newdir, "mygame", "main.go"))
	if !strings.Contains(string(src), "Command mygame is a fixstep game") || strings.Contains(string(src), `"skeleton`) {
		t.Errorf("names not changed in the new game:\n%s", src)
	}
	run := exec.Command(filepath.Join(root, "bin", "mygame"), "-frames", "10")
	run.Env = append(os.Environ(), "SDL_VIDEODRIVER=offscreen")
	if out, err := run.CombinedOutput(); err != nil || !strings.Contains(string(out), "stats frames=10") {
		skipWithoutGL(t, string(out))
		t.Errorf("the new game: %v\n%s", err, out)
	}
	if out, err := make("NAME=mygame"); err == nil || !strings.Contains(out, "already exists") {
		t.Errorf("make new over an existing game: %v\n%s", err, out)
	}
	if out, err := make("NAME=My-Game"); err == nil || !strings.Contains(out, "is not a valid game name") {
		t.Errorf("make new with a bad name: %v\n%s", err, out)
	}
}
