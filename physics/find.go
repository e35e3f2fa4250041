package physics

import "sync/atomic"

// The pair search and narrow phase in blocks (stage find): the grid's
// sorted entries in blocks of entryBlock, each block searching its
// entries' pairs and testing them, then the movers in blocks of
// entryBlock, each testing its dynamic bodies against the statics near
// them. Each block keeps the contacts it finds, in the order it found
// them, in chunks of a pool shared by the step's workers; the caller
// joins the blocks in order (joinFound), so the contacts are those a
// search one pair after the other finds, in its order; then the blocks
// record them at their places (stage record), each turning contact's
// constraint where its colour puts it.
//
// The pool holds as many pairs as the most any step has found (Reserve:
// the world's contact limit), and a few chunks a block over. A step whose
// blocks find more stops them and searches again one pair after the other
// (findSerial), which stops at the limit: a pile-up costs what it did.

// foundChunk is how many pairs a block takes from the pool at a time.
const foundChunk = 64

// findBlock is what one block of stage find found: its chunks (head,
// linked by World.chunkNext; tail, the one it fills), and how many pairs;
// then, joined, where its contacts begin.
type findBlock struct {
	head, tail int32
	n          int32
	start      int32
	bounce     bool // a contact it recorded may bounce (pointState.mayBounce)
}

// findContacts runs the search in blocks and records what they found,
// and reports whether it did: false, with nothing recorded, when the
// blocks found more pairs than the pool holds.
func (w *World) findContacts() bool {
	pairBlocks := 0
	if len(w.movers) > 0 {
		pairBlocks = blocks(len(w.grid.sorted), entryBlock)
	}
	w.pairBlocks = pairBlocks
	n := pairBlocks + blocks(len(w.movers), entryBlock)
	w.finds = resize(w.finds, n)
	// Room for the pairs of the busiest step so far, and every block's
	// last chunk part full.
	w.fitFound(len(w.previous)+n*foundChunk, n, w.limit)
	w.chunks.Store(0)
	w.spilled.Store(false)
	w.parallel(stageFind, n, len(w.movers))
	if w.spilled.Load() {
		return false
	}
	total := w.joinFound()
	w.parallel(stageRecord, n, total)
	return true
}

// fitFound makes room in the pool for pairs pairs in chunks, as many as
// the contact limit needs at most, for blocks blocks, allocating only
// past its high-water mark (or Reserve's).
func (w *World) fitFound(pairs, blocks, limit int) {
	chunks := blocks + (min(pairs, limit+1)+foundChunk-1)/foundChunk
	if len(w.chunkNext) < chunks {
		chunks = max(chunks, 2*len(w.chunkNext))
		w.chunkNext = make([]int32, chunks)
		w.found = make([]found, chunks*foundChunk)
	}
}

// findBlock runs block i of stage find on a worker with scratch s.
func (w *World) findBlock(i int, s *scratch) {
	fb := &w.finds[i]
	*fb = findBlock{head: -1, tail: -1}
	if i < w.pairBlocks {
		lo, hi := span(i, entryBlock, len(w.grid.sorted))
		for e := lo; e < hi; e++ {
			if w.spilled.Load() {
				return
			}
			s.nearby = w.grid.after(e, s.nearby[:0])
			mi := w.movers[w.grid.sorted[e].item]
			for _, o := range s.nearby {
				if mj := w.movers[o]; w.bothMove(mi, mj) && !w.findPair(mi, mj, fb, s) {
					return
				}
			}
		}
		return
	}
	lo, hi := span(i-w.pairBlocks, entryBlock, len(w.movers))
	for _, k := range w.movers[lo:hi] {
		b := &w.bodies[k]
		if b.Kind != Dynamic || b.asleep || b.Disabled {
			continue
		}
		if w.spilled.Load() {
			return
		}
		lo, hi := w.staticBounds(b)
		s.near = w.staticGrid.query(lo, hi, s.near[:0])
		for _, st := range s.near {
			if !w.findPair(w.statics[st], k, fb, s) {
				return
			}
		}
	}
}

// findPair tests bodies i and j and keeps their contact in block fb;
// false when the pool is spent.
func (w *World) findPair(i, j int32, fb *findBlock, s *scratch) bool {
	s.work++
	if !w.test(i, j, &s.found, &s.cursor, &s.probes) {
		return true
	}
	k := int(fb.n) % foundChunk
	if k == 0 { // a chunk full (or none yet): take another
		c := w.chunks.Add(1) - 1
		if int(c) >= len(w.chunkNext) {
			w.spilled.Store(true)
			return false
		}
		w.chunkNext[c] = -1
		if fb.tail >= 0 {
			w.chunkNext[fb.tail] = c
		} else {
			fb.head = c
		}
		fb.tail = c
	}
	w.found[int(fb.tail)*foundChunk+k] = s.found
	fb.n++
	return true
}

// foundAt returns the n-th pair block fb found, and the chunk it is in
// (for the next call, with n+1: the chunks are followed, not searched).
func (w *World) foundAt(fb *findBlock, n int, chunk *int32) *found {
	k := n % foundChunk
	if n == 0 {
		*chunk = fb.head
	} else if k == 0 {
		*chunk = w.chunkNext[*chunk]
	}
	return &w.found[int(*chunk)*foundChunk+k]
}

// joinFound places the blocks' pairs one after the other, in block order,
// as the contacts of this step (up to the contact limit), and colours the
// turning ones' constraints; it returns how many there are.
func (w *World) joinFound() int {
	total := 0
	w.staticFrom = -1
	for b := range w.finds {
		if b == w.pairBlocks {
			w.staticFrom = int32(total)
		}
		fb := &w.finds[b]
		fb.start = int32(total)
		total += int(fb.n)
	}
	if w.staticFrom < 0 {
		w.staticFrom = int32(total)
	}
	if total > w.limit {
		w.over = true // the pairs past the limit are not recorded
		total = w.limit
		w.staticFrom = min(w.staticFrom, int32(total))
	}
	w.contacts = resize(w.contacts, total)
	if !w.turning {
		w.turn, w.keep, w.cons = w.turn[:0], w.keep[:0], w.cons[:0]
		return total
	}
	w.turn = resize(w.turn, total)
	w.keep = resize(w.keep, total)
	w.cons = resize(w.cons, total)
	w.tint = resize(w.tint, total)
	used := w.clearColours()
	g := 0
	for b := range w.finds {
		fb := &w.finds[b]
		var chunk int32
		for n := 0; n < int(fb.n) && g < total; n++ {
			f := w.foundAt(fb, n, &chunk)
			w.tint[g] = w.colourOf(used, f.i, f.j)
			g++
		}
	}
	w.placeColours()
	w.coloured = true
	return total
}

// recordBlock records block i's pairs: the contacts at their places, each
// turning one's constraint at its colour's.
func (w *World) recordBlock(i int) {
	fb := &w.finds[i]
	fb.bounce = false
	var chunk int32
	for n := 0; n < int(fb.n); n++ {
		g := int(fb.start) + n
		if g >= len(w.contacts) {
			return
		}
		f := w.foundAt(fb, n, &chunk)
		ci := g
		if w.turning {
			ci = int(w.to[g])
		}
		if w.record(g, ci, f) {
			fb.bounce = true
		}
	}
}

// findState is the World's state for the blocks of stage find: kept in a
// struct of its own, so that the atomics the workers touch share no line
// with the fields the caller writes.
type findState struct {
	_          [64]byte
	chunks     atomic.Int32 // the chunks taken from the pool this step
	spilled    atomic.Bool  // a block found the pool spent
	_          [64]byte
	found      []found // the pool: chunks of foundChunk pairs
	chunkNext  []int32 // each chunk's next in its block; -1: none
	finds      []findBlock
	pairBlocks int   // the blocks that search the grid come first; the rest, the statics
	staticFrom int32 // the contacts with statics begin here...
	narrowEnd  int32 // ... and the contacts the narrow phase found end here (the resting ones follow)
}
