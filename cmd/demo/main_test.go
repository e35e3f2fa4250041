package main

import (
	"bytes"
	"context"
	"errors"
	"github.com/fixstep/fixstep/app/apptest"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fixstep/fixstep/app"
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

// run runs the demo as main does, in process (headless, or failing
// before a window opens): its stdout, its stderr and its error.
func run(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if benchmark(args) {
		err := runBench(args, &stdout, &stderr, nil)
		return stdout.String(), stderr.String(), err
	}
	g := newGame(&stderr)
	err := app.Run(g, g.options(args, &stdout, &stderr, nil))
	return stdout.String(), stderr.String(), err
}

// replay runs -headless -replay path in process.
func replay(t *testing.T, path string) (string, string, error) {
	t.Helper()
	return run(t, "-headless", "-replay", path)
}

// TestDeterminism runs the demo headless for exactly 3,600 ticks under
// frame intervals of 4.17, 6.94, 16.67 and 33.3 ms and a seeded jittery
// clock, its world stepped on 1 to 32 workers: one hash for all, the
// README's. The five runs are subtests run in
// parallel, as many at once as go test's -parallel (the cores): 18 s of
// CPU, which one after another made this the longest test of make test.
func TestDeterminism(t *testing.T) {
	// The README says which hash these runs print: it must be this one.
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	claim := regexp.MustCompile(`-headless -ticks 3600 -sim-frame 6\.94ms +# [^\n]*state-hash=([0-9a-f]{16})`).FindSubmatch(readme)
	if claim == nil {
		t.Fatal("README.md does not say which state hash -headless -ticks 3600 prints")
	}
	want := "state-hash=" + string(claim[1]) + "\n"
	for _, clock := range [][]string{
		{"-sim-frame", "16.67ms", "-workers", "1"}, {"-sim-frame", "4.17ms", "-workers", "2"}, {"-sim-frame", "6.94ms"},
		{"-sim-frame", "33.3ms", "-workers", "3"}, {"-sim-jitter", "42", "-workers", "32"},
	} {
		t.Run(strings.Join(clock, "="), func(t *testing.T) {
			t.Parallel()
			out, stderr, err := run(t, append([]string{"-headless", "-ticks", "3600"}, clock...)...)
			if err != nil || out != want || !strings.Contains(stderr, " ticks=3600 ") {
				t.Errorf("%q: %v, stdout %q, want the README's %q after 3600 ticks\n%s", clock, err, out, want, stderr)
			}
		})
	}
}

// TestWorkersKeepTheHash: a world of 2,000 bodies, large enough to step
// on the pool (physics.Workers.MinBodies), ends on one state hash on 1, 2,
// 3 and 8 workers.
func TestWorkersKeepTheHash(t *testing.T) {
	var want string
	for _, n := range []string{"1", "2", "3", "8"} {
		out, stderr, err := run(t, "-headless", "-ticks", "240", "-sim-frame", "16.67ms", "-n", "2000", "-workers", n)
		if err != nil || !strings.HasPrefix(out, "state-hash=") {
			t.Fatalf("-workers %s: %v, stdout %q\n%s", n, err, out, stderr)
		}
		if want == "" {
			want = out
		} else if out != want {
			t.Errorf("-workers %s: %q, -workers 1: %q", n, out, want)
		}
	}
}

func TestHeadlessTicksPrintsHash(t *testing.T) {
	a, stderr, err := run(t, "-headless", "-ticks", "600", "-sim-frame", "6.94ms", "-n", "50")
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := run(t, "-headless", "-ticks", "600", "-sim-frame", "33.3ms", "-n", "50")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(a, "state-hash=") || a != b {
		t.Errorf("stdout %q and %q: want the same state-hash=", a, b)
	}
	if !strings.Contains(stderr, "stats frames=") || !strings.Contains(stderr, " ticks=600 ") {
		t.Errorf("no stats line with ticks=600 in\n%s", stderr)
	}
}

// TestFlagLimitsAccepted: each limit itself runs (headless, a tick).
func TestFlagLimitsAccepted(t *testing.T) {
	for _, args := range [][]string{{"-tps", "1000"}, {"-n", "2000"}, {"-load", "1s"}, {"-width", "7680", "-height", "1"}, {"-seconds", "1e6"},
		{"-sim-frame", "100us"}, {"-sim-frame", "1s"}, {"-fps-cap", "1"}, {"-tps", "1"}, {"-n", "0"}, {"-workers", "1"}, {"-workers", "256"}} {
		if _, stderr, err := run(t, append([]string{"-headless", "-ticks", "1", "-n", "10"}, args...)...); err != nil {
			t.Errorf("%q: %v, want the limit itself accepted\n%s", args, err, stderr)
		}
	}
	if _, err := parseBench([]string{"-n", "1000000", "-bench", "sprites", "-textures", "256"}, io.Discard); err != nil {
		t.Errorf("-bench sprites at its limits: %v", err)
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
		// Each limit at its boundary: the max is accepted (above), max+1 is not.
		{[]string{"-tps", "0", "-headless"}, "-tps 0: want 1 to 1000 ticks per second"},
		{[]string{"-tps", "1001", "-headless"}, "-tps 1001: want 1 to 1000 ticks per second"},
		{[]string{"-n", "2001", "-headless"}, "-n 2001: want 0 to 2000 bodies"},
		{[]string{"-n", "-5", "-headless"}, "-n -5: want 0 to 2000 bodies"},
		{[]string{"-headless", "-seconds", "-1"}, "-seconds -1: want more than 0"},
		{[]string{"-headless", "-seconds", "NaN"}, "-seconds NaN: want more than 0"},
		{[]string{"-headless", "-seconds", "Inf"}, "-seconds +Inf: want more than 0"},
		{[]string{"-headless", "-sim-frame", "1ns"}, "-sim-frame 1ns: want 100µs to 1s"},
		{[]string{"-headless", "-sim-frame", "5ms", "-sim-jitter", "3"}, "-sim-frame and -sim-jitter do not go together"},
		{[]string{"-sim-jitter", "3"}, "need -headless"},
		{[]string{"-workers", "-1", "-headless"}, "-workers -1: want 1 to 256 (0: the machine's cores)"},
		{[]string{"-workers", "257", "-headless"}, "-workers 257: want 1 to 256 (0: the machine's cores)"},
		{[]string{"-fps-cap", "NaN"}, "-fps-cap NaN: want 0"},
		{[]string{"-fps-cap", "0.01"}, "-fps-cap 0.01: want 0"},
		{[]string{"-width", "0"}, "-width 0 -height 720: want 1 to 7680 each"},
		{[]string{"-height", "16384"}, "-width 1280 -height 16384: want 1 to 7680 each"},
		{[]string{"-record", "a.fxr", "-replay", "b.fxr"}, "-record and -replay together"},
		{[]string{"-record", "a.fxr", "-bench", "sprites"}, "-bench takes -n, -textures, -seed, -nodraw, -stream and the profiling flags: flag provided but not defined: -record"},
		{[]string{"-bench", "bunnies"}, `-bench "bunnies": the only benchmark is sprites`},
		{[]string{"-stream", "fast", "-bench", "sprites"}, `-stream "fast": want auto, persistent, mapped or copied`},
		{[]string{"-headless", "-frames", "5"}, "-headless and -frames or -screenshot do not go together"},
		{[]string{"-record", "/dev/null", "-headless"}, "/dev/null: not a regular file"},
		{[]string{"-n", "1000001", "-bench", "sprites"}, "-n 1000001: want 0 to 1000000 sprites"},
		{[]string{"-textures", "257", "-bench", "sprites"}, "-textures 257: want 1 to 256"},
		{[]string{"-load", "-5ms"}, "-load -5ms: want 0 to 1s"},
		{[]string{"-load", "1.001s"}, "-load 1.001s: want 0 to 1s"},
		{[]string{"-bindings", "/nonexistent"}, "no such file"},
		{[]string{"-record", "x.out", "-cpuprofile", "x.out", "-headless"}, "-cpuprofile x.out and -record x.out are the same file"},
		{[]string{"-replay", "x.fxr", "-cpuprofile", "./x.fxr"}, "-cpuprofile ./x.fxr and -replay x.fxr are the same file"},
		{[]string{"-trace", "t.out", "-memprofile", "t.out", "-headless"}, "are the same file"},
		{[]string{"-bindings", "b.txt", "-memprofile", "b.txt", "-headless"}, "-memprofile b.txt and -bindings b.txt are the same file"},
		{[]string{"-compare", "a.fxr"}, "-compare takes two recordings"},
	} {
		_, _, err := run(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("run(%q) = %v, want an error containing %q", c.args, err, c.want)
		}
	}
}

// TestBenchSprites runs the sprites benchmark under SDL's offscreen driver
// in mapped streaming, for its 4 seconds: it names its GL renderer, says
// how it streamed and how long its exit took, and ends with a RESULT line
// of measured frames.
func TestBenchSprites(t *testing.T) {
	out, err := runDemo(t, []string{"SDL_VIDEODRIVER=offscreen"}, "-bench", "sprites", "-n", "300", "-textures", "3", "-stream", "mapped")
	if err != nil {
		if os.Getenv("CI") != "true" && strings.Contains(out, "no display") {
			t.Skipf("no GL context: %s", out)
		}
		t.Fatalf("demo -bench failed: %v\n%s", err, out)
	}
	for _, re := range []string{
		`(?m)^GL_RENDERER="[^"]+" GL_VERSION="[^"]+"$`,
		`(?m)^EXIT stream=mapped gpu_waits_per_frame=[0-9.]+ gpu_wait_ms_per_frame=[0-9.]+ renderer_close_ms=[0-9.]+ close_gpu_wait_ms=[0-9.]+ exit_ms=[0-9.]+$`,
		`(?m)^RESULT name=fixstep n=300 textures=3 frames=[1-9][0-9]* ms_per_frame_median=[0-9.]+ fps=[0-9.]+ cpu_ms_per_frame=[0-9.]+ main_cpu_ms_per_frame=[0-9.]+$`,
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("no line matching %s in\n%s", re, out)
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
	if !regexp.MustCompile(` stream=(persistent|mapped) startup_ms=[0-9.]+ close_ms=[0-9.]+ close_gpu_wait_ms=[0-9.]+ gl_objects=0`).MatchString(out) {
		t.Errorf("no streaming mode and timed close in the stats line of\n%s", out)
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
		g := &debrisCounter{Scene: sc, stop: 600}
		loop, err := engine.NewLoop(engine.Config{InputSize: arena.InputSize}, engine.NewSim(engine.ConstantFrames(16*time.Millisecond)), g)
		if err != nil {
			t.Fatal(err)
		}
		if err := loop.Run(context.Background()); !errors.Is(err, engine.ErrStopped) {
			t.Fatalf("debris limit %d: the run ended with %v", limit, err)
		}
		if g.updates != 600 || sc.World.Ticks() != 600 {
			t.Fatalf("debris limit %d: %d ticks ran, the world's count %d, want 600", limit, g.updates, sc.World.Ticks())
		}
		return engine.StateHash(sc.Save(nil)), g.seen
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

// debrisCounter runs the scene alone until tick stop, and counts the most
// debris particles alive after a tick.
type debrisCounter struct {
	*arena.Scene
	stop          uint64
	seen, updates int
}

func (g *debrisCounter) Draw(engine.Frame) {}

func (g *debrisCounter) Update(t engine.Tick) error {
	if err := g.Scene.Update(t); err != nil {
		return err
	}
	g.updates++
	n := 0
	for _, p := range g.Debris.P {
		if p.Life > 0 {
			n++
		}
	}
	g.seen = max(g.seen, n)
	if t.N+1 >= g.stop {
		return engine.ErrStopped
	}
	return nil
}

// TestZeroGarbage runs the windowed demo for 1,000 frames after its
// warm-up under the offscreen driver, unpaced: input, updates, physics,
// debris, draw and overlay together allocate nothing and the GC never runs.
// A run with garbage is made again, up to apptest.GarbageRuns runs
// (apptest.NoGarbage says why): a demo that allocates in its frames fails
// every run.
func TestZeroGarbage(t *testing.T) {
	var seen []string
	for range apptest.GarbageRuns {
		out, err := runDemo(t, []string{"SDL_VIDEODRIVER=offscreen"},
			"-frames", "1120", "-fps-cap", "4000", "-width", "320", "-height", "180", "-n", "100")
		if err != nil {
			if os.Getenv("CI") != "true" && strings.Contains(out, "no display") {
				t.Skipf("no GL context: %s", out)
			}
			t.Fatalf("demo failed: %v\n%s", err, out)
		}
		if strings.Contains(out, " allocs_per_frame=0.000 ") && strings.Contains(out, " gc_cycles=0 ") {
			return
		}
		seen = append(seen, out)
	}
	t.Errorf("garbage in the steady state of every run:\n%s", strings.Join(seen, "\n"))
}
