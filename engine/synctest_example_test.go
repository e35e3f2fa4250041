package engine_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/fixstep/fixstep/engine"
)

// walker is a game whose whole state is a position and the seed of its
// random steps: Save and Load carry both.
type walker struct {
	x     float64
	seed  uint64
	moves int // how many moves so far: kept outside Save when leaky is set
	leaky bool
}

func (w *walker) Update(t engine.Tick) error {
	w.seed = w.seed*6364136223846793005 + 1442695040888963407 // a seeded generator
	w.x += float64(float64(w.seed>>40) * t.DtSeconds())
	if w.leaky {
		w.moves++
		w.x += float64(w.moves) // depends on state Load does not restore
	}
	return nil
}

func (w *walker) Draw(engine.Frame) {}

func (w *walker) Save(dst []byte) []byte {
	dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(w.x))
	return binary.LittleEndian.AppendUint64(dst, w.seed)
}

func (w *walker) Load(src []byte) error {
	if len(src) != 16 {
		return errors.New("walker: not a saved walker")
	}
	w.x = math.Float64frombits(binary.LittleEndian.Uint64(src))
	w.seed = binary.LittleEndian.Uint64(src[8:])
	return nil
}

// A game's own test runs it under a sync test: every tick is run again
// after a rollback of 4 ticks and compared. A game whose Update depends on
// state that Save leaves out is caught at the first tick it matters.
func ExampleCheckSync() {
	err := engine.CheckSync(engine.Config{TPS: 60}, &walker{seed: 1}, 600, 4)
	fmt.Println("deterministic walker:", err)

	err = engine.CheckSync(engine.Config{TPS: 60}, &walker{seed: 1, leaky: true}, 600, 4)
	var se *engine.SyncError
	if errors.As(err, &se) {
		fmt.Println("leaky walker: tick", se.Tick, "differs")
	}
	// Output:
	// deterministic walker: <nil>
	// leaky walker: tick 0 differs
}
