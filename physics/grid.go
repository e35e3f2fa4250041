package physics

import "math"

// grid is a spatial hash of the moving bodies, rebuilt every step. Cells
// are as wide as the largest moving body, so two bodies that touch have
// their centers in the same cell or in neighbouring ones. Each body is
// entered once, in the cell of its center; the entries are counting-sorted
// by hash bucket, so the pair search reads memory in order and touches a
// body only for the narrow phase. Each pair is tested once: a body looks at
// the later bodies of its own cell and at the bodies of four of its eight
// neighbours (the other four look at it). Nothing is allocated once the
// world has reached its size.
type grid struct {
	inv     float64 // 1 / cell size
	mask    uint32  // buckets - 1
	entries []entry // unsorted, as built
	sorted  []entry // by bucket
	start   []int32 // bucket b's entries are sorted[start[b]:start[b+1]]
}

type entry struct {
	box    [4]float64 // the body's bounds: min x, min y, max x, max y
	mover  int32      // index into World.movers
	x, y   int32      // the cell of the body's center
	bucket uint32
}

// forward are the neighbour cells a body searches; with its own cell they
// cover every touching pair once.
var forward = [4][2]int32{{1, 0}, {-1, 1}, {0, 1}, {1, 1}}

func (g *grid) build(bodies []Body, movers []int32) {
	largest := 0.0
	for _, id := range movers {
		b := &bodies[id]
		largest = math.Max(largest, math.Max(b.Radius, math.Max(b.HalfW, b.HalfH)))
	}
	g.inv = 1 / (2 * largest)
	size := uint32(1)
	for size < uint32(len(movers)) {
		size <<= 1
	}
	g.mask = size - 1
	if len(g.start) != int(size)+1 {
		g.start = make([]int32, size+1)
	}
	clear(g.start)
	g.entries = g.entries[:0]
	for m, id := range movers {
		b := &bodies[id]
		lo, hi := b.bounds()
		lo, hi = lo.Sub(Vec2{margin / 2, margin / 2}), hi.Add(Vec2{margin / 2, margin / 2}) // near pairs too
		cx, cy := g.coord(b.Pos.X), g.coord(b.Pos.Y)
		k := g.bucket(cx, cy)
		g.entries = append(g.entries, entry{box: [4]float64{lo.X, lo.Y, hi.X, hi.Y}, mover: int32(m), x: cx, y: cy, bucket: k})
		g.start[k+1]++
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
	s := g.sorted
	for i := range s {
		e := &s[i]
		// Later bodies of the same cell.
		for j := i + 1; j < int(g.start[e.bucket+1]); j++ {
			if o := &s[j]; o.x == e.x && o.y == e.y && overlap(e, o) {
				f(e.mover, o.mover)
			}
		}
		// Four neighbours.
		for _, d := range forward {
			nx, ny := e.x+d[0], e.y+d[1]
			b := g.bucket(nx, ny)
			for j := g.start[b]; j < g.start[b+1]; j++ {
				if o := &s[j]; o.x == nx && o.y == ny && overlap(e, o) {
					f(e.mover, o.mover)
				}
			}
		}
	}
}

func overlap(a, b *entry) bool {
	return a.box[0] <= b.box[2] && b.box[0] <= a.box[2] && a.box[1] <= b.box[3] && b.box[1] <= a.box[3]
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
