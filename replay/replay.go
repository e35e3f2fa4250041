// Package replay records a game's run to a file and plays it back, exactly:
// the file holds the game's own per-tick input value (engine.Inputter),
// every tick, and a hash of the game's saved state every second of game
// time, so a replay runs the same ticks with the same inputs and checks
// that it arrives at the same states.
//
// A game takes part with three things it has anyway: Config.InputSize and
// an Input method (its devices turned into a value of its own, such as aim
// in world units, so a window resized mid-run changes nothing on replay),
// an Update that reads only Tick.Input, and Save/Load (engine.Saver),
// whose bytes are hashed. Then:
//
//	rec, err := replay.Record("run.fxr", loop, replay.Header{Params: "level=3"})
//	...
//	err = loop.Run(ctx)
//	err = errors.Join(err, rec.Close(err)) // the end record says how the run ended
//
// and to play it back, on a window or headless on an engine.Sim:
//
//	p, err := replay.Play("run.fxr", loop, replay.Header{Params: "level=3"})
//	err = loop.Run(ctx)       // ErrStopped at the recording's last tick
//	err = errors.Join(err, p.Close(err))
//	fmt.Println(p.Report())   // "replay: 3600 ticks, 61 state hashes verified"
//
// Package app wires both to -record and -replay. A netplay match is
// recorded as the session confirms it (RecordSession), in the same file
// format, and replays the same way, on a loop running the game alone; a
// server's match, whose players join and leave, records which seats are
// occupied at each tick (engine.Inputs.Seated), and its replay gives the
// game the same seats at the same ticks. Compare reads two recordings of
// one run (a match's, one from each peer) and names the first tick whose
// seats, input or state hash differs.
//
// A recording is written as the run goes, a chunk a second, so a run that
// crashes or is killed leaves a file that replays up to its last chunk; the
// end record holds how the run ended (a panic's message), and a replay
// reproduces that panic at its tick. A recording is untrusted input: it is
// read a chunk at a time, every size checked before it is allocated, and
// damage is reported with the ticks it hit (ErrBadFile, ErrTruncated).
// The package owns the file format (format.go): a recording holds the
// game's input value, never device state.
package replay

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/fixstep/fixstep/engine"
	"github.com/fixstep/fixstep/internal/fnv"
)

// Header is what a recording says of the run beside its inputs, and what
// a replay must match: the game's own parameters (a level, a difficulty,
// a body count: whatever its Update depends on besides the input), and a
// seed. The tick rate and the input size come from the loop.
type Header struct {
	Params string
	Seed   uint64
	// TPS and Players are the tick rate and how many players' inputs each
	// tick holds: ReadHeader fills them in, for a game whose settings come
	// from the recording (a netplay match's). Record and Play take them
	// from the loop.
	TPS, Players int
}

// hasher hashes the game's saved state, and every input the run read: the
// state hashes a recording holds cover its inputs too.
type hasher struct {
	game   engine.Saver
	state  []byte
	inputs uint64 // FNV-1a of every tick's input so far
}

func newHasher(l *engine.Loop) (hasher, error) {
	g, ok := l.Game().(engine.Saver)
	switch {
	case l.InputSize() == 0:
		return hasher{}, errors.New("replay: the loop's Config.InputSize is 0: a recording holds the game's own per-tick input (engine.Inputter)")
	case !ok:
		return hasher{}, fmt.Errorf("replay: the game (%T) does not implement engine.Saver: its state is what a recording checks", l.Game())
	}
	return hasher{game: g, inputs: fnv.Offset}, nil
}

// input adds a tick's input to the running hash, and its empty seats
// when it has some (so a match of peers, whose seats are all occupied,
// hashes as it did before seats were recorded).
func (h *hasher) input(in engine.Inputs) {
	h.inputs = fnv.Bytes(h.inputs, in.Bytes())
	if e := in.EmptySeats(); e != 0 {
		le := [4]byte{byte(e), byte(e >> 8), byte(e >> 16), byte(e >> 24)}
		h.inputs = fnv.Bytes(h.inputs, le[:])
	}
}

// hash returns the hash of the game's state now and of the inputs so far.
func (h *hasher) hash() uint64 {
	h.state = h.game.Save(h.state[:0])
	return h.hashState(h.state)
}

// hashState returns the hash a recording holds: the state hash of a saved
// state (engine.StateHash), continued over the hash of the inputs so far,
// so it checks both.
func (h *hasher) hashState(state []byte) uint64 {
	return fnv.Uint64(engine.StateHash(state), h.inputs)
}

// hashEvery is the ticks between two state hashes: a second of game time.
func hashEvery(l *engine.Loop) uint64 {
	return uint64(max(1, int64(l.Timestep().TPS()+0.5)))
}

// Recorder writes a recording as the run goes. It is the loop's tape: it
// writes every tick's input before the tick runs, and the state hash every
// second.
type Recorder struct {
	path  string
	f     *os.File
	w     *writer
	h     hasher // its game is nil for a session's recording
	every uint64
	last  uint64 // the tick of the last hash
}

// Record creates the recording at path and makes it loop l's tape. The
// game must implement engine.Saver and the loop must have an InputSize.
// The file is written in place, not through a temporary file, so a run
// killed with kill -9 leaves a recording that replays to its last chunk;
// so Record refuses a path that exists and is not a regular file, and
// removes the file on a failed start only if it made it.
func Record(path string, l *engine.Loop, h Header) (*Recorder, error) {
	hs, err := newHasher(l)
	if err != nil {
		return nil, err
	}
	r, err := create(path, hashEvery(l), l.Players(), l.InputSize(), h)
	if err != nil {
		return nil, err
	}
	r.h = hs
	l.SetTape(r)
	return r, nil
}

// RecordSession creates the recording at path of a netplay match, which
// the session feeds (netplay.Session.SetTickListener): every player's
// confirmed input of every tick, and the hash of the state the session
// saved, every second. tps, players and inputSize are the session's; the
// file replays on a loop with those (Config.TPS, Players and InputSize)
// running the game alone, whichever peer recorded it. As Record, it
// writes in place.
func RecordSession(path string, tps, players, inputSize int, h Header) (*Recorder, error) {
	switch {
	case tps < 1:
		return nil, fmt.Errorf("replay: %d ticks per second", tps)
	case players < 1 || players > engine.MaxPlayers:
		return nil, fmt.Errorf("replay: %d players, want 1 to %d", players, engine.MaxPlayers)
	case inputSize < 1 || inputSize > engine.MaxInputSize:
		return nil, fmt.Errorf("replay: input size %d, want 1 to %d", inputSize, engine.MaxInputSize)
	}
	r, err := create(path, uint64(tps), players, inputSize, h)
	if err != nil {
		return nil, err
	}
	r.h.inputs = fnv.Offset
	return r, nil
}

// create makes the file and writes its header.
func create(path string, tps uint64, players, inputSize int, h Header) (*Recorder, error) {
	f, discard, err := createFile(path)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	w, err := newWriter(f, fileHeader{
		TPS: uint32(tps), Seed: h.Seed, Engine: engine.Version, Params: h.Params,
		InputSize: uint8(inputSize), Players: uint8(players),
	})
	if err != nil {
		discard()
		return nil, fmt.Errorf("replay %s: %w", path, err)
	}
	return &Recorder{path: path, f: f, w: w, every: tps}, nil
}

// createFile opens path for a recording written in place, not through a
// temporary file, so that a run killed with kill -9 leaves a file that
// replays to its last chunk. So it refuses a path that exists and is not a
// regular file (a device, a FIFO, a directory). discard closes the file
// and removes it if createFile made it, for a start that fails after it.
func createFile(path string) (f *os.File, discard func(), err error) {
	made := true
	f, err = os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		made = false
		if err = regular(path); err == nil {
			f, err = os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
		}
	}
	if err != nil {
		return nil, nil, err
	}
	return f, func() {
		f.Close()
		if made {
			os.Remove(path)
		}
	}, nil
}

// regular refuses a path that exists and is not a regular file.
func regular(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s: not a regular file (%v)", path, fi.Mode().Type())
	}
	return nil
}

// Input lets the game decide: a recording only listens. It returns the
// first write error, so a full disk ends the run at once rather than at
// exit.
func (r *Recorder) Input(t engine.Tick, dst []byte) (bool, error) {
	return false, r.err()
}

// Record writes the tick's input before its update, and before it, each
// second, the hash of the state the ticks so far left.
func (r *Recorder) Record(t engine.Tick) error {
	if t.N > 0 && t.N%r.every == 0 {
		r.w.Hash(t.N, r.h.hash())
		r.last = t.N
	}
	r.w.TickInput(t.Input.Bytes(), t.Input.EmptySeats())
	r.h.input(t.Input)
	return r.err()
}

// Confirmed writes tick n of a netplay match (see RecordSession): the
// hash of state, the state the session saved before it, every second,
// then every player's input and the seats empty at it
// (engine.Inputs.Seated: a server's match, whose players join and leave,
// replays with the same joins and leaves). It is the session's
// netplay.TickListener.
func (r *Recorder) Confirmed(n uint64, in engine.Inputs, state []byte) error {
	if n != r.w.Ticks() {
		return fmt.Errorf("replay %s: tick %d recorded after tick %d", r.path, n, int64(r.w.Ticks())-1)
	}
	if n > 0 && n%r.every == 0 && state != nil {
		r.w.Hash(n, r.h.hashState(state))
		r.last = n
	}
	r.w.TickInput(in.Bytes(), in.EmptySeats())
	r.h.input(in)
	return r.err()
}

func (r *Recorder) err() error {
	if err := r.w.Err(); err != nil {
		return fmt.Errorf("replay %s: %w", r.path, err)
	}
	return nil
}

// Ticks returns how many ticks were recorded.
func (r *Recorder) Ticks() uint64 { return r.w.Ticks() }

// Close writes the last chunk, with the state hash after the last tick,
// and the end record, which says how the run ended: runErr's text, or
// nothing for a clean end (nil, engine.ErrStopped, a signal). Then it
// closes the file. Call it whatever the end; a second call does nothing.
func (r *Recorder) Close(runErr error) error {
	if r.f == nil {
		return nil
	}
	msg := ""
	var se *engine.SignalError
	if runErr != nil && !errors.Is(runErr, engine.ErrStopped) && !errors.As(runErr, &se) {
		msg = runErr.Error()
	} else if n := r.w.Ticks(); (n > r.last || n == 0) && r.h.game != nil {
		// A clean end: the state after the last tick, or the first state
		// of a run stopped before its first tick, so that every clean
		// recording has a hash to verify. (After an error or a panic the
		// last tick did not finish: its state means nothing.)
		r.w.Hash(n, r.h.hash())
	}
	err := errors.Join(r.w.Close(msg), r.f.Close())
	r.f = nil
	if err != nil {
		return fmt.Errorf("replay %s: %w", r.path, err)
	}
	return nil
}

// Report says what was recorded: "recorded 3600 ticks to run.fxr".
func (r *Recorder) Report() string {
	return fmt.Sprintf("recorded %d ticks to %s", r.w.Ticks(), r.path)
}

// Player plays a recording back as the loop's tape: it decides every
// tick's input from the file, and which seats are empty (an
// engine.SeatTape), checks the state hashes, and ends the run with
// engine.ErrStopped after the last recorded tick.
type Player struct {
	path     string
	f        *os.File
	rr       *reader
	dec      inputDecoder
	hashes   []tickHash // the chunks' hashes; from head on, not yet checked
	head     int
	h        hasher
	verified int
	read     int // hashes read from the file
	ran      uint64
	empty    uint32 // the seats empty at the tick Input decided last
	ended    bool   // the last tick ran
	readErr  error  // truncation, once met
}

// Play opens the recording at path and makes it loop l's tape. The
// recording must match the loop and the game: the same tick rate, input
// size and header (parameters and seed), or Play returns an error naming
// what differs. A game whose parameters come from the recording reads
// them first with ReadHeader.
func Play(path string, l *engine.Loop, h Header) (*Player, error) {
	hs, err := newHasher(l)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	rr, err := newReader(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("replay %s: %w", path, err)
	}
	fh := rr.Header
	var why string
	switch {
	case fh.TPS != uint32(hashEvery(l)):
		why = fmt.Sprintf("recorded at %d ticks per second, this game runs at %d", fh.TPS, hashEvery(l))
	case int(fh.InputSize) != l.InputSize() || int(fh.Players) != l.Players():
		why = fmt.Sprintf("its input is %d bytes for %d players, this game's is %d bytes for %d", fh.InputSize, fh.Players, l.InputSize(), l.Players())
	case fh.Params != h.Params:
		why = fmt.Sprintf("recorded with parameters %q, this run has %q", fh.Params, h.Params)
	case fh.Seed != h.Seed:
		why = fmt.Sprintf("recorded with seed %d, this run has %d", fh.Seed, h.Seed)
	}
	if why != "" {
		f.Close()
		return nil, fmt.Errorf("replay %s: %s", path, why)
	}
	p := &Player{path: path, f: f, rr: rr, h: hs}
	l.SetTape(p)
	return p, nil
}

// ReadHeader returns the header of the recording at path, for a game
// whose parameters come from the recording: parse them with the rules of
// its flags (a recording is untrusted) before building the game.
func ReadHeader(path string) (Header, error) {
	f, err := os.Open(path)
	if err != nil {
		return Header{}, fmt.Errorf("replay: %w", err)
	}
	defer f.Close()
	rr, err := newReader(f)
	if err != nil {
		return Header{}, fmt.Errorf("replay %s: %w", path, err)
	}
	return Header{Params: rr.Header.Params, Seed: rr.Header.Seed, TPS: int(rr.Header.TPS), Players: int(rr.Header.Players)}, nil
}

// Input decides tick t's input from the recording. After the last tick it
// checks the last state hash and returns engine.ErrStopped; damage in the
// file is an error naming the ticks.
func (p *Player) Input(t engine.Tick, dst []byte) (bool, error) {
	for p.dec.Left() == 0 {
		if p.ended {
			return false, engine.ErrStopped
		}
		c, err := p.rr.Next()
		switch {
		case err == io.EOF || errors.Is(err, ErrTruncated):
			if err != io.EOF {
				p.readErr = err
			}
			p.ended = true
			if err := p.check(t.N); err != nil {
				return false, err
			}
			return false, engine.ErrStopped
		case err != nil:
			return false, fmt.Errorf("replay %s: %w", p.path, err)
		}
		p.dec.Reset(c, p.rr.Header)
		// Hashes of the last chunk not yet checked (the one after its
		// last tick is checked before the next tick) stay in front.
		p.hashes = append(p.hashes[:copy(p.hashes, p.hashes[p.head:])], c.Hashes...)
		p.head = 0
		p.read += len(c.Hashes)
	}
	empty, err := p.dec.Next(dst)
	if err != nil {
		return false, fmt.Errorf("replay %s: %w", p.path, err)
	}
	p.empty = empty
	return true, nil
}

// EmptySeats returns the seats empty at the tick Input decided last, as
// the recording holds them: the loop passes them to the game in
// Tick.Input (engine.SeatTape), so a server's match replays with the same
// joins and leaves.
func (p *Player) EmptySeats() uint32 { return p.empty }

// Record checks the state the ticks before t left against the hash the
// recording holds for it, if any.
func (p *Player) Record(t engine.Tick) error {
	if err := p.check(t.N); err != nil {
		return err
	}
	p.h.input(t.Input)
	p.ran = t.N + 1
	return nil
}

// check compares the hashes the recording took after ran ticks with the
// game's state now.
func (p *Player) check(ran uint64) error {
	for p.head < len(p.hashes) && p.hashes[p.head].Tick <= ran {
		want := p.hashes[p.head]
		p.head++
		if want.Tick < ran {
			continue // a hash between two ticks of an earlier chunk: not written by this package
		}
		if got := p.h.hash(); got != want.Hash {
			de := &engine.DesyncError{Tick: want.Tick, Other: "the recording", Ours: got, Theirs: want.Hash}
			return fmt.Errorf("replay %s: %w: the game or its build simulates differently", p.path, de)
		}
		p.verified++
	}
	return nil
}

// Verified returns how many state hashes matched so far.
func (p *Player) Verified() int { return p.verified }

// Ticks returns how many ticks the replay has run.
func (p *Player) Ticks() uint64 { return p.ran }

// EndMessage returns how the recorded run ended, once Close has read the
// end record: the text of its error or panic, "" for a clean end (or a
// recording cut before its end record). A replay whose run panicked
// reproduced the recorded crash when its *engine.PanicError's text is
// this message: the same panic at the same tick.
func (p *Player) EndMessage() string { return p.rr.End.Message }

// Close closes the file and says how the replay ended against how the
// recording did. runErr is what the loop's Run returned: a replay that
// ran to the end of its recording returns nil; one that stopped early (a
// quit), the recording's damage, or a desync returns runErr or the cause;
// a panic, reproduced or not, returns the panic, and Report says how the
// recorded run ended.
func (p *Player) Close(runErr error) error {
	if p.f == nil {
		return nil
	}
	if !p.ended { // read the end record, to report how the recorded run ended
		for p.readErr == nil {
			if _, err := p.rr.Next(); err != nil {
				break
			}
		}
	}
	p.f.Close()
	p.f = nil
	if runErr != nil && !errors.Is(runErr, engine.ErrStopped) {
		return runErr
	}
	if p.ended { // a clean end at the recording's end
		if p.verified == 0 {
			return fmt.Errorf("replay %s: ran %d ticks, but no state hash was verified (%d of its %d state hashes verified)", p.path, p.ran, p.verified, p.read)
		}
		if p.verified < p.read {
			return fmt.Errorf("replay %s: %d of its %d state hashes verified: the others are at ticks the recording never ran", p.path, p.verified, p.read)
		}
		if msg := p.rr.End.Message; msg != "" && p.readErr == nil {
			return fmt.Errorf("replay %s: the recorded run ended with %q, and the replay did not", p.path, msg)
		}
		return nil
	}
	return runErr
}

// Report says how the replay went: "replay: 3600 ticks, 61 state hashes
// verified", with a truncated recording or the recorded run's end message
// noted.
func (p *Player) Report() string {
	s := fmt.Sprintf("replay: %d ticks, %d state hashes verified", p.ran, p.verified)
	if p.readErr != nil {
		s += fmt.Sprintf(" (%v)", p.readErr)
	}
	if msg := p.rr.End.Message; msg != "" {
		s += fmt.Sprintf("; the recorded run ended with: %s", msg)
	}
	return s
}
