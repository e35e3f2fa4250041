package physics

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Workers is a pool of goroutines that step a World together with the
// goroutine that calls Step: set it on a world (World.Workers) and each
// step's parallel phases are cut into blocks that every worker, the caller
// included, takes in turn. The game owns it: NewWorkers starts it, Close
// stops it; it is not part of the world (no snapshot, hash or Diff sees
// it), and a world steps to the same bits with any number of workers, or
// none (see "Workers" in the package doc).
//
// The caller is worker 0 and can finish every block alone: a step never
// waits for a worker that has not started, only for a block another
// worker has taken and not yet finished. Between steps the workers sleep;
// during one they spin, yielding to the scheduler, and sleep when no stage
// of blocks comes for a while (a small world's steps wake them not at
// all); a pool of more workers than the machine has cores costs time,
// never a different world.
// Starting a step costs no goroutine and no allocation.
//
// One pool may serve several worlds, from any goroutines: a world whose
// step finds the pool stepping another world steps alone. A nil *Workers
// is a pool of one, the caller: every method works on it.
type Workers struct {
	// MinBodies is the fewest dynamic and kinematic bodies a world must
	// have to step on the pool: a smaller world steps on the caller
	// alone, and costs the pool nothing, not even a wake-up. Its
	// stages are too short to share (each block a few microseconds). It
	// decides where a step runs, never what it computes. Zero means
	// DefaultMinBodies (1,000: the demo's 300 bodies step alone). Set it
	// before the pool's first step.
	MinBodies int

	n int // workers, the caller included

	// The stage being run: its sequence number, or stepEnd; then its kind,
	// its blocks and their claims, by the sequence number's parity (a
	// worker that saw one stage may read them while the next is being
	// set, never while the one after is), and the world they are of.
	// Written by the stepping goroutine, read by the workers.
	word   atomic.Uint64
	kind   [2]atomic.Int32
	blocks [2]atomic.Int32
	claims [2]atomic.Pointer[claimSet]
	world  atomic.Pointer[World]
	// done counts the blocks the workers have finished, over the pool's
	// life: a stage is over when it reaches target.
	done atomic.Uint64
	_    [64]byte // the stepping goroutine's own fields on a line of their own

	seq      uint64 // the last stage's sequence number
	target   uint64 // done's count once the stage being run is over
	busy     atomic.Bool
	closed   atomic.Bool
	sleepers atomic.Int32 // workers asleep, or about to be
	wake     []chan struct{}
	quit     chan struct{}
	wg       sync.WaitGroup
}

// claimSet holds the claims of the blocks of a stage: the caller sets
// each to the stage's sequence number less one before it announces the
// stage, and a worker takes block i of stage s by moving its claim from
// s-1 to s. A worker that saw an older stage expects another number, so
// it can take nothing of a newer one (as Box2D v3's blocks' sync indices).
type claimSet struct{ stage []atomic.Uint64 }

// stepEnd marks the end of a step in the stage word: the workers sleep.
const stepEnd = 1 << 63

// NewWorkers returns a pool of n workers: the goroutine that calls
// World.Step and n-1 more, which it starts now. n below 2 gives a pool
// that starts nothing and steps every world on the caller alone (the same
// as no pool). Close stops the goroutines.
func NewWorkers(n int) *Workers {
	p := &Workers{n: max(n, 1), quit: make(chan struct{})}
	p.word.Store(stepEnd)
	p.wake = make([]chan struct{}, p.n)
	for id := 1; id < p.n; id++ {
		p.wake[id] = make(chan struct{}, 1)
		p.wg.Add(1)
		//fixvet:ignore the workers take blocks whose results do not depend on which worker runs them, or when
		go p.work(id)
	}
	// Wait for the workers to go to sleep once: a goroutine's first wait
	// allocates (the runtime's records of a waiter), which belongs to the
	// pool's start, not to a step of a steady state.
	for p.sleepers.Load() < int32(p.n-1) {
		runtime.Gosched()
	}
	return p
}

// Len returns the number of workers, the caller included: 1 for a nil
// pool.
func (p *Workers) Len() int {
	if p == nil {
		return 1
	}
	return p.n
}

// Close stops the pool's goroutines, once the step running on it (if any)
// is over, and returns when they have stopped. A world whose pool is
// closed steps on its caller alone. Close may be called more than once.
func (p *Workers) Close() {
	if p == nil || !p.closed.CompareAndSwap(false, true) {
		return
	}
	close(p.quit)
	p.wg.Wait()
}

// minBodies returns MinBodies or its default.
func (p *Workers) minBodies() int {
	if p.MinBodies == 0 {
		return DefaultMinBodies
	}
	return p.MinBodies
}

// begin takes the pool for a step of w, and reports whether it did: not
// when the pool is nil, of one, closed, or stepping another world. The
// workers sleep on until the step's first stage of blocks.
func (p *Workers) begin(w *World) bool {
	if p == nil || p.n < 2 || p.closed.Load() || !p.busy.CompareAndSwap(false, true) {
		return false
	}
	p.world.Store(w)
	p.seq++
	p.kind[p.seq&1].Store(0)
	p.blocks[p.seq&1].Store(0)
	p.word.Store(p.seq) // a step, no stage yet
	return true
}

// end gives the pool back after a step: the workers go to sleep.
func (p *Workers) end() {
	p.seq++
	p.word.Store(p.seq | stepEnd)
	p.world.Store(nil)
	p.busy.Store(false)
}

// run runs blocks 0..n-1 of stage kind of w on the pool, the caller
// taking its share, and returns when all are done.
func (p *Workers) run(w *World, kind stage, n int) {
	p.seq++
	seq := p.seq
	cs := p.claims[seq&1].Load()
	if cs == nil || len(cs.stage) < n { // a stage larger than any before
		size := n
		if cs != nil {
			size = max(n, 2*len(cs.stage))
		}
		cs = &claimSet{stage: make([]atomic.Uint64, size)}
		p.claims[seq&1].Store(cs)
	}
	for i := range cs.stage[:n] {
		cs.stage[i].Store(seq - 1)
	}
	p.kind[seq&1].Store(int32(kind))
	p.blocks[seq&1].Store(int32(n))
	p.word.Store(seq)
	if p.sleepers.Load() > 0 {
		p.wakeAll()
	}
	mine := p.take(w, cs, kind, seq, n, 0)
	p.target += uint64(n - mine)
	if mine == n {
		return // every block was the caller's: nothing to wait for
	}
	for spin := 0; p.done.Load() != p.target; spin++ {
		if spin > spinsBeforeYield {
			runtime.Gosched()
		}
	}
}

// take runs the blocks of stage seq (kind, n blocks, of w) that worker id
// can claim, going once round them from its own first block, and returns
// how many it ran. Worker k of N starts at block k·n/N, as Box2D v3's do:
// each keeps to its own part of a stage while it can, so in one colour
// after another it meets the same bodies, already in its cache, and the
// workers rarely contend for one claim.
func (p *Workers) take(w *World, cs *claimSet, kind stage, seq uint64, n, id int) int {
	ran := 0
	i := id * n / p.n
	for range n {
		if c := &cs.stage[i]; c.Load() == seq-1 && c.CompareAndSwap(seq-1, seq) {
			w.runBlock(kind, i, id)
			ran++
		}
		if i++; i == n {
			i = 0
		}
	}
	return ran
}

// wakeAll wakes the workers that sleep.
func (p *Workers) wakeAll() {
	for _, c := range p.wake[1:] {
		//fixvet:ignore a wake-up: whether it finds the worker asleep decides only who takes a block
		select {
		case c <- struct{}{}:
		default: // woken already
		}
	}
}

// A worker looks for the next stage spinsBeforeYield times, then yields
// to the scheduler between looks, and after idleLooks looks in all it
// sleeps until a stage wakes it: a pool of more workers than cores does
// not keep the caller from the cores for long, nor does a pool between
// steps.
const (
	spinsBeforeYield = 64
	idleLooks        = spinsBeforeYield + 256
)

// work is worker id's goroutine: it takes blocks of the stages as they
// come (serve), and sleeps when none has come for a while, or a step has
// ended, until a stage wakes it.
func (p *Workers) work(id int) {
	defer p.wg.Done()
	last := uint64(0) // the last stage it saw
	for {
		// Counted as asleep before it looks a last time: a stage set
		// after the look finds it counted, and wakes it.
		p.sleepers.Add(1)
		if v := p.word.Load(); v&stepEnd != 0 || v == last {
			//fixvet:ignore a worker sleeps until a stage or Close: it decides only who takes a block
			select {
			case <-p.wake[id]:
			case <-p.quit:
				p.sleepers.Add(-1)
				return
			}
		}
		p.sleepers.Add(-1)
		last = p.serve(id, last)
	}
}

// serve takes blocks of each stage after last as they come, and returns
// the last stage it saw when the step ends or no stage comes for
// idleLooks looks.
func (p *Workers) serve(id int, last uint64) uint64 {
	for idle := 0; idle < idleLooks; idle++ {
		seq := p.word.Load()
		if seq&stepEnd != 0 {
			return last
		}
		if seq == last {
			if idle > spinsBeforeYield {
				runtime.Gosched()
			}
			continue
		}
		// A new stage: its kind, blocks, claims and world are read before
		// a block is claimed. A claim succeeds only while the stage runs
		// (its blocks all claimed, it ends; a newer stage's claims expect
		// another number), so the next stage but one, which would
		// overwrite them, has not been set: they are the stage's.
		kind, n := stage(p.kind[seq&1].Load()), int(p.blocks[seq&1].Load())
		w, cs := p.world.Load(), p.claims[seq&1].Load()
		if cs != nil && n <= len(cs.stage) {
			if ran := p.take(w, cs, kind, seq, n, id); ran > 0 {
				p.done.Add(uint64(ran))
			}
		}
		last, idle = seq, 0
	}
	return last
}
