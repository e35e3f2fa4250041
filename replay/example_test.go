package replay_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/fixstep/fixstep/engine"
	"github.com/fixstep/fixstep/replay"
)

// runner is a game with an input of its own: one byte, the way it runs
// (-1, 0 or +1), which its Input makes from the devices (here a script)
// and its Update reads from the tick.
type runner struct {
	x      int64
	ticks  int
	script func(tick uint64) int8 // the "keyboard"
}

func (g *runner) Input(t engine.Tick, dst []byte) { dst[0] = byte(g.script(t.N)) }

func (g *runner) Update(t engine.Tick) error {
	g.x += int64(int8(t.Input.Player(0)[0]))
	g.ticks++
	return nil
}

func (g *runner) Draw(engine.Frame) {}

func (g *runner) Save(dst []byte) []byte { return fmt.Appendf(dst, "%d", g.x) }

func (g *runner) Load(src []byte) error { _, err := fmt.Sscan(string(src), &g.x); return err }

// End stops the run after 10 s of game time, as a player quitting would.
func (g *runner) End(*engine.Stats) error {
	if g.ticks >= 600 {
		return engine.ErrStopped
	}
	return nil
}

// run runs g on a simulated clock, as fast as it goes, with the tape
// start makes, and closes the tape with how the run ended.
func run(g *runner, start func(*engine.Loop) (interface{ Close(error) error }, error)) error {
	sim := engine.NewSim(engine.ConstantFrames(time.Second / 60))
	l, err := engine.NewLoop(engine.Config{TPS: 60, InputSize: 1}, sim, g)
	if err != nil {
		return err
	}
	tape, err := start(l)
	if err != nil {
		return err
	}
	err = l.Run(context.Background())
	if errors.Is(err, engine.ErrStopped) {
		err = nil
	}
	return tape.Close(err)
}

// Record a run, then play it back: the replay decides every tick's input
// from the file (the game's Input is not called) and checks the state
// hashes the recording took every second.
func Example() {
	path := filepath.Join(os.TempDir(), "fixstep-example.fxr")
	defer os.Remove(path)

	played := &runner{script: func(tick uint64) int8 { return int8(tick/100%3) - 1 }}
	var rec *replay.Recorder
	err := run(played, func(l *engine.Loop) (interface{ Close(error) error }, error) {
		r, err := replay.Record(path, l, replay.Header{Params: "level=1"})
		rec = r
		return r, err
	})
	fmt.Println(rec.Report() != "", err)

	replayed := &runner{script: func(uint64) int8 { panic("not called on replay") }}
	var p *replay.Player
	err = run(replayed, func(l *engine.Loop) (interface{ Close(error) error }, error) {
		pl, err := replay.Play(path, l, replay.Header{Params: "level=1"})
		p = pl
		return pl, err
	})
	fmt.Println(err, replayed.x == played.x, p.Verified() > 0)
	// Output:
	// true <nil>
	// <nil> true true
}
