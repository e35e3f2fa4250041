package app_test

import (
	"encoding/binary"
	"flag"
	"fmt"
	"io"

	"github.com/fixstep/fixstep/app"
	"github.com/fixstep/fixstep/engine"
)

// walker is a one-player game: a position pushed by its input, one byte a
// tick. Its Input would read the devices; here it always pushes forward.
type walker struct{ x, v int64 }

func (w *walker) Input(t engine.Tick, dst []byte) { dst[0] = 1 }

func (w *walker) Update(t engine.Tick) error {
	w.v += int64(int8(t.Input.Player(0)[0]))
	w.x += w.v
	return nil
}

func (w *walker) Draw(f engine.Frame) {}

func (w *walker) Save(dst []byte) []byte {
	return binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(dst, uint64(w.x)), uint64(w.v))
}

func (w *walker) Load(src []byte) error {
	if len(src) != 16 {
		return fmt.Errorf("walker: a save is 16 bytes, not %d", len(src))
	}
	w.x, w.v = int64(binary.LittleEndian.Uint64(src)), int64(binary.LittleEndian.Uint64(src[8:]))
	return nil
}

// A game hands itself to Run with its options; the flags pick the mode.
// Here, headless on a simulated clock for exactly 60 ticks: the run prints
// the state hash of its end, FNV-1a of Save's bytes after 60 pushes
// (x=1830, v=60), and the stats line on Stderr.
func Example() {
	err := app.Run(&walker{}, app.Options{Name: "walker", InputSize: 1, Stderr: io.Discard,
		Args: []string{"-headless", "-ticks", "60", "-sim-frame", "16ms"}})
	fmt.Println("err:", err, "exit status:", app.ExitCode(err))
	// Output:
	// state-hash=4843d153ec10ce56
	// err: <nil> exit status: 0
}

// pacer is a walker with a flag of its own, -push: how hard each tick
// pushes, which its simulation depends on (Options.SimFlags), so its
// Params carry it.
type pacer struct {
	walker
	push int
}

func (p *pacer) Flags(fs *flag.FlagSet) {
	fs.IntVar(&p.push, "push", 1, "how hard each tick pushes, 1 to 9")
}

// Configure checks -push: the command line's, a recording's (-replay) or a
// server's (-connect), which the runner set, parsed, before it.
func (p *pacer) Configure(c *app.Config) error {
	if p.push < 1 || p.push > 9 {
		return fmt.Errorf("-push %d: want 1 to 9", p.push)
	}
	return nil
}

func (p *pacer) Update(t engine.Tick) error {
	p.v += int64(p.push) * int64(int8(t.Input.Player(0)[0]))
	p.x += p.v
	return nil
}

// A game with flags of its own is a Configurer: its flags sit beside the
// runner's, checked as theirs are, and those its simulation depends on
// (Options.SimFlags) go in its Params, into a recording and to a
// netplay peer or a server's clients, which get them back parsed.
func ExampleConfigurer() {
	run := func(args ...string) {
		err := app.Run(&pacer{}, app.Options{Name: "pacer", InputSize: 1, Params: "pacer v1", SimFlags: []string{"push"},
			Stderr: io.Discard, Args: args})
		fmt.Println("err:", err)
	}
	run("-headless", "-ticks", "60", "-sim-frame", "16ms", "-push", "3")
	run("-headless", "-ticks", "60", "-sim-frame", "16ms", "-push", "0")
	// Output:
	// state-hash=f6468d73e1660f74
	// err: <nil>
	// err: -push 0: want 1 to 9
}
