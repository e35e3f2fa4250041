package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fixstep/fixstep/app"
	"github.com/fixstep/fixstep/cmd/demo/arena"
	"github.com/fixstep/fixstep/engine"
	"github.com/fixstep/fixstep/input"
	fxreplay "github.com/fixstep/fixstep/replay"
)

// pressing is a simulated clock that presses and releases keys on a
// schedule, as a player would.
type pressing struct {
	*engine.Sim
	keys  *input.State
	frame int
}

func (p *pressing) Poll() error {
	p.frame++
	switch p.frame % 45 {
	case 1:
		p.keys.KeyEvent(input.KeyRight, true)
	case 20:
		p.keys.KeyEvent(input.KeySpace, true)
		p.keys.KeyEvent(input.KeySpace, false) // a tap inside one frame
	case 30:
		p.keys.KeyEvent(input.KeyRight, false)
		p.keys.KeyEvent(input.KeyLeft, true)
	case 44:
		p.keys.KeyEvent(input.KeyLeft, false)
	}
	return p.Sim.Poll()
}

func (p *pressing) EndTick() { p.keys.EndTick() }

// record runs the demo with scripted input on a jittery clock and records
// it, through its own Input (the devices turned into the tick's value),
// with the parameters a run of -n 80 -seed 5 -panic-at panicAt has. It
// returns what the run returned.
func record(t *testing.T, path string, panicAt int64) error {
	t.Helper()
	g := newGame(io.Discard)
	g.flags = flags{tps: 60, seed: 5, n: 80, panicAt: panicAt, seconds: 4, width: 1280, height: 720}
	if err := g.Start(1); err != nil {
		t.Fatal(err)
	}
	p := &pressing{Sim: engine.NewSim(engine.NewJitterFrames(8, 4*time.Millisecond, 40*time.Millisecond)), keys: &g.keys}
	h := &untilTick{game: g, stop: 900}
	loop, err := engine.NewLoop(engine.Config{TPS: 60, InputSize: arena.InputSize, Players: 1}, p, h)
	if err != nil {
		t.Fatal(err)
	}
	g.Attach(loop, nil)
	rec, err := fxreplay.Record(path, loop, fxreplay.Header{Params: demoParams(80, 5, panicAt, 60)})
	if err != nil {
		t.Fatal(err)
	}
	runErr := loop.Run(context.Background())
	if g.World.Body(g.Player).Pos.X == 0 {
		t.Fatal("the player never moved: the input did not reach the scene")
	}
	if err := rec.Close(runErr); err != nil {
		t.Fatal(err)
	}
	return runErr
}

// untilTick is the demo, headless, stopped after tick stop as -ticks does.
type untilTick struct {
	*game
	stop uint64
}

func (u *untilTick) Draw(engine.Frame) {}

func (u *untilTick) Update(t engine.Tick) error {
	if err := u.game.Update(t); err != nil {
		return err
	}
	if t.N+1 >= u.stop {
		return engine.ErrStopped
	}
	return nil
}

func TestRecordAndReplay(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.fxr")
	if err := record(t, path, 0); !errors.Is(err, engine.ErrStopped) {
		t.Fatal(err)
	}
	out, stderr, err := replay(t, path)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if !strings.Contains(stderr, "replay: 900 ticks, 15 state hashes verified") || !strings.HasPrefix(out, "state-hash=") {
		t.Errorf("replay: stdout %q\n%s", out, stderr)
	}
}

// TestReplayReproducesACrash records a run that panics at tick 500: the
// recording survives the panic, and its replay panics at the same tick
// with the same message (exit status 2), and says so.
func TestReplayReproducesACrash(t *testing.T) {
	path := filepath.Join(t.TempDir(), "crash.fxr")
	err := record(t, path, 500)
	var pe *engine.PanicError
	if !errors.As(err, &pe) || pe.Tick != 500 {
		t.Fatalf("the run returned %v, want a panic at tick 500", err)
	}
	_, stderr, err := replay(t, path)
	if !errors.As(err, &pe) || pe.Tick != 500 || pe.Error() != "engine: panic in Update at tick 500: demo: -panic-at 500" {
		t.Fatalf("the replay returned %v, want the same panic at tick 500", err)
	}
	for _, want := range []string{
		"replay: 501 ticks, 8 state hashes verified; the recorded run ended with: engine: panic in Update at tick 500: demo: -panic-at 500",
		"replay reproduced the recorded crash: the same panic at the same tick",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("replay said %q, want %q", stderr, want)
		}
	}
}

// TestReplayOfAKilledRun cuts a recording inside its last chunk, as kill -9
// would: it replays to the last complete chunk and says where it ends.
func TestReplayOfAKilledRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.fxr")
	record(t, path, 0)
	data, _ := os.ReadFile(path)
	os.WriteFile(path, data[:len(data)-40], 0o644)
	_, stderr, err := replay(t, path)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if !strings.Contains(stderr, "recording ends at tick 840: the rest was not written") ||
		!strings.Contains(stderr, "replay: 840 ticks, 14 state hashes verified") {
		t.Errorf("replay said %q", stderr)
	}
}

// tampered runs a hook before each tick's update: a test's change to the
// simulation, as a code change would make.
type tampered struct {
	*game
	before func(*arena.Scene, engine.Tick)
}

func (t *tampered) Update(tk engine.Tick) error {
	t.before(t.Scene, tk)
	return t.game.Update(tk)
}

func TestReplayReportsDivergence(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.fxr")
	record(t, path, 0)
	// The simulation changes at tick 299, as a code change would.
	g := newGame(io.Discard)
	err := app.Run(&tampered{game: g, before: func(sc *arena.Scene, tk engine.Tick) {
		if tk.N == 299 {
			sc.World.Body(sc.Player).Vel.Y += 0.001
		}
	}}, g.options([]string{"-headless", "-replay", path}, io.Discard, io.Discard, nil))
	var de *engine.DesyncError
	if !errors.As(err, &de) || de.Tick != 300 || de.Ours == de.Theirs {
		t.Errorf("replay of a changed simulation: %v, want a desync at tick 300", err)
	}
}

func TestReplayBadFiles(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.fxr")
	record(t, good, 0)
	data, _ := os.ReadFile(good)
	flip := append([]byte(nil), data...)
	flip[len(flip)/2] ^= 0x10
	for name, c := range map[string]struct {
		data []byte
		want string
	}{
		"corrupt": {flip, "checksum mismatch (corrupt)"},
		"png":     {[]byte("\x89PNG\r\n\x1a\n...."), "not a fixstep replay"},
	} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, c.data, 0o644)
		_, _, err := replay(t, p)
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, fxreplay.ErrBadFile) {
			t.Errorf("%s: %v, want replay.ErrBadFile saying %q", name, err, c.want)
		}
	}
	if _, _, err := replay(t, filepath.Join(dir, "missing.fxr")); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("missing file: %v", err)
	}
}

// demoParams are the Params of a run of -n n -seed seed -panic-at
// panicAt -tps tps, as the runner writes them (app.Options.SimFlags).
func demoParams(n int, seed uint64, panicAt int64, tps int) string {
	return fmt.Sprintf("demo\n-n=%d\n-seed=%d\n-panic-at=%d\n-tps=%d", n, seed, panicAt, tps)
}

// TestReplayParamsAreCheckedLikeFlags: a crafted recording whose header
// asks for 50 million bodies, or -5, is refused with the flag's message
// before anything is allocated for them; one that sets what is not a
// simulation flag, or a value the flag does not parse, is refused naming
// it; one that leaves a flag out replays with the flag's default, which
// its parameters then do not match.
func TestReplayParamsAreCheckedLikeFlags(t *testing.T) {
	dir := t.TempDir()
	for params, want := range map[string]string{
		"demo\n-n=50000000\n-seed=1\n-panic-at=0\n-tps=60": "-n 50000000: want 0 to 2000 bodies",
		"demo\n-n=-5\n-seed=1\n-panic-at=0\n-tps=60":       "-n -5: want 0 to 2000 bodies",
		"demo\n-n=3\n-seed=1\n-panic-at=-2\n-tps=60":       "-panic-at -2: must not be negative",
		"demo\n-n=3\n-tps=100000":                          "-tps 100000: want 1 to 1000",
		"demo\n-n=3\n-evil=1":                              `parameter "-evil=1": not one of this game's simulation flags (-n, -seed, -panic-at, -tps)`,
		"demo\n-n=3\n-bindings=/etc/passwd":                `parameter "-bindings=/etc/passwd": not one of this game's simulation flags`,
		"demo\n-n=x\n-seed=1":                              "-n=x: parse error",
		"demo\n-panic-at=0":                                "recorded with parameters",
		"n=3 seed=1 panic-at=0":                            "recorded with parameters",
	} {
		p := crafted(t, dir, 60, params)
		_, _, err := replay(t, p)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("params %q: %v, want %q", params, err, want)
		}
	}
}

// TestReplayTakesTheRecordingsParams: a recording made with -n 100 -seed 7
// -tps 30 replays with them, whatever the flags of the replay say, to the
// recorded state hash.
func TestReplayTakesTheRecordingsParams(t *testing.T) {
	p := filepath.Join(t.TempDir(), "run.fxr")
	want, stderr, err := run(t, "-headless", "-ticks", "120", "-sim-frame", "10ms", "-n", "100", "-seed", "7", "-tps", "30", "-bot", "4", "-record", p)
	if err != nil || !strings.HasPrefix(want, "state-hash=") {
		t.Fatalf("%v, stdout %q\n%s", err, want, stderr)
	}
	if h, err := fxreplay.ReadHeader(p); err != nil || h.Params != demoParams(100, 7, 0, 30) || h.TPS != 30 {
		t.Fatalf("the recording's header: %+v, %v", h, err)
	}
	other, _, _ := run(t, "-headless", "-ticks", "120", "-sim-frame", "10ms", "-n", "300", "-seed", "7", "-tps", "30", "-bot", "4")
	if other == want {
		t.Fatalf("-n 300 ends on -n 100's %q: -n changes nothing", want)
	}
	for _, args := range [][]string{{"-headless", "-replay", p}, {"-headless", "-replay", p, "-n", "300", "-tps", "60"}} {
		if out, stderr, err := run(t, args...); err != nil || out != want {
			t.Errorf("%q: %v, stdout %q, want %q\n%s", args, err, out, want, stderr)
		}
	}
}

// crafted writes a recording of no ticks with the header a crafted file
// would have: tps ticks per second and params.
func crafted(t *testing.T, dir string, tps int, params string) string {
	t.Helper()
	p := filepath.Join(dir, "crafted.fxr")
	r, err := fxreplay.RecordSession(p, tps, 1, arena.InputSize, fxreplay.Header{Params: params})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Close(nil); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestCompareRunsAlone: -compare reads recordings of runs alone as it
// reads a match's: a bot's run at 144 Hz and at 30 Hz frames holds the same
// ticks and state hashes, and a run of another bot differs at a tick the
// output names.
func TestCompareRunsAlone(t *testing.T) {
	dir := t.TempDir()
	rec := func(name, frame, bot string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		args := []string{"-headless", "-ticks", "300", "-n", "40", "-sim-frame", frame, "-bot", bot, "-record", p}
		if _, stderr, err := run(t, args...); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, stderr)
		}
		return p
	}
	fast, slow, other := rec("fast.fxr", "6.94ms", "3"), rec("slow.fxr", "33.3ms", "3"), rec("other.fxr", "6.94ms", "4")
	if out, _, err := run(t, "-compare", fast, slow); err != nil || out != "compare: the same 300 ticks and 5 state hashes\n" {
		t.Errorf("-compare of one bot at two frame rates: %v %q", err, out)
	}
	if _, _, err := run(t, "-compare", fast, other); err == nil || !strings.Contains(err.Error(), "differ first at tick 0: player 1's input is") {
		t.Errorf("-compare of two bots: %v", err)
	}
}
