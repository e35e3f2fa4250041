package physics

import "math"

// grid is a spatial hash of the moving bodies, rebuilt every step. Each
// body is entered in every cell its bounds touch; the entries are then
// counting-sorted by hash bucket, so the pair search walks memory in order
// and reads only the entries (bounds included), touching a body only for
// the narrow phase. Nothing is allocated once the world has reached its
// size.
type grid struct {
	inv     float64 // 1 / cell size; a cell is as wide as the largest moving body
	mask    uint32  // buckets - 1
	entries []entry // unsorted, as built
	sorted  []entry // by bucket
	start   []int32 // bucket b's entries are sorted[start[b]:start[b+1]]
}

type entry struct {
	box    [4]float64 // the body's bounds: min x, min y, max x, max y
	mover  int32      // index into World.movers
	x, y   int32      // this entry's cell
	x0, y0 int32      // the body's first cell, to test each pair in one cell only
	bucket uint32
}

func (g *grid) build(bodies []Body, movers []BodyID) {
	largest := 0.0
	for _, id := range movers {
		b := &bodies[id]
		largest = math.Max(largest, math.Max(b.Radius, math.Max(b.HalfW, b.HalfH)))
	}
	g.inv = 1 / (2 * largest)
	size := uint32(1)
	for size < uint32(2*len(movers)) {
		size <<= 1
	}
	g.mask = size - 1
	if len(g.start) != int(size)+1 {
		g.start = make([]int32, size+1)
	}
	clear(g.start)
	g.entries = g.entries[:0]
	for m, id := range movers {
		lo, hi := bodies[id].bounds()
		x0, y0, x1, y1 := g.coord(lo.X), g.coord(lo.Y), g.coord(hi.X), g.coord(hi.Y)
		for cy := y0; cy <= y1; cy++ {
			for cx := x0; cx <= x1; cx++ {
				b := g.bucket(cx, cy)
				g.entries = append(g.entries, entry{
					box: [4]float64{lo.X, lo.Y, hi.X, hi.Y}, mover: int32(m),
					x: cx, y: cy, x0: x0, y0: y0, bucket: b,
				})
				g.start[b+1]++
			}
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

// pairs calls f for every pair of movers whose bounds overlap, once per
// pair, in a deterministic order.
func (g *grid) pairs(f func(a, b int32)) {
	for b := 0; b+1 < len(g.start); b++ {
		cell := g.sorted[g.start[b]:g.start[b+1]]
		for i := range cell {
			e := &cell[i]
			for j := i + 1; j < len(cell); j++ {
				o := &cell[j]
				if o.x != e.x || o.y != e.y {
					continue // another cell in the same bucket
				}
				// Test each pair only in the first cell both touch.
				if max(e.x0, o.x0) != e.x || max(e.y0, o.y0) != e.y {
					continue
				}
				if e.box[0] <= o.box[2] && o.box[0] <= e.box[2] && e.box[1] <= o.box[3] && o.box[1] <= e.box[3] {
					f(e.mover, o.mover)
				}
			}
		}
	}
}

func (g *grid) coord(v float64) int32 {
	c := math.Floor(v * g.inv)
	if c < -1<<30 {
		return -1 << 30
	}
	if c > 1<<30 {
		return 1 << 30
	}
	return int32(c)
}

func (g *grid) bucket(x, y int32) uint32 {
	h := uint32(x)*0x9E3779B1 ^ uint32(y)*0x85EBCA77
	h ^= h >> 15
	return h & g.mask
}
