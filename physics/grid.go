package physics

import "math"

// grid is a spatial hash of the moving bodies, rebuilt every step: each
// body is linked into every cell its bounds touch. Cells hash into a
// power-of-two table, and nodes live in one slice, so a rebuild allocates
// nothing once the world has reached its size.
type grid struct {
	inv    float64      // 1 / cell size; a cell is as wide as the largest moving body
	heads  []int32      // bucket -> first node, -1 for none
	nodes  []node       //
	ranges []cells      // per mover (index into World.movers): the cells it touches
	boxes  [][4]float64 // per mover: its bounds, for a cheap overlap test
}

type node struct {
	mover int32 // index into World.movers
	x, y  int32 // the cell, to skip other cells hashed to the same bucket
	next  int32
}

// cells is a rectangle of cells, inclusive.
type cells struct{ x0, y0, x1, y1 int32 }

func (g *grid) build(bodies []Body, movers []BodyID) {
	largest := 0.0
	for _, id := range movers {
		b := &bodies[id]
		largest = math.Max(largest, math.Max(b.Radius, math.Max(b.HalfW, b.HalfH)))
	}
	g.inv = 1 / (2 * largest)
	size := 1
	for size < 2*len(movers) {
		size <<= 1
	}
	if len(g.heads) != size {
		g.heads = make([]int32, size)
	}
	for i := range g.heads {
		g.heads[i] = -1
	}
	g.nodes = g.nodes[:0]
	g.ranges = g.ranges[:0]
	g.boxes = g.boxes[:0]
	for m, id := range movers {
		lo, hi := bodies[id].bounds()
		r := cells{g.coord(lo.X), g.coord(lo.Y), g.coord(hi.X), g.coord(hi.Y)}
		g.ranges = append(g.ranges, r)
		g.boxes = append(g.boxes, [4]float64{lo.X, lo.Y, hi.X, hi.Y})
		for cy := r.y0; cy <= r.y1; cy++ {
			for cx := r.x0; cx <= r.x1; cx++ {
				h := g.bucket(cx, cy)
				g.nodes = append(g.nodes, node{mover: int32(m), x: cx, y: cy, next: g.heads[h]})
				g.heads[h] = int32(len(g.nodes) - 1)
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

func (g *grid) bucket(x, y int32) int {
	h := uint32(x)*0x9E3779B1 ^ uint32(y)*0x85EBCA77
	h ^= h >> 15
	return int(h) & (len(g.heads) - 1)
}

// overlap reports whether the bounds of movers i and j overlap.
func (g *grid) overlap(i, j int32) bool {
	a, b := &g.boxes[i], &g.boxes[j]
	return a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3]
}
