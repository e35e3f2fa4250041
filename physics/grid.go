package physics

import (
	"math"
	"slices"
)

// grid is a hierarchical spatial hash: each body goes in one cell, of the
// level whose cells are the smallest power of two (in world units) its
// bounds fit in, at its centre. Two touching bodies of one level have
// their centres in the same or neighbouring cells; a body finds larger
// ones in the 3×3 cells around its centre at each larger level in use.
// So the cost per body does not depend on the largest body in the world
// (one kinematic box of half-width 100 among balls of 0.2 costs what a
// ball costs), nor on how far apart bodies are: cells are 64-bit, never
// clamped, and coordinates are bounded by MaxCoordinate.
//
// The entries are counting-sorted by hash bucket, so the pair search reads
// memory in order. Nothing is allocated once the grid has held as many
// bodies. The order of everything it reports depends only on the bodies:
// it is the same on every build.
type grid struct {
	mask    uint32  // buckets - 1
	entries []entry // unsorted, as built
	sorted  []entry // by bucket
	start   []int32 // bucket b's entries are sorted[start[b]:start[b+1]]
	levels  []int8  // the levels in use, ascending
	byLevel [levelSpan]int32
}

type entry struct {
	box    [4]float64 // the body's bounds: min x, min y, max x, max y
	cx, cy float64    // its centre
	item   int32      // the index the grid was built from
	level  int8
	x, y   int64 // the cell of the centre
	bucket uint32
}

// Levels: a cell of level L is 2^L units wide. Bodies are between MinSize
// and MaxSize, so levels run from about -13 to 21.
const (
	minLevel  = -20
	levelSpan = 48
)

// levelOf returns the smallest level whose cells are at least size wide:
// the exponent of size, rounded up, read from its bits (exact).
func levelOf(size float64) int8 {
	b := math.Float64bits(size)
	e := int((b>>52)&0x7ff) - 1023
	if b&(1<<52-1) != 0 {
		e++
	}
	return int8(min(max(e, minLevel), minLevel+levelSpan-1))
}

// inv returns 1/2^level, exactly.
func inv(level int8) float64 { return math.Float64frombits(uint64(1023-int(level)) << 52) }

func cell(v float64, level int8) int64 { return int64(math.Floor(v * inv(level))) }

// reserve makes room for n items.
func (g *grid) reserve(n int) {
	size := 1
	for size < n {
		size <<= 1
	}
	g.entries = room(g.entries, n)
	g.sorted = room(g.sorted, n)
	if cap(g.start) < size+1 {
		g.start = make([]int32, 0, 2*size+1)
	}
	g.levels = room(g.levels, levelSpan)
}

// build fills the grid with bodies[ids[k]] for every k, each bounds grown
// by pad on every side (pairs that near count).
func (g *grid) build(bodies []Body, ids []int32, pad, dt float64) {
	size := uint32(1)
	for size < uint32(len(ids)) {
		size <<= 1
	}
	g.mask = size - 1
	if cap(g.start) < int(size)+1 {
		g.start = make([]int32, size+1, 2*size+1)
	}
	g.start = g.start[:size+1]
	clear(g.start)
	clear(g.byLevel[:])
	g.entries = g.entries[:0]
	for k, id := range ids {
		b := &bodies[id]
		lo, hi := b.bounds()
		lo, hi = lo.Sub(Vec2{pad, pad}), hi.Add(Vec2{pad, pad})
		if dt > 0 {
			lo, hi = b.sweep(lo, hi, dt)
		}
		l := levelOf(max(hi.X-lo.X, hi.Y-lo.Y))
		g.byLevel[l-minLevel]++
		x, y := cell(b.Pos.X, l), cell(b.Pos.Y, l)
		bk := g.bucket(l, x, y)
		g.entries = append(g.entries, entry{box: [4]float64{lo.X, lo.Y, hi.X, hi.Y}, cx: b.Pos.X, cy: b.Pos.Y,
			item: int32(k), level: l, x: x, y: y, bucket: bk})
		g.start[bk+1]++
	}
	g.levels = g.levels[:0]
	for l, n := range g.byLevel {
		if n > 0 {
			g.levels = append(g.levels, int8(l+minLevel))
		}
	}
	// Counting sort by bucket; stable, so the order is deterministic.
	for b := 1; b < len(g.start); b++ {
		g.start[b] += g.start[b-1]
	}
	if cap(g.sorted) < len(g.entries) {
		g.sorted = make([]entry, len(g.entries), cap(g.entries))
	}
	g.sorted = g.sorted[:len(g.entries)]
	next := g.start[:len(g.start)-1]
	for i := range g.entries {
		e := &g.entries[i]
		g.sorted[next[e.bucket]] = *e
		next[e.bucket]++
	}
	// next was start shifted by one bucket's worth; restore start.
	copy(g.start[1:], g.start[:len(g.start)-1])
	g.start[0] = 0
}

// pairs calls f for every pair of items whose bounds overlap, once per
// pair, in a deterministic order, and stops early when f returns false.
func (g *grid) pairs(f func(a, b int32) bool, buf *[]int32) {
	for i := range g.sorted {
		*buf = g.after(i, (*buf)[:0])
		a := g.sorted[i].item
		for _, b := range *buf {
			if !f(a, b) {
				return
			}
		}
	}
}

// after appends to dst the items whose bounds overlap those of sorted
// entry i and that pair with it from i's side: later entries of its cell,
// its four forward neighbours at its level, the 3×3 cells around it at
// each larger level in use. Over every i, that is every overlapping pair
// once, in an order that depends only on the bodies. (The cells' scan is
// written out twice, not called: this is the broad phase's inner loop.)
func (g *grid) after(i int, dst []int32) []int32 {
	s, start := g.sorted, g.start
	e := &s[i]
	// Later bodies of the same cell.
	for j := i + 1; j < int(start[e.bucket+1]); j++ {
		if o := &s[j]; o.x == e.x && o.y == e.y && o.level == e.level && overlap(e, o) {
			dst = append(dst, o.item)
		}
	}
	// Four neighbours at its level.
	for _, d := range forward {
		x, y := e.x+d[0], e.y+d[1]
		b := g.bucket(e.level, x, y)
		for j := start[b]; j < start[b+1]; j++ {
			if o := &s[j]; o.x == x && o.y == y && o.level == e.level && overlap(e, o) {
				dst = append(dst, o.item)
			}
		}
	}
	// The 3×3 cells around it at each larger level.
	for _, l := range g.levels {
		if l <= e.level {
			continue
		}
		cx, cy := cell(e.cx, l), cell(e.cy, l)
		for y := cy - 1; y <= cy+1; y++ {
			for x := cx - 1; x <= cx+1; x++ {
				b := g.bucket(l, x, y)
				for j := start[b]; j < start[b+1]; j++ {
					if o := &s[j]; o.x == x && o.y == y && o.level == l && overlap(e, o) {
						dst = append(dst, o.item)
					}
				}
			}
		}
	}
	return dst
}

// forward are the neighbour cells a body searches at its own level; with
// its own cell they cover every pair of the level once.
var forward = [4][2]int64{{1, 0}, {-1, 1}, {0, 1}, {1, 1}}

// maxQueryCells is how many cells a query visits at one level in cell
// order; past it the query reports the level's bodies in the order they
// are sorted in, found by visiting the cells while there are fewer than
// a quarter as many cells as bodies in the grid, by reading every body
// otherwise (a giant's box): either way it costs at most about a read of
// the grid, and its answer is the same.
const maxQueryCells = 64

// linearQuery is how few items a query reads one by one, in the order
// they were built, rather than by cells: cheaper for a room's few walls.
const linearQuery = 32

// query appends to dst the items whose bounds overlap lo..hi, each once,
// in a deterministic order: the build order for a few items, level by
// level and cell by cell for more.
func (g *grid) query(lo, hi Vec2, dst []int32) []int32 {
	q := entry{box: [4]float64{lo.X, lo.Y, hi.X, hi.Y}}
	if len(g.entries) <= linearQuery {
		for i := range g.entries {
			if overlap(&q, &g.entries[i]) {
				dst = append(dst, g.entries[i].item)
			}
		}
		return dst
	}
	for _, l := range g.levels {
		// A body of level l reaches at most half a cell from its centre.
		half := 0.5 / inv(l)
		x0, x1 := cell(lo.X-half, l), cell(hi.X+half, l)
		y0, y1 := cell(lo.Y-half, l), cell(hi.Y+half, l)
		if cells := (x1 - x0 + 1) * (y1 - y0 + 1); cells > maxQueryCells {
			if cells > int64(len(g.sorted)/4) {
				for i := range g.sorted {
					if o := &g.sorted[i]; o.level == l && overlap(&q, o) {
						dst = append(dst, o.item)
					}
				}
				continue
			}
			// A fast body's swept box: visit its cells, then report what
			// they hold in sorted order, as the read above would.
			n := len(dst)
			for y := y0; y <= y1; y++ {
				for x := x0; x <= x1; x++ {
					b := g.bucket(l, x, y)
					for j := g.start[b]; j < g.start[b+1]; j++ {
						if o := &g.sorted[j]; o.x == x && o.y == y && o.level == l && overlap(&q, o) {
							dst = append(dst, j)
						}
					}
				}
			}
			slices.Sort(dst[n:])
			for k := n; k < len(dst); k++ {
				dst[k] = g.sorted[dst[k]].item
			}
			continue
		}
		for y := y0; y <= y1; y++ {
			for x := x0; x <= x1; x++ {
				b := g.bucket(l, x, y)
				for j := g.start[b]; j < g.start[b+1]; j++ {
					if o := &g.sorted[j]; o.x == x && o.y == y && o.level == l && overlap(&q, o) {
						dst = append(dst, o.item)
					}
				}
			}
		}
	}
	return dst
}

func overlap(a, b *entry) bool {
	return a.box[0] <= b.box[2] && b.box[0] <= a.box[2] && a.box[1] <= b.box[3] && b.box[1] <= a.box[3]
}

func (g *grid) bucket(l int8, x, y int64) uint32 {
	h := uint64(x)*0x9E3779B97F4A7C15 ^ uint64(y)*0xC2B2AE3D27D4EB4F ^ uint64(uint8(l))*0x165667B19E3779F9
	h ^= h >> 29
	h *= 0xBF58476D1CE4E5B9
	h ^= h >> 32
	return uint32(h) & g.mask
}
