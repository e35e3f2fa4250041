// Package pack places rectangles on a page and takes them back: the
// allocator behind gfx's texture atlas. It is pure Go so that its property
// and fuzz tests run anywhere.
//
// The method is a guillotine tree. Every node is a rectangle of the page;
// a free leaf that is asked for a smaller rectangle is cut in two (and the
// half that holds the request in two again), so the tree records every cut.
// Alloc takes the free leaf that leaves the least area over (best area
// fit) and cuts it so the larger remainder stays whole. Free marks the leaf
// free again and merges it with its sibling, up the tree, while both are
// free, so deleting everything gives back the whole page and space freed in
// the middle is reused by the next request that fits. Nodes live in one
// slice, recycled through a free list: a page that is filled and emptied
// again does not grow.
package pack

// Rect is a placed rectangle in page pixels, origin at the top left.
type Rect struct{ X, Y, W, H int }

type state uint8

const (
	freeLeaf state = iota
	usedLeaf
	split
	dead // recycled node, on the free list
)

type node struct {
	r        Rect
	state    state
	parent   int32
	children [2]int32
}

// Packer allocates rectangles on a w×h page. The zero value is not usable:
// call New.
type Packer struct {
	nodes  []node
	unused []int32 // dead node indices to reuse
	used   int     // used leaves
}

// New returns a packer for an empty w×h page.
func New(w, h int) *Packer {
	p := &Packer{}
	p.nodes = append(p.nodes, node{r: Rect{0, 0, w, h}, parent: -1})
	return p
}

// Size returns the page size.
func (p *Packer) Size() (w, h int) { return p.nodes[0].r.W, p.nodes[0].r.H }

// Len returns how many rectangles are allocated.
func (p *Packer) Len() int { return p.used }

// Alloc places a w×h rectangle and returns it with an id for Free, or ok
// false when no free space fits it. w and h must be positive.
func (p *Packer) Alloc(w, h int) (r Rect, id int, ok bool) {
	if w <= 0 || h <= 0 {
		return Rect{}, -1, false
	}
	best, bestWaste := int32(-1), -1
	for i := range p.nodes {
		n := &p.nodes[i]
		if n.state != freeLeaf || n.r.W < w || n.r.H < h {
			continue
		}
		if waste := n.r.W*n.r.H - w*h; best < 0 || waste < bestWaste {
			best, bestWaste = int32(i), waste
			if waste == 0 {
				break
			}
		}
	}
	if best < 0 {
		return Rect{}, -1, false
	}
	leaf := p.place(best, w, h)
	p.nodes[leaf].state = usedLeaf
	p.used++
	return p.nodes[leaf].r, int(leaf), true
}

// place cuts free leaf i until one leaf is exactly w×h at its top left, and
// returns that leaf.
func (p *Packer) place(i int32, w, h int) int32 {
	r := p.nodes[i].r
	if r.W == w && r.H == h {
		return i
	}
	// Cut across first (a full-width band of height h, then the band at w)
	// or down first (a full-height column of width w, then the column at
	// h): whichever keeps the larger remainder whole.
	across := r.W * (r.H - h)
	down := (r.W - w) * r.H
	var a, b Rect
	if across >= down {
		a, b = Rect{r.X, r.Y, r.W, h}, Rect{r.X, r.Y + h, r.W, r.H - h}
	} else {
		a, b = Rect{r.X, r.Y, w, r.H}, Rect{r.X + w, r.Y, r.W - w, r.H}
	}
	if b.W == 0 || b.H == 0 { // one dimension already fits: a is r
		a, b = cut(r, w, h)
	}
	ca, cb := p.newNode(a, i), p.newNode(b, i)
	n := &p.nodes[i]
	n.state, n.children = split, [2]int32{ca, cb}
	return p.place(ca, w, h)
}

// cut splits r, which matches w or h already, along the other dimension.
func cut(r Rect, w, h int) (Rect, Rect) {
	if r.W == w {
		return Rect{r.X, r.Y, w, h}, Rect{r.X, r.Y + h, w, r.H - h}
	}
	return Rect{r.X, r.Y, w, h}, Rect{r.X + w, r.Y, r.W - w, h}
}

func (p *Packer) newNode(r Rect, parent int32) int32 {
	n := node{r: r, parent: parent, children: [2]int32{-1, -1}}
	if k := len(p.unused); k > 0 {
		i := p.unused[k-1]
		p.unused = p.unused[:k-1]
		p.nodes[i] = n
		return i
	}
	p.nodes = append(p.nodes, n)
	return int32(len(p.nodes) - 1)
}

// Free gives back the rectangle id names, merging free neighbours into the
// larger rectangles they were cut from. It returns false, and changes
// nothing, when id is not an allocated rectangle (freed already, or never
// returned by Alloc).
func (p *Packer) Free(id int) bool {
	if id < 0 || id >= len(p.nodes) || p.nodes[id].state != usedLeaf {
		return false
	}
	p.nodes[id].state = freeLeaf
	p.used--
	for i := p.nodes[id].parent; i >= 0; i = p.nodes[i].parent {
		n := &p.nodes[i]
		a, b := n.children[0], n.children[1]
		if p.nodes[a].state != freeLeaf || p.nodes[b].state != freeLeaf {
			break
		}
		p.nodes[a].state, p.nodes[b].state = dead, dead
		p.unused = append(p.unused, a, b)
		n.state, n.children = freeLeaf, [2]int32{-1, -1}
	}
	return true
}

// Empty reports whether nothing is allocated and the page is one free
// rectangle again.
func (p *Packer) Empty() bool { return p.used == 0 && p.nodes[0].state == freeLeaf }
