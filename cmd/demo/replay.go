package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"fixstep/engine"
	"fixstep/input"
)

// startRecording makes the scene record its input and hashes.
func startRecording(sc *scene, keys *input.State) {
	sc.keys = keys
	sc.recorder = &input.Recorder{}
}

// writeRecording saves what the scene recorded to path.
func writeRecording(path string, sc *scene, o options) error {
	ticks := sc.world.Ticks()
	hashes := sc.hashes
	if len(hashes) == 0 || hashes[len(hashes)-1].Tick != ticks {
		hashes = append(hashes, input.TickHash{Tick: ticks, Hash: sc.Hash()})
	}
	r := input.Replay{
		TPS: uint32(o.tps), Seed: o.seed, Engine: engine.Version,
		Params: fmt.Sprintf("n=%d", o.n), Ticks: ticks,
		Input: sc.recorder.Bytes(), Hashes: hashes,
	}
	data, err := r.MarshalBinary()
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("record: %w", err)
	}
	return nil
}

// replay re-runs a recording headless, as fast as the CPU allows, and
// reports the first tick whose state hash differs from the recorded one.
func replay(path string, stdout io.Writer) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	var r input.Replay
	if err := r.UnmarshalBinary(data); err != nil {
		return fmt.Errorf("replay %s: %w", path, err)
	}
	var n int
	if _, err := fmt.Sscanf(r.Params, "n=%d", &n); err != nil {
		return fmt.Errorf("replay %s: parameters %q: want n=<bodies>", path, r.Params)
	}
	if r.TPS == 0 {
		return fmt.Errorf("replay %s: TPS 0", path)
	}
	bindings, err := loadBindings("")
	if err != nil {
		return err
	}
	keys := &input.State{}
	sc, err := newScene(n, r.Seed, input.NewActions(keys, bindings))
	if err != nil {
		return err
	}
	sc.keys = keys
	sc.replayer = input.NewPlayer(r.Input)
	v := &verifier{scene: sc, hashes: r.Hashes, ticks: r.Ticks}
	loop, err := engine.NewLoop(engine.Config{TPS: int(r.TPS)}, engine.NewSim(engine.ConstantFrames(time.Second/time.Duration(r.TPS))), v)
	if err != nil {
		return err
	}
	start := time.Now()
	err = loop.Run(context.Background())
	if v.diverged != nil {
		return v.diverged
	}
	if !errors.Is(err, engine.ErrStopped) {
		return fmt.Errorf("replay %s: %w", path, err)
	}
	fmt.Fprintf(stdout, "replay ok: %d ticks, %d hashes match, recorded by fixstep %s, re-run in %v\n",
		sc.world.Ticks(), len(r.Hashes), r.Engine, time.Since(start).Round(time.Millisecond))
	return nil
}

// verifier runs the scene and checks its hash at every recorded tick.
type verifier struct {
	*scene
	hashes   []input.TickHash
	ticks    uint64
	diverged error
}

func (v *verifier) Draw(engine.Frame) {}

func (v *verifier) Update(t engine.Tick) error {
	if v.world.Ticks() >= v.ticks {
		return engine.ErrStopped
	}
	if err := v.scene.Update(t); err != nil {
		return err
	}
	now := v.world.Ticks()
	for len(v.hashes) > 0 && v.hashes[0].Tick <= now {
		h := v.hashes[0]
		v.hashes = v.hashes[1:]
		if h.Tick == now && h.Hash != v.Hash() {
			v.diverged = fmt.Errorf("replay diverged: first differing hash at tick %d (state-hash=%016x, recorded %016x)", now, v.Hash(), h.Hash)
			return engine.ErrStopped
		}
	}
	if now >= v.ticks {
		return engine.ErrStopped
	}
	return nil
}
