package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fixstep/fixstep/cmd/demo/arena"
	"github.com/fixstep/fixstep/engine"
	"github.com/fixstep/fixstep/input"
	fxreplay "github.com/fixstep/fixstep/replay"
)

// The demo's -record, -replay and -compare are package replay's: a
// recording holds the scene's own per-tick input (arena.InputSize bytes a
// player, from the devices, the bot or the peers) and a state hash every
// second, for a run alone and a netplay match alike. This file holds what
// is the demo's own: the parameters a recording carries, checked as the
// flags are, and what -replay prints.

// checkFiles refuses a run that would write one file twice, or write a
// file it reads: each output against every other output and every input,
// by path and, for files that exist, by identity (links).
func (o options) checkFiles() error {
	type file struct{ flag, path string }
	var outs, ins []file
	for _, f := range []file{{"-record", o.Record}, {"-screenshot", o.Screenshot}} {
		if f.path != "" {
			outs = append(outs, f)
		}
	}
	for flag, p := range o.Profile.Outputs() {
		outs = append(outs, file{flag, p})
	}
	slices.SortFunc(outs, func(a, b file) int { return strings.Compare(a.flag, b.flag) })
	for _, f := range []file{{"-replay", o.Replay}, {"-bindings", o.bindings}} {
		if f.path != "" {
			ins = append(ins, f)
		}
	}
	same := func(a, b string) bool {
		pa, ea := filepath.Abs(a)
		pb, eb := filepath.Abs(b)
		if ea == nil && eb == nil && pa == pb {
			return true
		}
		fa, ea := os.Stat(a)
		fb, eb := os.Stat(b)
		return ea == nil && eb == nil && os.SameFile(fa, fb)
	}
	for i, a := range outs {
		for _, b := range append(outs[i+1:], ins...) {
			if same(a.path, b.path) {
				return fmt.Errorf("%s %s and %s %s are the same file", a.flag, a.path, b.flag, b.path)
			}
		}
	}
	return nil
}

// params is what a recording stores of the options the scene depends on.
func (o options) params() string {
	return fmt.Sprintf("n=%d panic-at=%d", o.n, o.panicAt) // a bot's input is in the recording itself
}

// netParams is what the peers of a match must agree on, beside the tick
// rate and the input size: the scene's parameters and seed.
func (o options) netParams() string {
	return fmt.Sprintf("fixstep demo: %s seed=%d", o.params(), o.seed)
}

// parseParams reads a recording's parameters back; the caller checks them
// with the rules of the flags (options.check): a replay file is untrusted
// input.
func parseParams(s string) (options, error) {
	var o options
	haveN := false
	for _, f := range strings.Fields(s) {
		k, v, _ := strings.Cut(f, "=")
		x, err := strconv.ParseInt(v, 10, 64)
		switch {
		case err != nil:
			return o, fmt.Errorf("parameter %q: not a number", f)
		case k == "n":
			o.n, haveN = int(x), true
		case k == "panic-at":
			o.panicAt = x
		default:
			return o, fmt.Errorf("unknown parameter %q", f)
		}
	}
	if !haveN {
		return o, fmt.Errorf("parameters %q: no n=<bodies>", s)
	}
	return o, nil
}

// replay is replayWith with no signals and no hook.
func replay(path string, stdout io.Writer) error { return replayWith(path, stdout, nil, nil) }

// replayWith re-runs a recording (-record's, alone or of a match, from any
// peer) headless, as fast as the CPU allows, through package replay: it
// stops at the first tick whose state hash differs (a
// *engine.DesyncError), replays a killed run to its last chunk, and
// re-runs a recording that ended in a panic to that panic, which must
// happen at the same tick with the same message. A signal (w, when not
// nil) stops it. before, when not nil, runs before each tick's update:
// tests change the simulation with it, as a code change would.
func replayWith(path string, stdout io.Writer, w *watcher, before func(*arena.Scene, engine.Tick)) error {
	o, players, err := matchOptions(path)
	if err != nil {
		return err
	}
	sc, err := arena.NewMatch(o.n, o.seed, players, input.Actions{})
	if err != nil {
		return err
	}
	sc.PanicAt = o.panicAt
	h := &headless{Scene: sc, quiet: true}
	var game engine.Game = h
	if before != nil {
		game = &tampered{headless: h, before: before}
	}
	cfg := engine.Config{TPS: o.tps, InputSize: arena.InputSize, Players: players}
	loop, err := engine.NewLoop(cfg, engine.NewSim(engine.ConstantFrames(time.Second/time.Duration(o.tps))), game)
	if err != nil {
		return err
	}
	p, err := fxreplay.Play(path, loop, fxreplay.Header{Params: o.params(), Seed: o.seed})
	if err != nil {
		return err
	}
	w.watch(loop)
	start := time.Now()
	err = p.Close(loop.Run(context.Background()))
	took := time.Since(start).Round(time.Millisecond)
	what := ""
	if players > 1 {
		what = fmt.Sprintf("a match of %d players, ", players)
	}
	var pe *engine.PanicError
	switch {
	case errors.As(err, &pe) && p.EndMessage() == pe.Error():
		fmt.Fprintf(stdout, "replay reproduced the recorded crash: %v\n%s", pe, pe.Stack)
		fmt.Fprintf(stdout, "replay ok: %s%d ticks, %d state hashes verified, then the same panic at the same tick; re-run in %v\n",
			what, p.Ticks(), p.Verified(), took)
		return nil
	case errors.As(err, &pe):
		return fmt.Errorf("replay %s: %w (the recording ended with %q)", path, err, p.EndMessage())
	case err != nil:
		return err
	}
	fmt.Fprintf(stdout, "replay ok: %s%s, re-run in %v; state-hash=%016x\n",
		what, strings.TrimPrefix(p.Report(), "replay: "), took, sc.Hash())
	return nil
}

// tampered runs a hook before each tick's update: a test's change to the
// simulation, as a code change would make.
type tampered struct {
	*headless
	before func(*arena.Scene, engine.Tick)
}

func (t *tampered) Update(tk engine.Tick) error {
	t.before(t.Scene, tk)
	return t.headless.Update(tk)
}

// matchOptions reads a recording's header: the options it was played
// with, checked as the flags are (a recording is untrusted), and its
// player count.
func matchOptions(path string) (options, int, error) {
	h, err := fxreplay.ReadHeader(path)
	if err != nil {
		return options{}, 0, err
	}
	o, err := parseParams(h.Params)
	if err != nil {
		return o, 0, fmt.Errorf("replay %s: %w", path, err)
	}
	o.tps, o.seed = h.TPS, h.Seed
	if err := o.check(); err != nil {
		return o, 0, fmt.Errorf("replay %s: %w", path, err)
	}
	if h.Players < 1 || h.Players > arena.MaxPlayers {
		return o, 0, fmt.Errorf("replay %s: %d players, want 1 to %d", path, h.Players, arena.MaxPlayers)
	}
	return o, h.Players, nil
}

// compare is -compare: package replay's Compare, printed.
func compare(pathA, pathB string, stdout io.Writer) error {
	same, err := fxreplay.Compare(pathA, pathB)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "compare: %s\n", same)
	return nil
}
