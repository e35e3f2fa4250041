package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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

// record runs the demo scene with scripted input on a jittery clock and
// records it as the demo does (startMatch: created before the first
// frame, closed with the run's end). It returns what the run returned.
func record(t *testing.T, path string, panicAt int64) error {
	t.Helper()
	o := options{tps: 60, seed: 5, n: 80, panicAt: panicAt}
	o.Record = path
	bindings, _ := loadBindings("")
	keys := &input.State{}
	sc, err := arena.New(o.n, o.seed, input.NewActions(keys, bindings))
	if err != nil {
		t.Fatal(err)
	}
	sc.PanicAt = panicAt
	h := &headless{Scene: sc, ticks: 900, quiet: true}
	p := &pressing{Sim: engine.NewSim(engine.NewJitterFrames(8, 4*time.Millisecond, 40*time.Millisecond)), keys: keys}
	m, err := startMatch(o, engine.Config{TPS: 60, InputSize: arena.InputSize}, p, h)
	if err != nil {
		t.Fatal(err)
	}
	defer m.close()
	runErr := m.loop.Run(context.Background())
	if sc.World.Body(sc.Player).Pos.X == 0 {
		t.Fatal("the player never moved: the input did not reach the scene")
	}
	if err := m.end(runErr); err != nil && !errors.Is(err, engine.ErrStopped) && !errors.As(err, new(*engine.PanicError)) {
		t.Fatal(err)
	}
	return runErr
}

func TestRecordAndReplay(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.fxr")
	if err := record(t, path, 0); !errors.Is(err, engine.ErrStopped) {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := replay(path, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "replay ok: 900 ticks, 15 state hashes verified") {
		t.Errorf("replay said %q", out.String())
	}
}

// TestReplayReproducesACrash records a run that panics at tick 500: the
// recording survives the panic, and its replay panics at the same tick
// with the same message, and says so.
func TestReplayReproducesACrash(t *testing.T) {
	path := filepath.Join(t.TempDir(), "crash.fxr")
	err := record(t, path, 500)
	var pe *engine.PanicError
	if !errors.As(err, &pe) || pe.Tick != 500 {
		t.Fatalf("the run returned %v, want a panic at tick 500", err)
	}
	var out bytes.Buffer
	if err := replay(path, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"replay reproduced the recorded crash: engine: panic in Update at tick 500: demo: -panic-at 500",
		"replay ok: 501 ticks, 8 state hashes verified, then the same panic at the same tick",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("replay said %q, want %q", out.String(), want)
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
	var out bytes.Buffer
	if err := replay(path, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "recording ends at tick 840: the rest was not written") ||
		!strings.Contains(out.String(), "replay ok: 840 ticks, 14 state hashes verified") {
		t.Errorf("replay said %q", out.String())
	}
}

func TestReplayReportsDivergence(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.fxr")
	record(t, path, 0)
	// The simulation changes at tick 299, as a code change would.
	err := replayWith(path, &bytes.Buffer{}, nil, func(sc *arena.Scene, tk engine.Tick) {
		if tk.N == 299 {
			sc.World.Body(sc.Player).Vel.Y += 0.001
		}
	})
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
		err := replay(p, &bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, fxreplay.ErrBadFile) {
			t.Errorf("%s: %v, want replay.ErrBadFile saying %q", name, err, c.want)
		}
	}
	if err := replay(filepath.Join(dir, "missing.fxr"), &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("missing file: %v", err)
	}
}

// TestReplayParamsAreCheckedLikeFlags: a crafted recording whose header
// asks for 50 million bodies, or -5, is refused with the flag's message
// before anything is allocated for them.
func TestReplayParamsAreCheckedLikeFlags(t *testing.T) {
	dir := t.TempDir()
	for params, want := range map[string]string{
		"n=50000000 panic-at=0": "-n 50000000: want 0 to 2000 bodies",
		"n=-5 panic-at=0":       "-n -5: want 0 to 2000 bodies",
		"n=3 evil=1":            "unknown parameter \"evil=1\"",
		"panic-at=0":            "no n=<bodies>",
	} {
		p := crafted(t, dir, 60, params)
		err := replay(p, &bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("params %q: %v, want %q", params, err, want)
		}
	}
	p := crafted(t, dir, 100000, "n=3 panic-at=0")
	if err := replay(p, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "-tps 100000: want 1 to 1000") {
		t.Errorf("TPS 100000: %v", err)
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
		if err := run(args, &bytes.Buffer{}, nil); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		return p
	}
	fast, slow, other := rec("fast.fxr", "6.94ms", "3"), rec("slow.fxr", "33.3ms", "3"), rec("other.fxr", "6.94ms", "4")
	var out bytes.Buffer
	if err := compare(fast, slow, &out); err != nil || out.String() != "compare: the same 300 ticks and 5 state hashes\n" {
		t.Errorf("-compare of one bot at two frame rates: %v %q", err, out.String())
	}
	if err := compare(fast, other, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "differ first at tick 0: player 1's input is") {
		t.Errorf("-compare of two bots: %v", err)
	}
}
