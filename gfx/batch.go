//go:build cgo

package gfx

// Batch sizes, in sprites (instances) and polygon vertices: the bounds of
// a part of the sprite and polygon streams (see stream), which has four.
const (
	// minBatch is the sprite stream's part at first, and the least it
	// shrinks to: 1,024 sprites, 32 KiB.
	minBatch = 1024
	// maxBatch bounds the sprite stream's part, and so a batch: a run of
	// sprites on one page that reaches the end of a part is drawn, and the
	// run goes on in a new batch in the next part, so a frame of any
	// number of sprites (or glyphs) holds at most four parts of 64 Ki of
	// them, 8 MiB, in the sprite stream. The cost is one more draw call
	// per 64 Ki sprites.
	maxBatch = 1 << 16
	// minPolyBatch and maxPolyBatch are the same for the polygon stream, in
	// vertices (12 bytes each): parts of 48 KiB to 3 MiB.
	minPolyBatch = 1 << 12
	maxPolyBatch = 1 << 18
	// shrinkFrames is how many frames in a row must use under a quarter
	// of a batch before it shrinks: a second at 60 Hz, so a batch does not
	// shrink and grow again when a game draws a few frames of
	// less.
	shrinkFrames = 60
)

// bufferUse follows how much of a stream's part the frames use, so that a
// stream buffer grown by one huge frame is given back once frames stop
// needing it: after shrinkFrames frames in a row that used under a quarter
// of a part, the part shrinks to twice the most of those frames used
// (never below the stream's minimum). A part at its steady size never
// shrinks, so steady frames allocate nothing.
type bufferUse struct {
	peak int // what the frame being drawn used
	most int // the most a frame of the current low run used
	low  int // frames in a row whose peak was under a quarter of the capacity
}

// use records a frame's use of n elements.
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
