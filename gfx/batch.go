//go:build cgo

package gfx

// Batch sizes, in sprites (instances) and polygon vertices.
const (
	// minBatch is the sprite batch's capacity at first, and the least it
	// shrinks to: 1,024 sprites, 52 KiB.
	minBatch = 1024
	// maxBatch bounds the sprite batch: a run of sprites on one page that
	// reaches it is drawn, and the run goes on in a new batch, so a frame
	// of any number of sprites (or glyphs) holds at most 64 Ki of them,
	// 3.3 MiB, on the CPU and in the instance buffer. The cost is one more
	// draw call per 64 Ki sprites.
	maxBatch = 1 << 16
	// minPolyBatch and maxPolyBatch are the same for the polygon batch, in
	// vertices (12 bytes each): 48 KiB and 3 MiB.
	minPolyBatch = 1 << 12
	maxPolyBatch = 1 << 18
	// shrinkFrames is how many frames in a row must use under a quarter
	// of a batch before it shrinks: a second at 60 Hz, so a batch does not
	// shrink and grow again when a game draws a few frames of
	// less.
	shrinkFrames = 60
)

// bufferUse follows how much of a batch the frames use, so that a batch
// (its slice and its GL buffer) grown by one huge frame is given back once
// frames stop needing it: after shrinkFrames frames in a row whose largest
// flush used under a quarter of its capacity, it shrinks to twice the
// largest of those flushes (never below the batch's minimum). A batch at
// its steady size never shrinks, so steady frames allocate nothing.
type bufferUse struct {
	peak int // the largest flush of the frame being drawn
	most int // the largest flush of the frames in the current low run
	low  int // frames in a row whose peak was under a quarter of the capacity
}

// use records a flush of n sprites or vertices.
func (u *bufferUse) use(n int) { u.peak = max(u.peak, n) }

// endFrame ends a frame of a batch of capacity c and returns the capacity
// it should have now: c, or less when it shrinks, never below floor.
func (u *bufferUse) endFrame(c, floor int) int {
	peak := u.peak
	u.peak = 0
	if c <= floor || peak >= c/4 {
		u.low, u.most = 0, 0
		return c
	}
	u.low++
	u.most = max(u.most, peak)
	if u.low < shrinkFrames {
		return c
	}
	n := max(2*u.most, floor)
	u.low, u.most = 0, 0
	return min(n, c)
}

// shrinkBatches gives back what the sprite and polygon batches do not
// need any more, at the end of a frame: their slices are made again
// smaller, and their GL buffers shrink at their next upload (stream
// sizes each upload's store by its capacity).
func (r *Renderer) shrinkBatches() {
	if c := r.spriteUse.endFrame(cap(r.batch), minBatch); c < cap(r.batch) {
		r.batch = make([]instance, 0, c)
		r.capBytes = min(r.capBytes, c*instanceSize)
	}
	if c := r.polyUse.endFrame(cap(r.polys), minPolyBatch); c < cap(r.polys) {
		r.polys = make([]polyVertex, 0, c)
		r.polyCapBytes = min(r.polyCapBytes, c*polyVertexSize)
	}
}
