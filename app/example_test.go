package app_test

import (
	"encoding/binary"
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
