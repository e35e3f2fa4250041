package engine

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
)

// FingerprintTicks is how many ticks Fingerprint runs: two seconds at 60
// TPS, long enough for a change to the simulation to show in the state.
const FingerprintTicks = 120

// Fingerprint returns a hash of what g's simulation does, the same for the
// same code on every CPU and build (that is what one world on every build
// means) and, all but surely, another for any change to the code that
// simulates or to its parameters. It is how two peers, or a recording and
// a player, tell that they run the same game without trusting a version
// string: a game built from other sources, outside any repository, has
// another fingerprint.
//
// It saves g (which must implement Saver), runs FingerprintTicks updates
// on a simulated clock at cfg's tick rate with every player's input
// (Config.InputSize bytes each, Config.Players players) drawn from a fixed
// seed instead of the devices, hashes what Save returns after them, and
// loads the saved state back. Every tick is marked Rerun, so the game
// starts no sound and writes nothing outside its state; only Update runs
// (not Begin, End or Draw). Call it before the game's loop runs.
func Fingerprint(cfg Config, g Game) (uint64, error) {
	s, ok := g.(Saver)
	if !ok {
		return 0, fmt.Errorf("engine: Fingerprint: %T does not implement Saver", g)
	}
	start := s.Save(nil)
	f := &fingerprinter{g: g, rng: rand.NewPCG(0x6669787374657020, FingerprintTicks)}
	ts, err := NewTimestep(cfg)
	if err != nil {
		return 0, err
	}
	l, err := NewLoop(cfg, NewSim(ConstantFrames(ts.Dt())), f)
	if err == nil {
		err = l.Run(context.Background())
	}
	end := s.Save(nil)
	if lerr := s.Load(start); lerr != nil {
		return 0, fmt.Errorf("engine: Fingerprint: loading the state back: %w", lerr)
	}
	if !errors.Is(err, ErrStopped) || f.ticks != FingerprintTicks {
		return 0, fmt.Errorf("engine: Fingerprint: the game stopped after %d of %d ticks: %w", f.ticks, FingerprintTicks, err)
	}
	return StateHash(end), nil
}

// fingerprinter runs a game's Update on seeded input.
type fingerprinter struct {
	g     Game
	rng   *rand.PCG
	ticks int
}

func (f *fingerprinter) Input(t Tick, dst []byte) {
	for i := range dst {
		dst[i] = byte(f.rng.Uint64())
	}
}

func (f *fingerprinter) Update(t Tick) error {
	t.Rerun = true
	if err := f.g.Update(t); err != nil && !errors.Is(err, ErrStopped) {
		return err
	}
	f.ticks++
	if f.ticks == FingerprintTicks {
		return ErrStopped
	}
	return nil
}

func (f *fingerprinter) Draw(Frame) {}
