package netplay

import (
	"fmt"
	"math/bits"
	"time"

	"github.com/fixstep/fixstep/engine"
)

// noTick marks "no tick": no wrong prediction pending.
const noTick = int(^uint(0) >> 1)

// tickHash is the hash of a final state: the state before tick.
type tickHash struct {
	tick int
	hash uint64
	ok   bool
}

// rollback is the core that the roles which predict stand on: a peer's
// Session (a player or a spectator) and a server's Client, as GGPO's Sync
// serves its peer, spectator and sync-test backends and GGRS's SyncLayer
// every session. A fix to rollback is made here, once.
//
// It keeps the inputs of the last ring ticks as rows of one input per
// player: the final ones (confirmed by their player, or by the server)
// in rows, what the game was last given in used, and this machine's
// player's own inputs as it read them in own. recv says, for each
// player, how far its inputs are final. A tick runs as soon as the role
// lets it (advance): on the final inputs, or on predictions (a player's
// last final input repeated) where they are not. When a final input
// arrives for a tick that ran on a prediction that differs (confirm, or a
// whole row: putRow then settle), firstWrong marks it, and rerun loads
// the state saved before that tick and runs the ticks since again. It
// saves the game before the ticks its role asks for, hashes the saved
// states of the checkpoints once they are final, and gives a recorder
// every tick once it ran on final inputs. A seat its role vacates (a
// peer-to-peer player the others lost) is empty, its input zero, from
// the tick they agreed on, for good.
//
// The role owns the network: what arrives, what it sends, when a tick
// may run, the time sync. The core counts its figures (ticks, rollbacks,
// predictions) into the role's MatchStats.
type rollback struct {
	hooks
	saver    engine.Saver
	inputter engine.Inputter
	clock    engine.Clock
	ticks    tickTime
	work     workload    // what its ticks cost, and what its frames' budget allows
	delay    int         // the role's input delay, before the cost's (see inputDelay)
	counts   *MatchStats // the role's figures
	scaler   TimeScaler
	scale    float64      // the time scale set last
	rec      TickListener // hears every final tick, or nil
	recNext  int          // the next tick to give rec

	players, size int
	ring          int           // ticks of rows kept
	tick          int           // the next tick to simulate
	recv          [MaxSeats]int // per player: the next tick whose input is not final
	base          int           // the first tick with rows: 0, or a loaded state's
	unknown       uint32        // the seats taken for empty before base
	vacant        uint32        // the seats vacated for good (vacate), each from vacantFrom
	vacantFrom    [MaxPeers]int // the tick each vacant seat is empty from
	rows          []byte        // ring rows of players·size: the final inputs
	rowEmpty      []uint32      // each row's empty seats
	rowTick       []int         // for rows that arrive whole: the tick each holds, -1 none
	used          []byte        // ring rows: the inputs the game was last given
	usedPred      []uint32      // each used row's predicted players
	usedEmpty     []uint32      // and its empty seats
	own           []byte        // ring of the local player's inputs, as read
	firstWrong    int           // the first tick run on a wrong prediction, or noTick
	states        [][]byte      // the game before tick stateTick[i], at i = tick % len
	stateTick     []int         // which tick states[i] precedes; -1: none
	err           error         // why the role stopped
	every         int           // the ticks between checkpoints; 0: none hashed
	nextHash      int           // the next checkpoint to hash
	hashes        [8]tickHash   // our hashes of final states, by checkpoint
}

// newRollback returns the core of a role that runs game at tps ticks a
// second on clock, with frames of budget (0: the default, see
// frameBudget), counting into st. A nil game is a Probe's, which runs
// nothing.
func newRollback(game engine.Game, tps int, clock engine.Clock, budget time.Duration, st *MatchStats) rollback {
	r := rollback{ticks: newTickTime(tps), clock: clock, counts: st, scale: 1, firstWrong: noTick}
	r.work.budget = frameBudget(budget, tps)
	r.local = -1
	if game != nil {
		r.hooks = findHooks(game)
		r.saver, _ = game.(engine.Saver)
		r.inputter, _ = game.(engine.Inputter)
	}
	st.TimeScale = 1
	return r
}

// setup sizes the core for players inputs of size bytes a tick, ring
// ticks of rows, keep saved states and checkpoints every ticks apart
// (0: none), the first of them first.
func (r *rollback) setup(players, size, ring, keep, every, first int) {
	r.players, r.size, r.ring, r.every, r.nextHash = players, size, ring, every, first
	row := players * size
	r.rows, r.used, r.own = make([]byte, ring*row), make([]byte, ring*row), make([]byte, ring*size)
	r.rowEmpty, r.usedPred, r.usedEmpty = make([]uint32, ring), make([]uint32, ring), make([]uint32, ring)
	r.rowTick = make([]int, ring)
	for i := range r.rowTick {
		r.rowTick[i] = -1
	}
	r.states, r.stateTick = make([][]byte, keep), make([]int, keep)
	for i := range r.stateTick {
		r.stateTick[i] = -1
	}
}

// restart makes the core run on from a state of tick that the role
// loaded (or will load, before the first tick runs): rows, states and
// hashes start there, the seats are unknown until the first row comes,
// and the first checkpoint hashed is first.
func (r *rollback) restart(tick, first int, unknown uint32) {
	r.tick, r.base, r.unknown, r.firstWrong, r.recNext = tick, tick, unknown, noTick, tick
	for p := range r.players {
		r.recv[p] = tick
	}
	for i := range r.rowTick {
		r.rowTick[i] = -1
	}
	for i := range r.stateTick {
		r.stateTick[i] = -1
	}
	r.hashes, r.nextHash = [8]tickHash{}, first
}

// SetTickListener makes l hear every tick once it is final: run on every
// player's final input (see TickListener), from the next Update on. Call
// it before the loop runs; nil takes it off.
func (r *rollback) SetTickListener(l TickListener) { r.rec = l }

// SetTimeScaler gives the role the clock its time sync speeds up and
// slows down: the loop's timestep, as in s.SetTimeScaler(loop.Timestep()).
// The role then owns its time scale; without one, a role that runs ahead
// stalls instead.
func (r *rollback) SetTimeScaler(ts TimeScaler) { r.scaler = ts }

// Tick returns the next tick the role simulates: ticks 0 to Tick()-1
// have run, the last ones perhaps on predicted inputs.
func (r *rollback) Tick() uint64 { return uint64(r.tick) }

// Err returns why the role stopped, or nil.
func (r *rollback) Err() error { return r.err }

// MatchStats returns the figures the role counts, refreshed by every
// Update.
func (r *rollback) MatchStats() *MatchStats { return r.counts }

// setScale sets the loop's time scale to s, if it is not that already.
func (r *rollback) setScale(s float64) {
	if s != r.scale {
		r.scale = s
		if r.scaler != nil {
			r.scaler.SetTimeScale(s)
		}
	}
}

// inputDelay returns the ticks between reading the local player's input
// and the tick it is for: the role's own delay, and those its cost added.
func (r *rollback) inputDelay() int { return r.delay + r.work.delay }

// confirmed returns how many ticks have every player's final input: a
// vacant seat's are all final.
func (r *rollback) confirmed() int {
	c := noTick
	for p := range r.players {
		if r.vacant>>p&1 == 0 {
			c = min(c, r.recv[p])
		}
	}
	return c
}

// vacate makes player p's seat empty from tick from on, for good: its
// input zero and engine.Inputs.Seated false. Its inputs before from must
// be final (recv[p] >= from, and no tick from on final yet); ticks from
// on that ran with it seated run again.
func (r *rollback) vacate(p, from int) {
	r.vacant |= 1 << p
	r.vacantFrom[p], r.recv[p] = from, from
	if from < r.tick {
		r.firstWrong = min(r.firstWrong, from)
	}
}

// vacantAt returns the seats vacated at tick f.
func (r *rollback) vacantAt(f int) uint32 {
	var m uint32
	for v := r.vacant; v != 0; v &= v - 1 {
		if p := bits.TrailingZeros32(v); f >= r.vacantFrom[p] {
			m |= 1 << p
		}
	}
	return m
}

// finalRow returns tick f's final row of every player's input and its
// empty seats, a vacant seat's input zeroed.
func (r *rollback) finalRow(f int) ([]byte, uint32) {
	v := r.vacantAt(f)
	for m := v; m != 0; m &= m - 1 {
		clear(r.input(r.rows, bits.TrailingZeros32(m), f))
	}
	return r.row(r.rows, f), r.rowEmpty[f%r.ring] | v
}

// input returns player p's input of tick f in ring (rows or used).
func (r *rollback) input(ring []byte, p, f int) []byte {
	o := (f%r.ring*r.players + p) * r.size
	return ring[o : o+r.size : o+r.size]
}

// row returns every player's input of tick f in ring.
func (r *rollback) row(ring []byte, f int) []byte {
	n := r.players * r.size
	o := f % r.ring * n
	return ring[o : o+n : o+n]
}

// ownInput returns the local player's input of tick f, as read.
func (r *rollback) ownInput(f int) []byte {
	o := f % r.ring * r.size
	return r.own[o : o+r.size : o+r.size]
}

// readInput reads the local player's input of tick g from the game.
func (r *rollback) readInput(t engine.Tick, g int) {
	dst := r.ownInput(g)
	clear(dst)
	r.inputter.Input(r.ticks.tick(t, g, false), dst)
}

// confirm makes src player p's final input of tick f, the next one it
// lacks. If tick f ran on a prediction of it that differs, the next
// rerun goes back to f.
func (r *rollback) confirm(p, f int, src []byte) {
	copy(r.input(r.rows, p, f), src)
	if f < r.tick && r.usedPred[f%r.ring]>>p&1 != 0 && string(r.input(r.used, p, f)) != string(src) {
		r.firstWrong = min(r.firstWrong, f)
	}
	r.recv[p] = f + 1
}

// putRow keeps row, every player's final input of tick f, with its empty
// seats: rows arrive whole, in any order, within the ring; settle makes
// them final in order.
func (r *rollback) putRow(f int, row []byte, empty uint32) {
	copy(r.row(r.rows, f), row)
	r.rowEmpty[f%r.ring], r.rowTick[f%r.ring] = empty, f
}

// settle makes final the rows put that follow the last final one, in
// order; a tick that ran on a prediction that differs is the next
// rerun's, at the earliest.
func (r *rollback) settle() {
	f := r.recv[0]
	for r.rowTick[f%r.ring] == f {
		if i := f % r.ring; f < r.tick && (r.rowEmpty[i] != r.usedEmpty[i] || string(r.row(r.used, f)) != string(r.row(r.rows, f))) {
			r.firstWrong = min(r.firstWrong, f)
		}
		f++
	}
	for p := range r.players {
		r.recv[p] = f
	}
}

// inputsFor decides tick f's inputs: each player's final one, or a
// prediction, its last final input repeated (zero, its seat as before
// base, without one), and the local player's own input where its seat is
// not final and not empty; a vacant seat's is zero and empty from its
// tick on. It keeps them in used, where a final input is compared with
// them.
func (r *rollback) inputsFor(f int) engine.Inputs {
	var pred, empty uint32
	for p := range r.players {
		dst := r.input(r.used, p, f)
		switch k := r.recv[p]; {
		case r.vacant>>p&1 != 0 && f >= r.vacantFrom[p]:
			clear(dst)
			empty |= 1 << p
		case f < k:
			copy(dst, r.input(r.rows, p, f))
			empty |= r.rowEmpty[f%r.ring] & (1 << p)
		case k > r.base:
			pred |= 1 << p
			copy(dst, r.input(r.rows, p, k-1))
			empty |= r.rowEmpty[(k-1)%r.ring] & (1 << p)
		default:
			pred |= 1 << p
			clear(dst)
			empty |= r.unknown & (1 << p)
		}
		if p == r.local && f >= r.recv[p] && empty&(1<<p) == 0 {
			copy(dst, r.ownInput(f))
		}
	}
	r.usedPred[f%r.ring], r.usedEmpty[f%r.ring] = pred, empty
	return engine.NewInputs(r.row(r.used, f), r.size, pred).WithEmptySeats(empty)
}

// advance runs the next tick for the first time, saving the game before
// it first when save is set.
func (r *rollback) advance(t engine.Tick, save bool) error {
	f := r.tick
	start := r.clock.Now()
	if save {
		r.save(f)
	}
	gt := r.ticks.tick(t, f, false)
	gt.Input = r.inputsFor(f)
	if !gt.Input.Confirmed() {
		r.counts.Predicted++
	}
	if err := r.game.Update(gt); err != nil {
		return err
	}
	r.tick++
	r.work.took(r.clock.Now()-start, 1)
	return nil
}

// rollBackIfDue runs the rollback that a wrong prediction made due, if
// the frame's budget allows it now (workload.canRerun). It reports
// whether the role may go on to its ticks: not when the rollback waits
// for the next frame (counted in MatchStats.Deferred).
func (r *rollback) rollBackIfDue(t engine.Tick, now time.Duration) (goOn bool, err error) {
	if r.firstWrong == noTick {
		return true, nil
	}
	if !r.work.canRerun(now, r.tick-r.firstWrong) {
		r.counts.Deferred++ // the frame ran one: this one waits for the next
		return false, nil
	}
	return true, r.rerun(t)
}

// rerun loads the state before the first tick that ran on a wrong
// prediction and runs that tick and the ones after it again, up to the
// present, with the inputs known now, saving as it goes.
func (r *rollback) rerun(t engine.Tick) error {
	from := r.firstWrong
	r.firstWrong = noTick
	start := r.clock.Now()
	st, ok := r.stateAt(from)
	if !ok {
		return fmt.Errorf("netplay: no saved state before tick %d to roll back to (tick %d)", from, r.tick)
	}
	if err := r.saver.Load(st); err != nil {
		return fmt.Errorf("netplay: load the state before tick %d: %w", from, err)
	}
	for f := from; f < r.tick; f++ {
		if f > from {
			r.save(f)
		}
		gt := r.ticks.tick(t, f, true)
		gt.Input = r.inputsFor(f)
		if err := r.game.Update(gt); err != nil {
			return fmt.Errorf("netplay: tick %d run again after a rollback: %w", f, err)
		}
	}
	d := r.tick - from
	r.work.took(r.clock.Now()-start, d)
	r.work.rolled(d)
	r.counts.Rollbacks++
	r.counts.RollbackTicks += uint64(d)
	r.counts.RollbackTicksMax = max(r.counts.RollbackTicksMax, d)
	return nil
}

// reserve makes room in every saved state for one of size bytes and a
// quarter more, in one allocation, keeping what each holds: the saves
// after a state loaded from another machine allocate nothing (a joiner
// catching up saves into every one within a second), nor do those after
// one that outgrew its room (a world's state grows as its contacts do:
// the demo's by half as its bodies come to rest), until it outgrows that.
func (r *rollback) reserve(size int) {
	n := size + size/4
	var buf []byte
	for i, st := range r.states {
		if cap(st) >= n {
			continue
		}
		if len(buf) < n {
			buf = make([]byte, n*(len(r.states)-i))
		}
		if r.stateTick[i] < 0 {
			st = nil // holds nothing
		}
		r.states[i], buf = append(buf[:0:n], st...), buf[n:]
	}
}

// save saves the game as the state before tick f. A state that outgrew
// its room makes room for its size in all (reserve), so that the others
// do not grow one by one.
func (r *rollback) save(f int) {
	i := f % len(r.states)
	room := cap(r.states[i])
	r.states[i] = r.saver.Save(r.states[i][:0])
	r.stateTick[i] = f
	if n := len(r.states[i]); n > room {
		r.reserve(n)
	}
}

// stateAt returns the saved state before tick f, if it is kept.
func (r *rollback) stateAt(f int) ([]byte, bool) {
	i := f % len(r.states)
	return r.states[i], r.stateTick[i] == f
}

// nextCheckpoint hashes the next checkpoint whose state is final (saved
// before a tick that ran on final inputs and will not run again) and
// returns its hash, or false when there is none yet. A checkpoint whose
// state was not saved is passed over.
func (r *rollback) nextCheckpoint() (tickHash, bool) {
	for r.every > 0 && r.nextHash <= r.confirmed() && r.nextHash < r.tick && r.nextHash < r.firstWrong {
		c := r.nextHash
		r.nextHash += r.every
		if st, ok := r.stateAt(c); ok {
			h := tickHash{tick: c, hash: engine.StateHash(st), ok: true}
			r.hashes[c/r.every%len(r.hashes)] = h
			return h, true
		}
	}
	return tickHash{}, false
}

// ourHash returns our hash of the final state before checkpoint c, if
// we have it.
func (r *rollback) ourHash(c int) (uint64, bool) {
	if r.every <= 0 || c < 0 {
		return 0, false
	}
	h := r.hashes[c/r.every%len(r.hashes)]
	return h.hash, h.ok && h.tick == c
}

// record gives the recorder the ticks that became final: run (again,
// after a rollback) on every player's final input, so none from a
// rollback put off to the next frame on.
func (r *rollback) record() error {
	if r.rec == nil {
		return nil
	}
	for final := min(r.confirmed(), r.tick, r.firstWrong); r.recNext < final; r.recNext++ {
		n := r.recNext
		st, ok := r.stateAt(n)
		if !ok {
			st = nil
		}
		row, empty := r.finalRow(n)
		in := engine.NewInputs(row, r.size, 0).WithEmptySeats(empty)
		if err := r.rec.Confirmed(uint64(n), in, st); err != nil {
			return fmt.Errorf("netplay: record tick %d: %w", n, err)
		}
	}
	return nil
}

// fill refreshes the figures that are states, not counts.
func (r *rollback) fill() {
	r.counts.Tick, r.counts.Confirmed, r.counts.TimeScale = uint64(r.tick), uint64(r.confirmed()), r.scale
	r.counts.RollbackP99, r.counts.TickCost = r.work.p99(), r.work.cost
	if r.local >= 0 {
		r.counts.InputDelay = r.inputDelay()
	}
}

// Draw draws the game (see hooks.Draw), and ends the frame its Begin
// began: the next Update outside a Begin and a Draw is a frame of its
// own.
func (r *rollback) Draw(f engine.Frame) {
	r.work.end()
	r.hooks.Draw(f)
}
