package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fixstep/fixstep/cmd/demo/arena"
	"github.com/fixstep/fixstep/engine"
	"github.com/fixstep/fixstep/input"
)

// TestMain lets a test run the demo's main in a child process of the test
// binary: SDL must own the main thread, which the test runner keeps.
func TestMain(m *testing.M) {
	if os.Getenv("FIXSTEP_DEMO_MAIN") == "1" {
		if os.Getenv("FIXSTEP_DEMO_READY") == "1" {
			// Package main's variables are set, signals among them: say
			// so on fd 3, for tests that signal the first moments.
			ready := os.NewFile(3, "ready")
			ready.Write([]byte{1})
			ready.Close()
		}
		os.Args = append([]string{"demo"}, strings.Fields(os.Getenv("FIXSTEP_DEMO_ARGS"))...)
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// runDemo runs the demo's main with args in a child process.
func runDemo(t *testing.T, env []string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), append(env, "FIXSTEP_DEMO_MAIN=1", "FIXSTEP_DEMO_ARGS="+strings.Join(args, " "))...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestDeterminism runs the demo's world for exactly 3,600 ticks under frame
// intervals of 4.17, 6.94, 16.67 and 33.3 ms and a seeded jittery clock:
// one hash for all.
func TestDeterminism(t *testing.T) {
	hash := func(frames engine.Frames) (uint64, uint64) {
		bindings, err := loadBindings("")
		if err != nil {
			t.Fatal(err)
		}
		sc, err := arena.New(300, 1, input.NewActions(&input.State{}, bindings))
		if err != nil {
			t.Fatal(err)
		}
		h := &headless{Scene: sc, ticks: 3600, quiet: true}
		loop, err := engine.NewLoop(engine.Config{TPS: 60, InputSize: arena.InputSize}, engine.NewSim(frames), h)
		if err != nil {
			t.Fatal(err)
		}
		if err := loop.Run(context.Background()); !errors.Is(err, engine.ErrStopped) {
			t.Fatal(err)
		}
		return sc.Hash(), sc.World.Ticks()
	}
	want, ticks := hash(engine.ConstantFrames(16_670 * time.Microsecond))
	if ticks != 3600 {
		t.Fatalf("ran %d ticks, want 3600", ticks)
	}
	// The README says which hash these runs print: it must be this one.
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	claim := regexp.MustCompile(`-headless -ticks 3600 -sim-frame 6\.94ms +# [^\n]*state-hash=([0-9a-f]{16})`).FindSubmatch(readme)
	if claim == nil {
		t.Error("README.md does not say which state hash -headless -ticks 3600 prints")
	} else if got := fmt.Sprintf("%016x", want); string(claim[1]) != got {
		t.Errorf("README.md says -headless -ticks 3600 prints state-hash=%s; it prints %s", claim[1], got)
	}
	for name, f := range map[string]engine.Frames{
		"4.17ms": engine.ConstantFrames(4_170 * time.Microsecond),
		"6.94ms": engine.ConstantFrames(6_940 * time.Microsecond),
		"33.3ms": engine.ConstantFrames(33_300 * time.Microsecond),
		"jitter": engine.NewJitterFrames(42, 4*time.Millisecond, 40*time.Millisecond),
	} {
		if got, n := hash(f); got != want || n != 3600 {
			t.Errorf("%s frames: hash %016x after %d ticks, want %016x after 3600", name, got, n, want)
		}
	}
}

func TestHeadlessTicksPrintsHash(t *testing.T) {
	var a, b bytes.Buffer
	if err := run([]string{"-headless", "-ticks", "600", "-sim-frame", "6.94ms", "-n", "50"}, &a, nil); err != nil {
		t.Fatal(err)
	}
	if err := run([]string{"-headless", "-ticks", "600", "-sim-frame", "33.3ms", "-n", "50"}, &b, nil); err != nil {
		t.Fatal(err)
	}
	last := func(s string) string {
		lines := strings.Split(strings.TrimSpace(s), "\n")
		return lines[len(lines)-1]
	}
	if !strings.HasPrefix(last(a.String()), "state-hash=") || last(a.String()) != last(b.String()) {
		t.Errorf("last lines %q and %q: want the same state-hash=", last(a.String()), last(b.String()))
	}
	if !strings.Contains(a.String(), "stats frames=") || !strings.Contains(a.String(), " ticks=600 ") {
		t.Errorf("no stats line with ticks=600 in\n%s", a.String())
	}
}

func TestFlagLimitsAccepted(t *testing.T) {
	for _, args := range [][]string{{"-tps", "1000"}, {"-n", "2000"}, {"-load", "1s"}, {"-width", "7680", "-height", "1"}, {"-headless", "-seconds", "1e6"},
		{"-headless", "-sim-frame", "100us"}, {"-headless", "-sim-frame", "1s"}, {"-fps-cap", "1"}, {"-tps", "1"}, {"-n", "0"}, {"-n", "50000", "-bench", "sprites"}} {
		if _, err := parse(args); err != nil {
			t.Errorf("parse(%q) = %v, want the limit itself accepted", args, err)
		}
	}
}

func TestBadFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-screenshot", "x.png"}, "-screenshot needs -frames N"},
		{[]string{"-ticks", "5"}, "need -headless"},
		{[]string{"-vsync", "sometimes", "-frames", "1"}, `unknown vsync mode "sometimes"`},
		{[]string{"-tps", "-1", "-headless"}, "-tps -1: want 1 to 1000 ticks per second"},
		// Each limit at its boundary: the max is accepted (below), max+1 is not.
		{[]string{"-tps", "0", "-headless"}, "-tps 0: want 1 to 1000 ticks per second"},
		{[]string{"-tps", "1001", "-headless"}, "-tps 1001: want 1 to 1000 ticks per second"},
		{[]string{"-n", "2001", "-headless"}, "-n 2001: want 0 to 2000 bodies"},
		{[]string{"-n", "-5", "-headless"}, "-n -5: want 0 to 2000 bodies"},
		{[]string{"-headless", "-seconds", "-1"}, "-seconds -1: want more than 0"},
		{[]string{"-headless", "-seconds", "NaN"}, "-seconds NaN: want more than 0"},
		{[]string{"-headless", "-seconds", "Inf"}, "-seconds +Inf: want more than 0"},
		{[]string{"-headless", "-sim-frame", "1ns"}, "-sim-frame 1ns: want 100µs to 1s"},
		{[]string{"-fps-cap", "NaN"}, "-fps-cap NaN: want 0"},
		{[]string{"-fps-cap", "0.01"}, "-fps-cap 0.01: want 0"},
		{[]string{"-width", "0"}, "-width 0 -height 720: want 1 to 7680 each"},
		{[]string{"-height", "16384"}, "-width 1280 -height 16384: want 1 to 7680 each"},
		{[]string{"-record", "a.fxr", "-replay", "b.fxr"}, "-replay and -record do not go together"},
		{[]string{"-record", "a.fxr", "-bench", "sprites"}, "-bench and -record do not go together"},
		{[]string{"-headless", "-frames", "5"}, "-headless and -frames do not go together"},
		{[]string{"-record", "/dev/null", "-headless"}, "/dev/null: not a regular file"},
		{[]string{"-n", "1000001", "-bench", "sprites"}, "-n 1000001: want 0 to 1000000 sprites"},
		{[]string{"-load", "-5ms"}, "-load -5ms: want 0 to 1s"},
		{[]string{"-load", "1.001s"}, "-load 1.001s: want 0 to 1s"},
		{[]string{"-bindings", "/nonexistent"}, "no such file"},
		{[]string{"-record", "x.out", "-cpuprofile", "x.out", "-headless"}, "-cpuprofile x.out and -record x.out are the same file"},
		{[]string{"-replay", "x.fxr", "-cpuprofile", "./x.fxr"}, "-cpuprofile ./x.fxr and -replay x.fxr are the same file"},
		{[]string{"-trace", "t.out", "-memprofile", "t.out", "-headless"}, "are the same file"},
	} {
		err := run(c.args, &bytes.Buffer{}, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("run(%q) = %v, want an error containing %q", c.args, err, c.want)
		}
	}
}

// TestWindowedRun runs the windowed demo for 30 frames under SDL's
// offscreen driver and checks its stats line and screenshot.
func TestWindowedRun(t *testing.T) {
	shot := filepath.Join(t.TempDir(), "shot.png")
	out, err := runDemo(t, []string{"SDL_VIDEODRIVER=offscreen"}, "-frames", "30", "-screenshot", shot, "-n", "100")
	if err != nil {
		if os.Getenv("CI") != "true" && strings.Contains(out, "no display") {
			t.Skipf("no GL context: %s", out)
		}
		t.Fatalf("demo failed: %v\n%s", err, out)
	}
	if !strings.Contains(out, "stats frames=30 ") || !strings.Contains(out, " quality=") || !strings.Contains(out, " gl_objects=0") {
		t.Errorf("no stats line for 30 frames in\n%s", out)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if s := img.Bounds().Size(); s.X != 1280 || s.Y != 720 {
		t.Errorf("screenshot %v, want 1280x720", s)
	}
}

func TestNoDisplayIsAClearError(t *testing.T) {
	out, err := runDemo(t, []string{"SDL_VIDEODRIVER=x11", "DISPLAY=:199"}, "-frames", "1")
	if err == nil {
		t.Fatalf("demo ran without a display:\n%s", out)
	}
	if !strings.Contains(out, "demo: gfx: no display: SDL video init failed") || !strings.Contains(out, "SDL_VIDEODRIVER=x11 is set") {
		t.Errorf("unclear error for a missing display:\n%s", out)
	}
}

// TestQualityNeverChangesTheSimulation runs the scene with the debris pool
// off and full: the state hash must not move, since quality is visual.
func TestQualityNeverChangesTheSimulation(t *testing.T) {
	hash := func(limit int) (hash uint64, debris int) {
		bindings, err := loadBindings("")
		if err != nil {
			t.Fatal(err)
		}
		sc, err := arena.New(200, 3, input.NewActions(&input.State{}, bindings))
		if err != nil {
			t.Fatal(err)
		}
		sc.Debris.Limit = limit
		h := &headless{Scene: sc, ticks: 600, quiet: true}
		g := &debrisCounter{headless: h}
		loop, err := engine.NewLoop(engine.Config{InputSize: arena.InputSize}, engine.NewSim(engine.ConstantFrames(16*time.Millisecond)), g)
		if err != nil {
			t.Fatal(err)
		}
		if err := loop.Run(context.Background()); !errors.Is(err, engine.ErrStopped) {
			t.Fatalf("debris limit %d: the run ended with %v", limit, err)
		}
		if g.updates != 600 {
			t.Fatalf("debris limit %d: %d ticks ran, want 600", limit, g.updates)
		}
		return sc.Hash(), g.seen
	}
	a, none := hash(0)
	b, full := hash(arena.MaxDebris)
	if none != 0 || full == 0 {
		t.Fatalf("particles alive: %d with no debris, %d with full debris; want 0 and some", none, full)
	}
	if a != b {
		t.Errorf("hash with no debris %016x, with full debris %016x", a, b)
	}
}

// debrisCounter counts the most debris particles alive after a tick.
type debrisCounter struct {
	*headless
	seen, updates int
}

func (g *debrisCounter) Update(t engine.Tick) error {
	err := g.headless.Update(t)
	g.updates++
	n := 0
	for _, p := range g.Debris.P {
		if p.Life > 0 {
			n++
		}
	}
	g.seen = max(g.seen, n)
	return err
}

// TestZeroGarbage runs the windowed demo for 1,000 frames after its
// warm-up under the offscreen driver, unpaced: input, updates, physics,
// debris, draw and overlay together allocate nothing and the GC never runs.
func TestZeroGarbage(t *testing.T) {
	out, err := runDemo(t, []string{"SDL_VIDEODRIVER=offscreen"},
		"-frames", "1120", "-fps-cap", "4000", "-width", "320", "-height", "180", "-n", "100")
	if err != nil {
		if os.Getenv("CI") != "true" && strings.Contains(out, "no display") {
			t.Skipf("no GL context: %s", out)
		}
		t.Fatalf("demo failed: %v\n%s", err, out)
	}
	if !strings.Contains(out, " allocs_per_frame=0.000 ") || !strings.Contains(out, " gc_cycles=0 ") {
		t.Errorf("garbage in the steady state:\n%s", out)
	}
}
