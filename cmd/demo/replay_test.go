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

	"fixstep/engine"
	"fixstep/input"
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
// writes a replay.
func record(t *testing.T, path string) uint64 {
	t.Helper()
	o := options{tps: 60, seed: 5, n: 80}
	bindings, _ := loadBindings("")
	keys := &input.State{}
	sc, err := newScene(o.n, o.seed, input.NewActions(keys, bindings))
	if err != nil {
		t.Fatal(err)
	}
	startRecording(sc, keys)
	h := &headless{scene: sc, ticks: 900, quiet: true}
	p := &pressing{Sim: engine.NewSim(engine.NewJitterFrames(8, 4*time.Millisecond, 40*time.Millisecond)), keys: keys}
	loop, _ := engine.NewLoop(engine.Config{TPS: 60}, p, h)
	if err := loop.Run(context.Background()); !errors.Is(err, engine.ErrStopped) {
		t.Fatal(err)
	}
	if sc.world.Body(sc.player).Pos.X == 0 {
		t.Fatal("the player never moved: the input did not reach the scene")
	}
	if err := writeRecording(path, sc, o); err != nil {
		t.Fatal(err)
	}
	return sc.Hash()
}

func TestRecordAndReplay(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.fxr")
	record(t, path)
	var out bytes.Buffer
	if err := replay(path, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "replay ok: 900 ticks, 15 hashes match") {
		t.Errorf("replay said %q", out.String())
	}
}

func TestReplayReportsDivergence(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.fxr")
	record(t, path)
	data, _ := os.ReadFile(path)
	var r input.Replay
	if err := r.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	r.Hashes[4].Hash ^= 1 // tick 300's hash, as if the simulation had changed
	data, _ = r.MarshalBinary()
	os.WriteFile(path, data, 0o644)
	err := replay(path, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "replay diverged: first differing hash at tick 300") {
		t.Errorf("replay of a tampered file: %v", err)
	}
}

func TestReplayBadFiles(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.fxr")
	record(t, good)
	data, _ := os.ReadFile(good)
	for name, c := range map[string]struct {
		data []byte
		want string
	}{
		"truncated": {data[:len(data)/2], "checksum mismatch: the file is truncated or corrupt"},
		"png":       {[]byte("\x89PNG\r\n\x1a\n...."), "not a fixstep replay"},
	} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, c.data, 0o644)
		err := replay(p, &bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, input.ErrBadReplay) {
			t.Errorf("%s: %v, want ErrBadReplay saying %q", name, err, c.want)
		}
	}
	if err := replay(filepath.Join(dir, "missing.fxr"), &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("missing file: %v", err)
	}
}
