package physics

import (
	"fmt"
	"math"

	"github.com/fixstep/fixstep/detmath"
)

// MaxHullVertices is the most vertices a Hull holds.
const MaxHullVertices = 8

// Hull is a convex polygon's vertices in the body's frame, counter-clockwise,
// its centroid at the body's origin (Body.Pos), as NewHull validated them. A
// body whose Shape is Polygon collides with its Hull turned by Body.Angle.
// A Hull never changes once made: bodies may share one. Add refuses a
// Polygon without one.
type Hull struct {
	verts [MaxHullVertices]Vec2
	norms [MaxHullVertices]Vec2 // outward unit normal of the edge from verts[i] to verts[i+1]
	n     uint8
	// Derived from the vertices by build: the area, the moment of inertia
	// per unit mass about the centroid, the distance from the centroid to
	// the nearest edge (inner) and to the farthest vertex (outer).
	area, inertia, inner, outer float64
}

// Len returns the number of vertices.
func (h *Hull) Len() int { return int(h.n) }

// Vertex returns vertex i (0 ≤ i < Len) in the body's frame.
func (h *Hull) Vertex(i int) Vec2 { return h.verts[i] }

// Area returns the polygon's area.
func (h *Hull) Area() float64 { return h.area }

// NewHull checks that verts is a convex polygon of 3 to MaxHullVertices
// vertices given counter-clockwise (the interior on the left of each edge,
// with y up), with no vertex on a line through two others and no edge
// shorter than MinSize, each coordinate finite and within ±MaxSize, and
// returns it moved so that its centroid is at the origin: give the body
// its position at the centroid (Centroid says where that is in verts'
// coordinates). The error names the first vertex at fault.
func NewHull(verts ...Vec2) (*Hull, error) {
	h := new(Hull)
	if len(verts) < 3 || len(verts) > MaxHullVertices {
		return nil, fmt.Errorf("physics: a hull of %d vertices: want 3 to %d", len(verts), MaxHullVertices)
	}
	for i, v := range verts {
		if !(math.Abs(v.X) <= MaxSize && math.Abs(v.Y) <= MaxSize) {
			return nil, fmt.Errorf("physics: hull vertex %d %v: want finite coordinates within ±%v", i, v, float64(MaxSize))
		}
	}
	if err := checkConvex(verts); err != nil {
		return nil, err
	}
	c := centroid(verts)
	shifted := make([]Vec2, len(verts)) // NewHull is not a hot path
	for i, v := range verts {
		shifted[i] = v.Sub(c)
	}
	if err := checkConvex(shifted); err != nil { // rounding in the shift
		return nil, err
	}
	h.build(shifted)
	return h, nil
}

// Centroid returns the centroid of the polygon verts (counter-clockwise),
// where NewHull puts the origin.
func Centroid(verts ...Vec2) Vec2 {
	if len(verts) < 3 {
		return Vec2{}
	}
	return centroid(verts)
}

// centroid of a polygon, by triangles fanned from its first vertex.
func centroid(verts []Vec2) Vec2 {
	o := verts[0]
	var sx, sy, area float64
	for i := 1; i+1 < len(verts); i++ {
		e1, e2 := verts[i].Sub(o), verts[i+1].Sub(o)
		a := float64(cross(e1, e2) / 2) // rounded: x/2 is x·0.5, which a build may fuse into the sum
		area += a
		sx += float64(a * (e1.X + e2.X) / 3)
		sy += float64(a * (e1.Y + e2.Y) / 3)
	}
	return Vec2{o.X + sx/area, o.Y + sy/area}
}

// hullTolerance is how far a vertex must be inside the line of every edge
// it is not on, in units: closer, the polygon is degenerate.
const hullTolerance = MinSize / 2

// checkConvex reports the first vertex that makes verts concave,
// degenerate or wound clockwise: every vertex must lie at least
// hullTolerance inside (to the left of) every edge it is not on, and every
// edge must be at least MinSize long. O(n²) for n ≤ 8, it also refuses a
// star whose turns are all left.
func checkConvex(verts []Vec2) error {
	n := len(verts)
	for i := range n {
		a, b := verts[i], verts[(i+1)%n]
		if l := b.Sub(a).Len(); !(l >= MinSize) {
			return fmt.Errorf("physics: hull edge from vertex %d %v to %d %v is %v long: want at least %v (a repeated vertex?)", i, a, (i+1)%n, b, l, float64(MinSize))
		}
	}
	left, right := 0, 0
	for i := range n {
		a, b := verts[i], verts[(i+1)%n]
		e := b.Sub(a)
		l := e.Len()
		for j := range n {
			if j == i || j == (i+1)%n {
				continue
			}
			d := cross(e, verts[j].Sub(a)) / l // signed distance, left positive
			switch {
			case d >= hullTolerance:
				left++
			case d <= -hullTolerance:
				right++
			default:
				return fmt.Errorf("physics: hull vertex %d %v lies on the line of the edge from vertex %d to %d: the polygon is degenerate", j, verts[j], i, (i+1)%n)
			}
		}
	}
	switch {
	case right == 0:
		return nil
	case left == 0:
		return fmt.Errorf("physics: hull vertices wound clockwise: give them counter-clockwise (the interior on the left of each edge, y up)")
	}
	// Find the first vertex with a turn the wrong way, or the first edge
	// that has vertices on its outside (a star).
	for i := range n {
		a, b, c := verts[(i+n-1)%n], verts[i], verts[(i+1)%n]
		if cross(b.Sub(a), c.Sub(b)) < 0 {
			return fmt.Errorf("physics: hull vertex %d %v turns clockwise: the polygon is concave (a hull must be convex, counter-clockwise)", i, b)
		}
	}
	return fmt.Errorf("physics: hull edges cross: the polygon winds around more than once (a hull must be convex and simple)")
}

// build derives the hull's normals, area, inertia and radii from verts,
// already centred and checked. Restore calls it too, with a snapshot's
// vertices: the same bits as Add's.
func (h *Hull) build(verts []Vec2) {
	*h = Hull{n: uint8(len(verts))}
	copy(h.verts[:], verts)
	n := len(verts)
	var area, inertia float64
	h.inner = math.Inf(1)
	for i := range n {
		a, b := verts[i], verts[(i+1)%n]
		e := b.Sub(a)
		h.norms[i] = Vec2{e.Y, -e.X}.Scale(1 / e.Len())
		// The triangle (origin, a, b).
		d := cross(a, b)
		area += float64(d / 2)
		inertia += float64(d * (a.Dot(a) + a.Dot(b) + b.Dot(b)) / 12)
		h.inner = min(h.inner, h.norms[i].Dot(a))
		h.outer = max(h.outer, a.Len())
	}
	h.area, h.inertia = area, inertia/area
}

// cross returns the 2D cross product a×b, its products rounded.
func cross(a, b Vec2) float64 { return float64(a.X*b.Y) - float64(a.Y*b.X) }

// rotate turns v by the rotation (c, s) = (cos θ, sin θ).
func rotate(c, s float64, v Vec2) Vec2 {
	return Vec2{float64(c*v.X) - float64(s*v.Y), float64(s*v.X) + float64(c*v.Y)}
}

// unrotate turns v by the inverse of (c, s).
func unrotate(c, s float64, v Vec2) Vec2 {
	return Vec2{float64(c*v.X) + float64(s*v.Y), float64(c*v.Y) - float64(s*v.X)}
}

// upright reports whether the body's rotation is the identity: the
// axis-aligned fast paths apply.
func (b *Body) upright() bool { return b.rs == 0 && b.rc == 1 }

// syncRotation recomputes the body's cached rotation from its Angle when
// the game changed the angle (or the step did). The cache is exact:
// detmath.SinCos of the angle's bits.
func (b *Body) syncRotation() {
	if math.Float64bits(b.Angle) != math.Float64bits(b.rotAngle) {
		b.resync()
	}
}

// cosSin returns the cosine and sine of the body's angle: its cached
// rotation, or, when the game turned it since the cache was made, the
// rotation computed afresh (the same bits) without caching it, so that
// the step's workers may read one body at once.
func (b *Body) cosSin() (c, s float64) {
	if math.Float64bits(b.Angle) != math.Float64bits(b.rotAngle) {
		s, c = detmath.SinCos(b.Angle)
		return c, s
	}
	return b.rc, b.rs
}

// resync computes the body's rotation from its angle.
func (b *Body) resync() {
	b.rs, b.rc = detmath.SinCos(b.Angle)
	b.rotAngle = b.Angle
}

// wrapAngle returns a in [-π, π), the same bits everywhere.
func wrapAngle(a float64) float64 {
	if a >= -math.Pi && a < math.Pi {
		return a
	}
	k := math.Floor((a + math.Pi) / (2 * math.Pi))
	return a - float64(k*(2*math.Pi))
}

// inertiaPerMass returns the moment of inertia of the body's shape per
// unit mass, about its centre.
func (b *Body) inertiaPerMass() float64 {
	switch b.Shape {
	case Circle:
		return float64(b.Radius * b.Radius / 2) // rounded: a caller adds it
	case Box:
		return (float64(b.HalfW*b.HalfW) + float64(b.HalfH*b.HalfH)) / 3
	default:
		return b.Hull.inertia
	}
}

// reach is the body's outer radius: the farthest any point of it is from
// its centre.
func (b *Body) reach() float64 {
	switch b.Shape {
	case Circle:
		return b.Radius
	case Box:
		return detmath.Hypot(b.HalfW, b.HalfH)
	default:
		return b.Hull.outer
	}
}

// poly is a polygon placed in a frame for the narrow phase: the world
// relative to an origin (the first body's position), so coordinates stay
// small and precise.
type poly struct {
	v, n  [MaxHullVertices]Vec2
	count int
	box   bool    // a box: its faces in opposite pairs, n[1] and n[2] its axes
	c     Vec2    // a box's centre
	hw    float64 // a box's half extents
	hh    float64
}

// boxCorners and boxNormals are a box's, counter-clockwise from the lower
// left corner; normal i is the edge's from corner i to i+1.
var boxNormals = [4]Vec2{{0, -1}, {1, 0}, {0, 1}, {-1, 0}}

// place fills p with body b's polygon (a box or a hull) turned by its
// rotation and moved to off.
func (p *poly) place(b *Body, off Vec2) {
	c, s := b.rc, b.rs
	p.box = b.Shape == Box
	if p.box {
		hw, hh := b.HalfW, b.HalfH
		p.c, p.hw, p.hh = off, hw, hh
		p.count = 4
		// rotate(c, s, corner) with its four products shared: the corners
		// are (±hw, ±hh), and a product with a negated factor is the
		// negated product, so the same numbers as rotating each corner.
		chw, shh, shw, chh := float64(c*hw), float64(s*hh), float64(s*hw), float64(c*hh)
		p.v[0] = Vec2{-chw + shh, -shw - chh}.Add(off)
		p.v[1] = Vec2{chw + shh, shw - chh}.Add(off)
		p.v[2] = Vec2{chw - shh, shw + chh}.Add(off)
		p.v[3] = Vec2{-chw - shh, -shw + chh}.Add(off)
		p.n[0], p.n[1], p.n[2], p.n[3] = Vec2{s, -c}, Vec2{c, s}, Vec2{-s, c}, Vec2{-c, -s}
		return
	}
	h := b.Hull
	p.count = int(h.n)
	for i := range p.count {
		p.v[i] = rotate(c, s, h.verts[i]).Add(off)
		p.n[i] = rotate(c, s, h.norms[i])
	}
}
