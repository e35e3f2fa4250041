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
//
// Finding a free leaf costs O(log w + log n), whatever the number of
// rectangles: the free leaves are indexed by their exact width. Each width
// has a max-heap of its free leaves by height, and a segment tree over the
// widths holds, for every range of widths, the tallest free leaf in it.
// Alloc takes the narrowest width that has a leaf tall enough (a descent
// of the tree) and the tallest leaf of that width (the heap's top): a
// best fit on width, the height remainder kept whole as a column of the
// same width for the next request like it. The index costs a few words per
// pixel of page width.
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
	heap     int32 // index in its width's heap while a free leaf there, else -1
}

// Packer allocates rectangles on a w×h page. The zero value is not usable:
// call New.
type Packer struct {
	nodes  []node
	unused []int32 // dead node indices to reuse
	used   int     // used leaves

	// The free-leaf index. byW[w] is a max-heap, by height, of the free
	// leaves w wide. tall is a segment tree over widths 0..leaves-1: leaf
	// w (at tall[leaves+w]) is the height of byW[w]'s top, 0 when empty,
	// and every inner node the larger of its two children.
	byW    [][]int32
	tall   []int32
	leaves int
}

// New returns a packer for an empty w×h page. w and h must be positive.
func New(w, h int) *Packer {
	p := &Packer{byW: make([][]int32, w+1)}
	p.leaves = 1
	for p.leaves < w+1 {
		p.leaves *= 2
	}
	p.tall = make([]int32, 2*p.leaves)
	p.nodes = append(p.nodes, node{r: Rect{0, 0, w, h}, parent: -1, children: [2]int32{-1, -1}, heap: -1})
	p.addFree(0)
	return p
}

// Size returns the page size.
func (p *Packer) Size() (w, h int) { return p.nodes[0].r.W, p.nodes[0].r.H }

// Len returns how many rectangles are allocated.
func (p *Packer) Len() int { return p.used }

// Alloc places a w×h rectangle and returns it with an id for Free, or ok
// false when no free space fits it. w and h must be positive. It fails
// only when no free rectangle of the tree is at least w×h.
func (p *Packer) Alloc(w, h int) (r Rect, id int, ok bool) {
	if w <= 0 || h <= 0 || w >= len(p.byW) || h > p.nodes[0].r.H {
		return Rect{}, -1, false
	}
	width := p.narrowest(w, int32(h))
	if width < 0 {
		return Rect{}, -1, false
	}
	best := p.byW[width][0]
	p.removeFree(best)
	leaf := p.place(best, w, h)
	p.nodes[leaf].state = usedLeaf
	p.used++
	return p.nodes[leaf].r, int(leaf), true
}

// narrowest returns the smallest width of at least w that has a free leaf
// at least h tall, or -1.
func (p *Packer) narrowest(w int, h int32) int {
	// Walk up from leaf w: at each left child whose right sibling holds a
	// tall enough leaf, descend into that sibling for the leftmost one.
	i := p.leaves + w
	if p.tall[i] >= h {
		return w
	}
	for i > 1 {
		if i%2 == 0 && p.tall[i+1] >= h {
			i++
			for i < p.leaves {
				if p.tall[2*i] >= h {
					i = 2 * i
				} else {
					i = 2*i + 1
				}
			}
			return i - p.leaves
		}
		i /= 2
	}
	return -1
}

// place cuts free leaf i until one leaf is exactly w×h at its top left, and
// returns that leaf. The leaves cut off go into the index; i and the leaf
// returned are not in it.
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
	p.addFree(cb)
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
	n := node{r: r, parent: parent, children: [2]int32{-1, -1}, heap: -1}
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
	cur := int32(id)
	p.nodes[cur].state = freeLeaf
	p.used--
	for {
		par := p.nodes[cur].parent
		if par < 0 {
			break
		}
		n := &p.nodes[par]
		sib := n.children[0]
		if sib == cur {
			sib = n.children[1]
		}
		if p.nodes[sib].state != freeLeaf {
			break
		}
		p.removeFree(sib)
		p.nodes[cur].state, p.nodes[sib].state = dead, dead
		p.unused = append(p.unused, cur, sib)
		n.state, n.children = freeLeaf, [2]int32{-1, -1}
		cur = par
	}
	p.addFree(cur)
	return true
}

// Empty reports whether nothing is allocated and the page is one free
// rectangle again.
func (p *Packer) Empty() bool { return p.used == 0 && p.nodes[0].state == freeLeaf }

// addFree puts free leaf i into the index.
func (p *Packer) addFree(i int32) {
	w := p.nodes[i].r.W
	hp := append(p.byW[w], i)
	p.byW[w] = hp
	p.nodes[i].heap = int32(len(hp) - 1)
	p.up(hp, len(hp)-1)
	p.setTall(w)
}

// removeFree takes free leaf i out of the index.
func (p *Packer) removeFree(i int32) {
	w := p.nodes[i].r.W
	hp := p.byW[w]
	k, last := int(p.nodes[i].heap), len(hp)-1
	p.nodes[i].heap = -1
	if k != last {
		hp[k] = hp[last]
		p.nodes[hp[k]].heap = int32(k)
	}
	hp = hp[:last]
	p.byW[w] = hp
	if k < last {
		p.down(hp, k)
		p.up(hp, k)
	}
	p.setTall(w)
}

func (p *Packer) height(i int32) int { return p.nodes[i].r.H }

// up and down restore the heap order of hp at position k.
func (p *Packer) up(hp []int32, k int) {
	for k > 0 {
		parent := (k - 1) / 2
		if p.height(hp[parent]) >= p.height(hp[k]) {
			return
		}
		p.swap(hp, k, parent)
		k = parent
	}
}

func (p *Packer) down(hp []int32, k int) {
	for {
		c := 2*k + 1
		if c >= len(hp) {
			return
		}
		if c+1 < len(hp) && p.height(hp[c+1]) > p.height(hp[c]) {
			c++
		}
		if p.height(hp[k]) >= p.height(hp[c]) {
			return
		}
		p.swap(hp, k, c)
		k = c
	}
}

func (p *Packer) swap(hp []int32, a, b int) {
	hp[a], hp[b] = hp[b], hp[a]
	p.nodes[hp[a]].heap, p.nodes[hp[b]].heap = int32(a), int32(b)
}

// setTall updates the segment tree after width w's heap changed.
func (p *Packer) setTall(w int) {
	var h int32
	if hp := p.byW[w]; len(hp) > 0 {
		h = int32(p.height(hp[0]))
	}
	i := p.leaves + w
	if p.tall[i] == h {
		return
	}
	p.tall[i] = h
	for i /= 2; i >= 1; i /= 2 {
		t := max(p.tall[2*i], p.tall[2*i+1])
		if p.tall[i] == t {
			return
		}
		p.tall[i] = t
	}
}
