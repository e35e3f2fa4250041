package replay

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fixstep/fixstep/engine"
)

// aimer is a small game with an input of its own: its Input turns a mouse
// in window pixels into aim in world units through the window's size, as
// a shooter does, and its Update reads only the tick's input. The window
// is resized mid-run: a recording of the mouse in pixels would replay to
// another world; a recording of the game's input replays exactly.
type aimer struct {
	winW, mouseX int     // the devices: window width and mouse, in pixels
	x, vx        float64 // the simulation
	shots        int
	panicAt      uint64 // panic in Update at this tick (0: never)
	bugAt        uint64 // simulate differently from this tick on (0: never)
}

const worldWidth = 40.0 // world units across the window, whatever its size

func (g *aimer) Input(t engine.Tick, dst []byte) {
	aim := float32(float64(g.mouseX) / float64(g.winW) * worldWidth) // pixels to world units
	binary.LittleEndian.PutUint32(dst, uint32(int32(aim*1000)))      // millimetres
	if t.N%30 == 0 {
		dst[4] = 1 // fire
	}
}

func (g *aimer) Update(t engine.Tick) error {
	if g.panicAt != 0 && t.N == g.panicAt {
		panic("the ship left the world")
	}
	in := t.Input.Player(0)
	aim := float64(int32(binary.LittleEndian.Uint32(in))) / 1000
	g.vx = float64((aim-g.x)*0.1) + g.vx*0.9
	if g.bugAt != 0 && t.N >= g.bugAt {
		g.vx += 1e-9
	}
	g.x += float64(g.vx * t.DtSeconds())
	if in[4] == 1 {
		g.shots++
	}
	return nil
}

// Begin moves the mouse and, at frame 40, resizes the window.
func (g *aimer) Begin(f engine.Frame) error {
	g.mouseX = int(f.FirstTick*7) % g.winW
	if f.FirstTick > 100 && g.winW == 800 {
		g.winW = 1600
	}
	return nil
}

func (g *aimer) Draw(engine.Frame) {}

func (g *aimer) Save(dst []byte) []byte {
	dst = binary.LittleEndian.AppendUint64(dst, uint64(g.shots))
	dst = binary.LittleEndian.AppendUint64(dst, uint64(int64(g.x*1e6)))
	return binary.LittleEndian.AppendUint64(dst, uint64(int64(g.vx*1e6)))
}

func (g *aimer) Load(src []byte) error { return errors.New("not used") }

// run runs g for ticks ticks on a simulated clock of jittery frames, with
// a Recorder or a Player set up by start, and returns Run's error.
func run(t *testing.T, g *aimer, ticks uint64, seed uint64, start func(*engine.Loop) error) error {
	t.Helper()
	sim := &stopAt{Sim: engine.NewSim(engine.NewJitterFrames(seed, 5*time.Millisecond, 40*time.Millisecond)), ticks: ticks}
	l, err := engine.NewLoop(engine.Config{TPS: 60, InputSize: 5}, sim, g)
	if err != nil {
		t.Fatal(err)
	}
	sim.ts = l.Timestep()
	if err := start(l); err != nil {
		return err
	}
	return l.Run(context.Background())
}

// stopAt ends the run once ticks ticks have run.
type stopAt struct {
	*engine.Sim
	ts    *engine.Timestep
	ticks uint64
}

func (s *stopAt) Poll() error {
	if s.ts.Totals().Ticks >= s.ticks {
		return engine.ErrStopped
	}
	return s.Sim.Poll()
}

func record(t *testing.T, path string, g *aimer, ticks uint64) *Recorder {
	t.Helper()
	var rec *Recorder
	err := run(t, g, ticks, 1, func(l *engine.Loop) (err error) {
		rec, err = Record(path, l, Header{Params: "level=1", Seed: 7})
		return err
	})
	if err := rec.Close(err); err != nil {
		t.Fatal(err)
	}
	if !errors.Is(err, engine.ErrStopped) {
		t.Fatalf("recording: %v", err)
	}
	return rec
}

func play(t *testing.T, path string, g *aimer) (*Player, error) {
	t.Helper()
	var p *Player
	err := run(t, g, 1<<40, 2, func(l *engine.Loop) (err error) {
		p, err = Play(path, l, Header{Params: "level=1", Seed: 7})
		return err
	})
	if p == nil {
		return nil, err
	}
	return p, p.Close(err)
}

// TestReplayAcrossAResize: a run whose window is resized mid-run replays
// exactly in a window of another size, on other frame timings: every
// state hash matches, and the replay stops at the recording's last tick.
func TestReplayAcrossAResize(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.fxr")
	orig := &aimer{winW: 800}
	rec := record(t, path, orig, 600)
	if orig.winW != 1600 {
		t.Fatal("the window was never resized: the test tests nothing")
	}
	g := &aimer{winW: 1024}
	p, err := play(t, path, g)
	if err != nil {
		t.Fatalf("replay: %v (%s)", err, p.Report())
	}
	if p.ran != rec.Ticks() || p.Verified() != int(rec.Ticks()/60)+1 && p.Verified() != int(rec.Ticks()/60) {
		t.Errorf("replay ran %d ticks and verified %d hashes; the recording has %d ticks", p.ran, p.Verified(), rec.Ticks())
	}
	if g.x != orig.x || g.shots != orig.shots {
		t.Errorf("replay ended at x=%v after %d shots, the run at x=%v after %d", g.x, g.shots, orig.x, orig.shots)
	}
	if want := "replay: "; !strings.HasPrefix(p.Report(), want) {
		t.Errorf("report %q", p.Report())
	}
}

// TestReplayFindsTheTickThatDiffers: a game that simulates differently
// from tick 200 fails its replay with an engine.DesyncError at the first
// hash after it, naming the recording and the two hashes.
func TestReplayFindsTheTickThatDiffers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.fxr")
	record(t, path, &aimer{winW: 800}, 600)
	_, err := play(t, path, &aimer{winW: 800, bugAt: 200})
	var de *engine.DesyncError
	if !errors.As(err, &de) || de.Tick != 240 || de.Other != "the recording" || de.Ours == de.Theirs || de.Ours == 0 ||
		!strings.HasPrefix(err.Error(), "replay "+path+": desync before tick 240: the recording's state hash is ") {
		t.Fatalf("replay of a changed game: %v, want a desync before tick 240", err)
	}
}

// TestReplayOfADamagedRecording: a recording cut short (a killed run)
// replays to its last whole chunk and says so; a flipped byte is an error
// naming the ticks; a recording made with other parameters is refused
// naming them.
func TestReplayOfADamagedRecording(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "run.fxr")
	record(t, path, &aimer{winW: 800}, 600)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "cut.fxr")
	os.WriteFile(cut, data[:len(data)*2/3], 0o644)
	p, err := play(t, cut, &aimer{winW: 800})
	if err != nil || p.ran == 0 || p.ran >= 600 || !strings.Contains(p.Report(), "recording ends at tick") {
		t.Errorf("a truncated recording: %v, ran %d ticks, report %q", err, p.ran, p.Report())
	}
	flip := filepath.Join(dir, "flip.fxr")
	bad := append([]byte(nil), data...)
	bad[len(bad)/2] ^= 0x10
	os.WriteFile(flip, bad, 0o644)
	if _, err := play(t, flip, &aimer{winW: 800}); err == nil || !strings.Contains(err.Error(), "chunk of ticks") {
		t.Errorf("a corrupt recording: %v, want an error naming the chunk's ticks", err)
	}
	err = run(t, &aimer{winW: 800}, 10, 1, func(l *engine.Loop) error {
		_, err := Play(path, l, Header{Params: "level=2", Seed: 7})
		return err
	})
	if err == nil || !strings.Contains(err.Error(), `recorded with parameters "level=1", this run has "level=2"`) {
		t.Errorf("other parameters: %v", err)
	}
}

// TestReplayReproducesAPanic: a run that panicked at tick 300 leaves a
// recording whose end record holds the panic, and its replay panics at
// the same tick.
func TestReplayReproducesAPanic(t *testing.T) {
	path := filepath.Join(t.TempDir(), "crash.fxr")
	var rec *Recorder
	err := run(t, &aimer{winW: 800, panicAt: 300}, 600, 1, func(l *engine.Loop) (err error) {
		rec, err = Record(path, l, Header{Params: "level=1", Seed: 7})
		return err
	})
	var pe *engine.PanicError
	if !errors.As(err, &pe) {
		t.Fatalf("the run: %v, want a panic", err)
	}
	if err := rec.Close(err); err != nil {
		t.Fatal(err)
	}
	p, err := play(t, path, &aimer{winW: 800, panicAt: 300})
	if !errors.As(err, &pe) || pe.Tick != 300 {
		t.Fatalf("replay: %v, want the panic at tick 300", err)
	}
	if !strings.Contains(p.Report(), "the ship left the world") {
		t.Errorf("report %q does not carry the recorded end", p.Report())
	}
	if p.EndMessage() != pe.Error() || p.Ticks() != 301 {
		t.Errorf("the recorded end %q after %d ticks; the replay's panic %q: want the same panic at the same tick, tick 300 run", p.EndMessage(), p.Ticks(), pe.Error())
	}
	// A fixed game does not panic: the replay says the recording did.
	if _, err := play(t, path, &aimer{winW: 800}); err == nil || !strings.Contains(err.Error(), "the recorded run ended with") {
		t.Errorf("replay by a fixed game: %v", err)
	}
}

// TestRecordAndPlayAllocateNothing: recording and replaying a tick
// allocates nothing once the chunk buffers have grown (the steady state of
// a game loop).
func TestRecordAndPlayAllocateNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "run.fxr")
	g := &aimer{winW: 800}
	sim := engine.NewSim(engine.ConstantFrames(time.Second / 60))
	l, err := engine.NewLoop(engine.Config{TPS: 60, InputSize: 5}, sim, g)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := Record(path, l, Header{})
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 5)
	n := uint64(0)
	step := func(tape engine.Tape) {
		t := engine.Tick{N: n}
		ok, _ := tape.Input(t, buf)
		if !ok {
			g.Input(t, buf)
		}
		t.Input = engine.NewInputs(buf, 5, 0)
		tape.Record(t)
		g.Update(t)
		n++
	}
	for range 240 {
		step(rec)
	}
	if a := testing.AllocsPerRun(1200, func() { step(rec) }); a != 0 {
		t.Errorf("recording allocates %v times a tick", a)
	}
	rec.Close(nil)
	g2 := &aimer{winW: 800}
	l2, _ := engine.NewLoop(engine.Config{TPS: 60, InputSize: 5}, sim, g2)
	p, err := Play(path, l2, Header{})
	if err != nil {
		t.Fatal(err)
	}
	g, n = g2, 0
	for range 240 {
		step(p)
	}
	if a := testing.AllocsPerRun(1000, func() { step(p) }); a != 0 {
		t.Errorf("replaying allocates %v times a tick", a)
	}
	if p.Verified() < 20 {
		t.Errorf("%d hashes verified", p.Verified())
	}
}

// duo is a two-player game: each player's one-byte input moves their own
// counter.
type duo struct{ pos [2]int64 }

func (g *duo) Input(engine.Tick, []byte) {}
func (g *duo) Update(t engine.Tick) error {
	for p := range 2 {
		g.pos[p] = g.pos[p]*3 + int64(t.Input.Player(p)[0])
	}
	return nil
}
func (g *duo) Draw(engine.Frame) {}
func (g *duo) Save(dst []byte) []byte {
	dst = binary.LittleEndian.AppendUint64(dst, uint64(g.pos[0]))
	return binary.LittleEndian.AppendUint64(dst, uint64(g.pos[1]))
}
func (g *duo) Load([]byte) error { return errors.New("not used") }

// A netplay match's recording (RecordSession, fed as a session feeds it:
// each tick's inputs of both players and the state saved before it)
// replays on a loop of two players running the game alone, every hash
// verified; a loop of another player count is refused, naming it; a
// state that was not the game's is found at its tick.
func TestRecordSession(t *testing.T) {
	record := func(path string, wrongAt uint64) {
		t.Helper()
		rec, err := RecordSession(path, 60, 2, 1, Header{Params: "duo"})
		if err != nil {
			t.Fatal(err)
		}
		var g duo
		var state []byte
		for n := range uint64(200) {
			state = g.Save(state[:0])
			if n == wrongAt {
				state[0]++
			}
			in := []byte{byte(n % 3), byte(n % 5)}
			if err := rec.Confirmed(n, engine.NewInputs(in, 1, 0), state); err != nil {
				t.Fatal(err)
			}
			if err := g.Update(engine.Tick{N: n, Input: engine.NewInputs(in, 1, 0)}); err != nil {
				t.Fatal(err)
			}
		}
		if err := rec.Confirmed(500, engine.NewInputs([]byte{0, 0}, 1, 0), nil); err == nil {
			t.Error("Confirmed(500) after tick 199: no error")
		}
		if err := rec.Close(nil); err != nil {
			t.Fatal(err)
		}
	}
	play := func(path string, players int) (*Player, error) {
		g := &duo{}
		l, err := engine.NewLoop(engine.Config{TPS: 60, InputSize: 1, Players: players}, engine.NewSim(engine.ConstantFrames(50*time.Millisecond)), g)
		if err != nil {
			t.Fatal(err)
		}
		p, err := Play(path, l, Header{Params: "duo"})
		if err != nil {
			return nil, err
		}
		return p, p.Close(l.Run(context.Background()))
	}
	dir := t.TempDir()
	good := filepath.Join(dir, "match.fxr")
	record(good, 1000)
	p, err := play(good, 2)
	if err != nil || p.Verified() != 3 {
		t.Fatalf("replay: %v; %d hashes verified, want 3 (ticks 60, 120, 180)", err, p.Verified())
	}
	if _, err := play(good, 1); err == nil || !strings.Contains(err.Error(), "1 bytes for 2 players, this game's is 1 bytes for 1") {
		t.Errorf("a one-player loop: %v, want an error naming the player counts", err)
	}
	bad := filepath.Join(dir, "bad.fxr")
	record(bad, 120)
	var de *engine.DesyncError
	if _, err := play(bad, 2); !errors.As(err, &de) || de.Tick != 120 {
		t.Errorf("a recording whose state at tick 120 was not the game's: %v, want a desync at 120", err)
	}
}

// TestReplayOfUnreachedHashesFails: a recording (crafted: this package
// never writes one) with a hash at a tick past its last one verifies the
// others, then fails, naming how many of its hashes it verified.
func TestReplayOfUnreachedHashesFails(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "run.fxr")
	r := record(t, path, &aimer{winW: 800}, 120)
	data, _ := os.ReadFile(path)
	_, in, hashes, _, err := readAll(data)
	if err != nil || len(hashes) < 2 {
		t.Fatalf("the recording: %v, %d hashes, want 2 or more", err, len(hashes))
	}
	// The same ticks and hashes, and one more hash, far away.
	far := filepath.Join(dir, "far.fxr")
	f, err := os.Create(far)
	if err != nil {
		t.Fatal(err)
	}
	h := fileHeader{TPS: 60, Seed: 7, Params: "level=1", InputSize: 5, Players: 1}
	w, err := newWriter(f, h)
	if err != nil {
		t.Fatal(err)
	}
	var dec inputDecoder
	dec.Reset(chunk{Ticks: r.Ticks(), Input: in}, h)
	tick := make([]byte, 5)
	for n := range r.Ticks() {
		for _, th := range hashes {
			if th.Tick == n {
				w.Hash(th.Tick, th.Hash)
			}
		}
		if _, err := dec.Next(tick); err != nil {
			t.Fatal(err)
		}
		w.TickInput(tick, 0)
	}
	for _, th := range hashes {
		if th.Tick == r.Ticks() {
			w.Hash(th.Tick, th.Hash)
		}
	}
	w.Hash(1_000_000, 42)
	if err := errors.Join(w.Close(""), f.Close()); err != nil {
		t.Fatal(err)
	}
	p, err := play(t, far, &aimer{winW: 800})
	want := fmt.Sprintf("%d of its %d state hashes verified", len(hashes), len(hashes)+1)
	if err == nil || !strings.Contains(err.Error(), want) || p.Verified() != len(hashes) {
		t.Errorf("replay of a recording with a hash at tick 1000000: %v, want %q", err, want)
	}
	// Only that hash: nothing verified.
	none := filepath.Join(dir, "none.fxr")
	f, err = os.Create(none)
	if err != nil {
		t.Fatal(err)
	}
	w, _ = newWriter(f, h)
	for range 120 {
		w.TickInput(make([]byte, 5), 0)
	}
	w.Hash(1_000_000, 42)
	if err := errors.Join(w.Close(""), f.Close()); err != nil {
		t.Fatal(err)
	}
	if _, err := play(t, none, &aimer{winW: 800}); err == nil || !strings.Contains(err.Error(), "0 of its 1 state hashes verified") {
		t.Errorf("replay of a recording whose one hash is at tick 1000000: %v, want 0 of 1 verified", err)
	}
}

// TestRecordingOfNoTicksVerifies: a run stopped before its first tick (a
// signal at start-up) leaves a recording whose replay verifies the first
// state.
func TestRecordingOfNoTicksVerifies(t *testing.T) {
	path := filepath.Join(t.TempDir(), "none.fxr")
	record(t, path, &aimer{winW: 800}, 0)
	p, err := play(t, path, &aimer{winW: 800})
	if err != nil || p.Ticks() != 0 || p.Verified() != 1 {
		t.Errorf("replay of a recording of no ticks: %v, %d ticks, %d hashes verified; want 0 and 1", err, p.Ticks(), p.Verified())
	}
}

// TestAFullDiskEndsTheRun: when the recording cannot be written (here its
// file is closed under it, as a full disk fails), the tick that finds out
// ends the run with the error, rather than the run going on and saying so
// at exit.
func TestAFullDiskEndsTheRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.fxr")
	var rec *Recorder
	err := run(t, &aimer{winW: 800}, 600, 1, func(l *engine.Loop) (err error) {
		rec, err = Record(path, l, Header{Params: "level=1", Seed: 7})
		if err == nil {
			rec.f.Close()
		}
		return err
	})
	if err == nil || !strings.Contains(err.Error(), "file already closed") || rec.Ticks() > 61 {
		t.Errorf("a run recording to a closed file ended with %v after %d ticks, want the write error at tick 60", err, rec.Ticks())
	}
}
