package physics

// A step's parallel phases are stages of blocks (see Workers): each block
// a fixed range of bodies, grid entries or constraints, the same whatever
// the workers, and each writes only what its own items own, so a block
// gives the same bits whichever worker runs it, and when. What must be in
// order is joined in order by the caller (the pairs found, the active
// bodies), and whatever one item's work adds to another's (a body's
// velocity from its contacts) is split by graph colour, the colours run
// one after another.

// stage is a kind of block: what runBlock does with block i.
type stage int32

const (
	stageNone     stage = iota
	stageCheck          // check and clamp the movers (contain)
	stageBegin          // the movers' start of step (beginBlock)
	stageFind           // the pair search and narrow phase (findBlock)
	stageRecord         // the contacts found, recorded (recordBlock)
	stageGravity        // a sub-step's gravity and damping (gravityBlock)
	stageWarm           // a colour's warm start (warmBlock)
	stageSolve          // a colour's soft pass (solveBlock)
	stageRelax          // a colour's relax pass (solveBlock)
	stageMove           // a sub-step's move (moveBlock)
	stageStore          // the impulses kept and reported (storeBlock)
	stageVelocity       // the bodies' velocities from the soft step (velocityBlock)
	stagePlace          // the bodies' angles and positions (placeBlock)
)

// Block sizes: items per block. Larger blocks cost fewer claims; smaller
// ones share a stage more evenly among many workers.
const (
	bodyBlock       = 128 // bodies, for the stages over bodies
	constraintBlock = 32  // constraints of a colour
	entryBlock      = 64  // grid entries (the pair search), or movers (against the statics)
)

// minParallel is the fewest items a stage must have for its blocks to be
// shared: a smaller stage costs the workers more to join than it saves.
// It depends on the world only, like every block.
const minParallel = 2 * constraintBlock

// DefaultMinBodies is Workers.MinBodies when it is zero.
const DefaultMinBodies = 1000

// blocks returns how many blocks of size cover n items.
func blocks(n, size int) int { return (n + size - 1) / size }

// span returns block i of size over n items.
func span(i, size, n int) (lo, hi int) { return i * size, min((i+1)*size, n) }

// scratch is one worker's own memory for a step's blocks: what it
// counts, and a query's answer.
type scratch struct {
	near   []int32 // statics near the body being tested
	nearby []int32 // grid entries near the entry being searched
	found  found   // the pair being tested
	cursor int     // lastOf's guess
	work   uint64  // as World.work
	probes uint64  // as pairTable.probes
	_      [64]byte
}

// parallel runs stage kind's n blocks of items items: on the step's pool
// when it has one and the stage is large enough, else on the caller.
func (w *World) parallel(kind stage, n, items int) {
	if w.pool == nil || n < 2 || items < minParallel {
		for i := range n {
			w.runBlock(kind, i, 0)
		}
		return
	}
	w.pool.run(w, kind, n)
}

// runBlock runs block i of stage kind, on worker worker.
func (w *World) runBlock(kind stage, i, worker int) {
	s := &w.scratch[worker]
	switch kind {
	case stageCheck:
		w.checkBlock(i)
	case stageBegin:
		w.beginBlock(i)
	case stageFind:
		w.findBlock(i, s)
	case stageRecord:
		w.recordBlock(i)
	case stageGravity:
		w.gravityBlock(i)
	case stageWarm:
		w.warmBlock(i)
	case stageSolve:
		w.solveBlock(i, true)
	case stageRelax:
		w.solveBlock(i, false)
	case stageMove:
		w.moveBlock(i)
	case stageStore:
		w.storeBlock(i)
	case stageVelocity:
		w.velocityBlock(i)
	case stagePlace:
		w.placeBlock(i, s)
	}
}

// startWorkers takes the world's pool for this step, if it has one and
// can, and sizes the workers' scratch; it reports whether it took it.
func (w *World) startWorkers() bool {
	w.fitScratch()
	for k := range w.scratch {
		w.scratch[k].cursor = 0
	}
	w.pool = nil
	if w.Workers != nil && len(w.movers) >= w.Workers.minBodies() && w.Workers.begin(w) {
		w.pool = w.Workers
	}
	return w.pool != nil
}

// fitScratch makes a scratch for each of the pool's workers.
func (w *World) fitScratch() {
	if n := w.Workers.Len(); len(w.scratch) < n {
		k := len(w.scratch)
		w.scratch = append(w.scratch, make([]scratch, n-k)...)
		// The room Reserve gave the others, so that a pool set after
		// Reserve does not grow its workers' scratch in a steady state.
		for ; k < n; k++ {
			s := &w.scratch[k]
			s.near, s.nearby = room(s.near, cap(w.statics)), room(s.nearby, cap(w.movers))
		}
	}
}

// stopWorkers gives the pool back and adds up what the workers counted.
func (w *World) stopWorkers() {
	if w.pool != nil {
		w.pool.end()
		w.pool = nil
	}
	for k := range w.scratch {
		s := &w.scratch[k]
		w.work += s.work
		w.prevTable.probes += s.probes
		s.work, s.probes = 0, 0
	}
}
