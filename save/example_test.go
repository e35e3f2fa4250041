package save_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"

	"github.com/fixstep/fixstep/physics"
	"github.com/fixstep/fixstep/save"
)

// A tank game's rollback and join state, as the issue's 4-player game
// keeps it: its world, four tanks with their bodies, aims, cooldowns and
// scores, the bullets in flight and the random generator for crates.

type tank struct {
	Body     physics.BodyID
	Aim      float64
	Cooldown int32
	Score    uint16
	Alive    bool
}

type bullet struct {
	Pos, Vel physics.Vec2
	Owner    uint8
	TTL      int16
}

type tankState struct {
	World   physics.World // first: its Restore checks it before anything is written
	Tanks   [4]tank
	Bullets []bullet `save:"max=256"`
	Rand    *rand.PCG
	Tick    uint64
}

type tankGame struct {
	state tankState
	rng   *rand.Rand // draws from state.Rand
}

// The game's save, load and diff (engine.Saver): 4 lines with the
// engine's help, where the issue's tank game spent 151 by hand.
var tankCodec = save.MustFor[tankState]()

func (g *tankGame) Save(dst []byte) []byte  { return tankCodec.Append(dst, &g.state) }
func (g *tankGame) Load(src []byte) error   { return tankCodec.Load(src, &g.state) }
func (g *tankGame) Diff(a, b []byte) string { return tankCodec.Diff(a, b) }

// A tank game rolls back: it saves its state, runs on, loads the save
// and runs the same ticks again, to the same bytes. The BodyIDs it saved
// name the same bodies in the restored world, and the generator draws
// the same numbers again (g.rng draws from state.Rand, which Load loads
// in place).
func Example() {
	g := newTankGame()
	for range 60 {
		g.step()
	}
	s := &g.state
	saved := g.Save(nil)
	fmt.Printf("tick %d: %d bullets, tank 2 is %v, %d bytes\n", s.Tick, len(s.Bullets), s.Tanks[2].Body, len(saved))
	for range 30 {
		g.step()
	}
	ahead := g.Save(nil)
	if err := g.Load(saved); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("tick %d: %d bullets, tank 2 is %v, alive %v\n", s.Tick, len(s.Bullets), s.Tanks[2].Body, s.World.Alive(s.Tanks[2].Body))
	for range 30 {
		g.step()
	}
	fmt.Printf("tick %d: the same state again: %v\n", s.Tick, bytes.Equal(g.Save(nil), ahead))
	s.Tanks[2].Aim = 0.5
	fmt.Println(g.Diff(ahead, g.Save(nil)))
	// Output:
	// tick 60: 12 bullets, tank 2 is body 6, 5154 bytes
	// tick 60: 12 bullets, tank 2 is body 6, alive true
	// tick 90: the same state again: true
	// Tanks[2].Aim: 0.5625 != 0.5
}
