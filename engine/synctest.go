package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/fixstep/fixstep/internal/fnv"
)

// Saver is state that can be saved and loaded back: a game's whole
// simulation, for rollback, sync tests and state hashes (the world, the
// game's own fields, its random generators' states).
//
// Save appends the state to dst and returns the extended slice; with room
// in dst it should allocate nothing, since a sync test or a rollback
// saves every tick. Load puts back what Save wrote; it must leave the
// state unchanged and return an error for bytes it did not write.
// Saving the same state twice gives the same bytes: a sync test compares
// them.
type Saver interface {
	Save(dst []byte) []byte
	Load(src []byte) error
}

// StateHash is the state hash: FNV-1a (64 bits) of a state's saved bytes
// (what Saver.Save appends). It is the one hash of a game's state
// everywhere: what -ticks prints as state-hash=, what netplay's peers,
// server and clients compare to find a desync, what a recording checks
// (continued over the hash of the inputs so far), and Fingerprint's.
// Equal states save equal bytes, so two runs that simulate the same world
// hash alike on every CPU and build. It allocates nothing.
func StateHash(state []byte) uint64 { return fnv.Bytes(fnv.Offset, state) }

// Differ is an optional Saver interface: Diff describes the first
// difference between two saved states ("body 17 (tag 5) Vel.X: 1.25 !=
// 1.2500000000000002"), or returns "" when there is none. A sync test's
// report uses it; physics.Diff does it for a world's snapshot.
type Differ interface {
	Diff(a, b []byte) string
}

// Sync test depths: the ticks a sync test rolls back.
const (
	DefaultSyncDepth = 2
	MaxSyncDepth     = 8
)

// SyncError is what Run returns when a sync test finds a tick that runs
// differently the second time: the game's update is not a function of its
// saved state and its input. Usual causes: map iteration order, a global
// or unseeded random source, time.Now, a goroutine, state kept outside
// Save (a cache, a closure), math.Sin and friends on another build.
type SyncError struct {
	// Tick is the first tick whose second run differs.
	Tick uint64
	// Depth is how many ticks the rollback went back.
	Depth int
	// Diff says what differs: the game's Differ, or the first byte.
	Diff string
}

// Error names the tick, the depth and the difference.
func (e *SyncError) Error() string {
	return fmt.Sprintf("engine: sync test: tick %d ran differently after a rollback of %d ticks: %s", e.Tick, e.Depth, e.Diff)
}

// syncTest is the loop's sync test: a ring of the states before the last
// depth+1 ticks, the input each read and the tick itself.
type syncTest struct {
	game   Saver
	differ Differ
	depth  int
	states [MaxSyncDepth + 1][]byte // the game before tick N, at N % (depth+1)
	// tickInputs holds each tick's game input (Tick.Input), for its rerun.
	tickInputs [MaxSyncDepth + 1][]byte
	ticks      [MaxSyncDepth + 1]Tick
	run        uint64 // ticks run under the test
	after      []byte // the game after the tick as first run
	again      []byte // after a tick's second run
	ticked     uint64 // ticks checked: each tick is run depth+1 times in all
}

// SyncTest turns on the sync test, to find what makes a game's update
// nondeterministic before players (and rollback netplay) do. Every tick,
// after the game's update, the loop saves the game, loads its state from
// depth ticks ago (0 means DefaultSyncDepth; at most MaxSyncDepth), runs
// those ticks again with the same input and the same Tick values (Rerun
// set), and compares the state after each with the state the first run
// left. The first tick that differs stops Run with a *SyncError naming it
// and what differs. A game runs about depth+1 times slower under it.
//
// The game must implement Saver, and its Update must read only its saved
// state and Tick (its input is Tick.Input, which the rerun gets again).
// The devices are not saved: a rerun of a game that reads them in Update
// sees them as they are now, and differs as soon as they have changed.
// Call SyncTest before Run.
func (l *Loop) SyncTest(depth int) error {
	g, ok := l.game.(Saver)
	switch {
	case !ok:
		return fmt.Errorf("engine: sync test: the game (%T) does not implement engine.Saver", l.game)
	case depth < 0 || depth > MaxSyncDepth:
		return fmt.Errorf("engine: sync test depth %d: want 1 to %d (0: %d)", depth, MaxSyncDepth, DefaultSyncDepth)
	case depth == 0:
		depth = DefaultSyncDepth
	}
	l.sync = &syncTest{game: g, depth: depth}
	l.sync.differ, _ = l.game.(Differ)
	return nil
}

// update runs tick t of the game, and under a sync test runs the last
// depth ticks again and compares.
func (l *Loop) update(t Tick) error {
	if l.inSize > 0 {
		if err := l.decideInput(&t); err != nil {
			return err
		}
		if l.tape != nil {
			if err := l.tape.Record(t); err != nil {
				return err
			}
		}
	}
	return l.updateOnce(t)
}

// decideInput fills t.Input with the tick's input: the tape's (a replay),
// or the game's own.
func (l *Loop) decideInput(t *Tick) error {
	buf := l.inBuf[:l.inSize*l.players]
	clear(buf)
	decided := false
	if l.tape != nil {
		var err error
		if decided, err = l.tape.Input(*t, buf); err != nil {
			return err
		}
	}
	if !decided {
		l.inputter.Input(*t, buf)
	}
	t.Input = NewInputs(buf, l.inSize, 0)
	if decided && l.seatTape != nil {
		t.Input = t.Input.WithEmptySeats(l.seatTape.EmptySeats())
	}
	return nil
}

// updateOnce runs tick t, and under a sync test the last depth ticks again.
func (l *Loop) updateOnce(t Tick) error {
	s := l.sync
	if s == nil {
		return l.game.Update(t)
	}
	r := uint64(s.depth + 1)
	k := t.N % r
	s.states[k] = s.game.Save(s.states[k][:0])
	// The tick's own input, kept: the loop's buffer holds the next tick's
	// by the time this one runs again.
	s.tickInputs[k] = append(s.tickInputs[k][:0], t.Input.Bytes()...)
	if t.Input.Players() > 0 {
		t.Input = NewInputs(s.tickInputs[k], t.Input.Size(), 0).WithEmptySeats(t.Input.EmptySeats())
	}
	s.ticks[k] = t
	if err := l.game.Update(t); err != nil {
		return err
	}
	s.run++
	if s.run < uint64(s.depth) {
		return nil
	}
	s.after = s.game.Save(s.after[:0])
	first := t.N + 1 - uint64(s.depth)
	if err := s.game.Load(s.states[first%r]); err != nil {
		return fmt.Errorf("engine: sync test: load the state before tick %d: %w", first, err)
	}
	for n := first; n <= t.N; n++ {
		j := n % r
		rerun := s.ticks[j]
		rerun.Rerun = true
		if err := l.game.Update(rerun); err != nil {
			return fmt.Errorf("engine: sync test: tick %d run again: %w", n, err)
		}
		want := s.after // the state the first run left after tick n
		if n < t.N {
			want = s.states[(n+1)%r]
		}
		s.again = s.game.Save(s.again[:0])
		if !bytes.Equal(s.again, want) {
			return &SyncError{Tick: n, Depth: s.depth, Diff: s.diff(want, s.again)}
		}
	}
	s.ticked++
	return nil
}

// diff describes how b differs from a.
func (s *syncTest) diff(a, b []byte) string {
	if s.differ != nil {
		if d := s.differ.Diff(a, b); d != "" {
			return d
		}
	}
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return fmt.Sprintf("the saved state differs at byte %d of %d", i, len(a))
		}
	}
	return fmt.Sprintf("the saved state is %d bytes, was %d", len(b), len(a))
}

// SyncChecked returns how many ticks the sync test has checked (run again
// and compared), 0 without one.
func (l *Loop) SyncChecked() uint64 {
	if l.sync == nil {
		return 0
	}
	return l.sync.ticked
}

// CheckSync runs a sync test over ticks ticks of g, headless on a
// simulated clock at the tick rate of cfg, and returns the *SyncError it
// finds, another error the game returned, or nil. It is the helper for a
// game's own test: see SyncTest for what it checks and what g must be.
// The game's Input (with cfg.InputSize), Begin, End and other hooks run as
// in a real run, on a platform with no devices: a game whose Input reads
// a keyboard sees none pressed, so drive it with a bot (an Input that
// plays, as -bot does, or a Begin that scripts the game's input).
func CheckSync(cfg Config, g Game, ticks uint64, depth int) error {
	ts, err := NewTimestep(cfg)
	if err != nil {
		return err
	}
	// Frames of one tick, floored to whole ns: never two ticks a frame.
	p := &tickLimit{Sim: NewSim(ConstantFrames(ts.Dt())), ticks: ticks}
	l, err := NewLoop(cfg, p, g)
	if err != nil {
		return err
	}
	if err := l.SyncTest(depth); err != nil {
		return err
	}
	p.ts = &l.ts
	if err := l.Run(context.Background()); !errors.Is(err, ErrStopped) || !p.done {
		return err
	}
	return nil
}

// tickLimit is a simulated platform that stops the loop after its ticks.
type tickLimit struct {
	*Sim
	ts    *Timestep
	ticks uint64
	done  bool
}

func (t *tickLimit) Poll() error {
	if t.ts.ticks >= t.ticks {
		t.done = true
		return ErrStopped
	}
	return t.Sim.Poll()
}
