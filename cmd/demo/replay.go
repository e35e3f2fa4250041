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

// maxReplayFile bounds the size of a file -replay reads: an hour of heavy
// input at 1,000 TPS is about 35 MB.
const maxReplayFile = 256 << 20

// recording is the -record output: created before the first frame, written
// a chunk per second of game time as the run goes, and closed on every
// exit with how the run ended, so a crash, an error, a panic or a signal
// leaves a file that replays.
type recording struct {
	path string
	f    *os.File
	w    *input.ReplayWriter
}

// createRecording creates the -record file, in place (replay.CreateFile:
// a run killed with kill -9 leaves a recording that replays to its last
// chunk).
func createRecording(path string, o options) (*recording, error) {
	f, discard, err := fxreplay.CreateFile(path)
	if err != nil {
		return nil, fmt.Errorf("-record: %w", err)
	}
	w, err := input.NewReplayWriter(f, input.ReplayHeader{
		TPS: uint32(o.tps), Seed: o.seed, Engine: engine.Version, Params: o.params(),
	})
	if err != nil {
		discard()
		return nil, fmt.Errorf("-record %s: %w", path, err)
	}
	return &recording{path: path, f: f, w: w}, nil
}

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

// close writes the end record, with the run's error as its message unless
// the run ended cleanly (a stop or a signal), and closes the file.
func (r *recording) close(runErr error) error {
	msg := ""
	var se *engine.SignalError
	if runErr != nil && !errors.Is(runErr, engine.ErrStopped) && !errors.As(runErr, &se) {
		msg = runErr.Error()
	}
	err := errors.Join(r.w.Close(msg), r.f.Close())
	if err != nil {
		return fmt.Errorf("-record %s: %w", r.path, err)
	}
	return nil
}

// params is what a recording stores of the options the scene depends on.
func (o options) params() string {
	s := fmt.Sprintf("n=%d panic-at=%d", o.n, o.panicAt)
	if o.bot != 0 && !o.Net.On() { // a match's recording holds the bot's inputs themselves
		s += fmt.Sprintf(" bot=%d", o.bot)
	}
	return s
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
		case k == "bot":
			o.bot = uint64(x)
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

// replayWith re-runs a recording headless, as fast as the CPU allows,
// reading it a chunk at a time, and reports the first tick whose state
// hash differs from the recorded one; a signal (sig, when not nil) stops
// it. A recording that ends in a panic is re-run to that panic, which must
// happen at the same tick with the same message. before, when not nil,
// runs before each tick's update: tests change the simulation with it, as
// a code change would.
func replayWith(path string, stdout io.Writer, w *watcher, before func(*arena.Scene, engine.Tick)) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > maxReplayFile {
		return fmt.Errorf("replay %s: %d bytes, over the limit of %d", path, fi.Size(), maxReplayFile)
	}
	rr, err := input.NewReplayReader(f)
	if err != nil {
		return fmt.Errorf("replay %s: %w", path, err)
	}
	if rr.Header.InputSize != 0 { // the game's own input: a netplay match's recording
		f.Close()
		return replayMatch(path, stdout, w)
	}
	o, err := parseParams(rr.Header.Params)
	if err != nil {
		return fmt.Errorf("replay %s: %w", path, err)
	}
	o.tps, o.seed = int(rr.Header.TPS), rr.Header.Seed
	if err := o.check(); err != nil {
		return fmt.Errorf("replay %s: %w", path, err)
	}
	bindings, err := loadBindings("")
	if err != nil {
		return err
	}
	keys := &input.State{}
	sc, err := arena.New(o.n, o.seed, input.NewActions(keys, bindings))
	if err != nil {
		return err
	}
	sc.Keys, sc.PanicAt, sc.Bot = keys, o.panicAt, o.bot
	sc.Replayer = input.NewPlayer(nil)
	v := &verifier{Scene: sc, rr: rr, before: before}
	loop, err := engine.NewLoop(engine.Config{TPS: o.tps}, engine.NewSim(engine.ConstantFrames(time.Second/time.Duration(o.tps))), v)
	if err != nil {
		return err
	}
	w.watch(loop)
	start := time.Now()
	err = loop.Run(context.Background())
	took := time.Since(start).Round(time.Millisecond)
	var pe *engine.PanicError
	switch {
	case v.diverged != nil:
		return v.diverged
	case errors.As(err, &pe):
		v.readEnd()
		if want := v.rr.End.Message; want != pe.Error() {
			return fmt.Errorf("replay %s: %w (the recording ended with %q)", path, err, want)
		}
		fmt.Fprintf(stdout, "replay reproduced the recorded crash: %v\n%s", pe, pe.Stack)
		fmt.Fprintf(stdout, "replay ok: %d ticks, %d hashes match, then the same panic at the same tick; recorded by fixstep %s, re-run in %v\n",
			v.rr.Ticks(), v.matched, rr.Header.Engine, took)
		return nil
	case !errors.Is(err, engine.ErrStopped):
		return fmt.Errorf("replay %s: %w", path, err)
	case v.truncated != nil:
		fmt.Fprintf(stdout, "replay %s: %v\n", path, v.truncated)
	case v.rr.End.Message != "":
		return fmt.Errorf("replay %s: the recording ended with %q, the replay ran to the end", path, v.rr.End.Message)
	}
	if v.hashes == 0 {
		fmt.Fprintf(stdout, "replay ran %d ticks, but the recording has no state hashes to compare: nothing verified\n", sc.World.Ticks())
		return nil
	}
	if v.matched < v.hashes {
		return fmt.Errorf("replay %s: %d of its %d state hashes verified: the others are at ticks the recording never ran", path, v.matched, v.hashes)
	}
	fmt.Fprintf(stdout, "replay ok: %d ticks, %d hashes match, recorded by fixstep %s, re-run in %v\n",
		sc.World.Ticks(), v.matched, rr.Header.Engine, took)
	return nil
}

// verifier runs the scene on the recorded input, fed a chunk at a time,
// and checks its hash at every recorded tick.
type verifier struct {
	*arena.Scene
	rr        *input.ReplayReader
	pending   []input.TickHash // hashes of the current chunk not yet checked
	hashes    int              // hashes read
	matched   int
	diverged  error
	truncated error
	before    func(*arena.Scene, engine.Tick)
}

func (v *verifier) Draw(engine.Frame) {}

func (v *verifier) Update(t engine.Tick) error {
	for v.Replayer.Done() {
		c, err := v.rr.Next()
		switch {
		case err == io.EOF:
			return engine.ErrStopped
		case errors.Is(err, input.ErrReplayTruncated):
			v.truncated = err
			return engine.ErrStopped
		case err != nil:
			return err
		}
		v.Replayer.Feed(c.Input)
		v.pending = append(v.pending[:0], c.Hashes...)
		v.hashes += len(c.Hashes)
	}
	if v.before != nil {
		v.before(v.Scene, t)
	}
	if err := v.Scene.Update(t); err != nil {
		return err
	}
	now := v.World.Ticks()
	for len(v.pending) > 0 && v.pending[0].Tick <= now {
		h := v.pending[0]
		v.pending = v.pending[1:]
		if h.Tick != now {
			continue
		}
		if h.Hash != v.Hash() {
			v.diverged = fmt.Errorf("replay diverged: first differing hash at tick %d (state-hash=%016x, recorded %016x)", now, v.Hash(), h.Hash)
			return engine.ErrStopped
		}
		v.matched++
	}
	return nil
}

// readEnd reads the rest of the recording (after a panic, only its end
// record remains) so End holds how the recorded run ended.
func (v *verifier) readEnd() {
	for {
		if _, err := v.rr.Next(); err != nil {
			return
		}
	}
}

// replayMatch re-runs the recording of a netplay match (the demo's -record
// with -host, -join or -spectate), headless and as fast as the CPU allows:
// every player's input of every tick is in the file, and the scene runs
// alone on them, its state hash checked every second.
func replayMatch(path string, stdout io.Writer, w *watcher) error {
	o, players, err := matchOptions(path)
	if err != nil {
		return err
	}
	sc, err := arena.NewMatch(o.n, o.seed, players, input.Actions{})
	if err != nil {
		return err
	}
	sc.PanicAt = o.panicAt
	cfg := engine.Config{TPS: o.tps, InputSize: arena.InputSize, Players: players}
	loop, err := engine.NewLoop(cfg, engine.NewSim(engine.ConstantFrames(time.Second/time.Duration(o.tps))), &headless{Scene: sc, quiet: true})
	if err != nil {
		return err
	}
	p, err := fxreplay.Play(path, loop, fxreplay.Header{Params: o.params(), Seed: o.seed})
	if err != nil {
		return err
	}
	w.watch(loop)
	start := time.Now()
	if err := p.Close(loop.Run(context.Background())); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "replay ok: a match of %d players, %s, re-run in %v; state-hash=%016x\n",
		players, strings.TrimPrefix(p.Report(), "replay: "), time.Since(start).Round(time.Millisecond), sc.Hash())
	return nil
}

// matchOptions reads a match recording's header: the options it was
// played with, checked as the flags are (a recording is untrusted), and
// its player count.
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

// compare reads two recordings of the game's own input (a netplay
// match's, one from each peer) side by side and names the first tick at
// which they differ: a player's input, or the state hash after it.
func compare(pathA, pathB string, stdout io.Writer) error {
	var rs [2]*recordingReader
	for i, p := range []string{pathA, pathB} {
		r, err := openRecording(p)
		if err != nil {
			return err
		}
		defer r.f.Close()
		rs[i] = r
	}
	a, b := rs[0], rs[1]
	ha, hb := a.rr.Header, b.rr.Header
	if ha.TPS != hb.TPS || ha.InputSize != hb.InputSize || ha.Players != hb.Players || ha.Params != hb.Params || ha.Seed != hb.Seed {
		return fmt.Errorf("compare: the recordings are of different runs: %s has %d TPS, %d players of %d bytes, seed %d, %q; %s has %d TPS, %d players of %d bytes, seed %d, %q",
			pathA, ha.TPS, ha.Players, ha.InputSize, ha.Seed, ha.Params, pathB, hb.TPS, hb.Players, hb.InputSize, hb.Seed, hb.Params)
	}
	size := int(ha.InputSize)
	for n := uint64(0); ; n++ {
		okA, errA := a.next()
		okB, errB := b.next()
		if err := errors.Join(errA, errB); err != nil {
			return err
		}
		if !okA || !okB {
			if !okA && !okB {
				fmt.Fprintf(stdout, "compare: the same %d ticks and %d state hashes\n", n, a.hashes)
			} else {
				fmt.Fprintf(stdout, "compare: the same for the %d ticks both hold (%s holds %d, %s %d), and %d state hashes\n",
					n, pathA, n+a.rest(), pathB, n+b.rest(), a.hashes)
			}
			return nil
		}
		// The hash of the state after n ticks is in the chunk of tick n.
		if want, ok := a.hashAt(n); ok {
			if got, ok := b.hashAt(n); ok && got != want {
				return fmt.Errorf("compare: the recordings differ first after %d ticks: the state hash is %016x in %s, %016x in %s (the same inputs: the simulations differ)", n, want, pathA, got, pathB)
			}
		}
		for p := range int(ha.Players) {
			x, y := a.tick[p*size:(p+1)*size], b.tick[p*size:(p+1)*size]
			if string(x) != string(y) {
				return fmt.Errorf("compare: the recordings differ first at tick %d: player %d's input is % x in %s, % x in %s", n, p+1, x, pathA, y, pathB)
			}
		}
	}
}

// recordingReader reads a recording of the game's own input a tick at a
// time.
type recordingReader struct {
	path    string
	f       *os.File
	rr      *input.ReplayReader
	dec     input.InputDecoder
	tick    []byte           // the last tick's inputs
	pending []input.TickHash // hashes of the chunks read, not yet passed
	hashes  int              // hashes compared
	read    uint64           // ticks read
	done    bool
}

func openRecording(path string) (*recordingReader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("compare: %w", err)
	}
	rr, err := input.NewReplayReader(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("compare %s: %w", path, err)
	}
	if rr.Header.InputSize == 0 {
		f.Close()
		return nil, fmt.Errorf("compare %s: it holds device input: -compare reads recordings of the game's own input (a netplay match's)", path)
	}
	return &recordingReader{path: path, f: f, rr: rr, tick: make([]byte, int(rr.Header.InputSize)*max(int(rr.Header.Players), 1))}, nil
}

// next reads the next tick's inputs into r.tick; false at the end.
func (r *recordingReader) next() (bool, error) {
	for r.dec.Left() == 0 {
		if r.done {
			return false, nil
		}
		c, err := r.rr.Next()
		switch {
		case err == io.EOF || errors.Is(err, input.ErrReplayTruncated):
			r.done = true
			return false, nil
		case err != nil:
			return false, fmt.Errorf("compare %s: %w", r.path, err)
		}
		r.dec.Reset(c, r.rr.Header)
		// Hashes not yet reached stay: the one after a chunk's last tick
		// may be in it or in the next.
		kept := r.pending[:0]
		for _, h := range r.pending {
			if h.Tick >= r.read {
				kept = append(kept, h)
			}
		}
		r.pending = append(kept, c.Hashes...)
	}
	if err := r.dec.Next(r.tick); err != nil {
		return false, fmt.Errorf("compare %s: %w", r.path, err)
	}
	r.read++
	return true, nil
}

// hashAt returns the state hash recorded after n ticks, if the current
// chunk has one.
func (r *recordingReader) hashAt(n uint64) (uint64, bool) {
	for _, h := range r.pending {
		if h.Tick == n {
			r.hashes++
			return h.Hash, true
		}
	}
	return 0, false
}

// rest counts the ticks left, reading to the end.
func (r *recordingReader) rest() uint64 {
	var n uint64
	for {
		ok, err := r.next()
		if !ok || err != nil {
			return n
		}
		n++
	}
}
