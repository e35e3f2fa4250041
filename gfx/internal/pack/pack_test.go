package pack

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// check asserts the packer's invariants: every live rectangle is inside the
// page, no two overlap, and the count matches.
func check(t *testing.T, p *Packer, live map[int]Rect) {
	t.Helper()
	pw, ph := p.Size()
	if p.Len() != len(live) {
		t.Fatalf("Len = %d, want %d", p.Len(), len(live))
	}
	rects := make([]Rect, 0, len(live))
	for _, r := range live {
		if r.X < 0 || r.Y < 0 || r.X+r.W > pw || r.Y+r.H > ph {
			t.Fatalf("%+v is outside the %dx%d page", r, pw, ph)
		}
		for _, o := range rects {
			if r.X < o.X+o.W && o.X < r.X+r.W && r.Y < o.Y+o.H && o.Y < r.Y+r.H {
				t.Fatalf("%+v overlaps %+v", r, o)
			}
		}
		rects = append(rects, r)
	}
	checkIndex(t, p)
}

// checkIndex asserts that the free-leaf index holds exactly the free
// leaves, each where its node says, in heap order, and that the segment
// tree holds the tallest leaf of every range of widths.
func checkIndex(t *testing.T, p *Packer) {
	t.Helper()
	indexed := 0
	for w, hp := range p.byW {
		for k, i := range hp {
			n := p.nodes[i]
			if n.state != freeLeaf || n.r.W != w || int(n.heap) != k {
				t.Fatalf("byW[%d][%d] = node %d, %+v", w, k, i, n)
			}
			if k > 0 && p.height(hp[(k-1)/2]) < n.r.H {
				t.Fatalf("byW[%d] is out of heap order at %d", w, k)
			}
		}
		indexed += len(hp)
		var top int32
		if len(hp) > 0 {
			top = int32(p.height(hp[0]))
		}
		if p.tall[p.leaves+w] != top {
			t.Fatalf("tall leaf of width %d = %d, want %d", w, p.tall[p.leaves+w], top)
		}
	}
	for i := p.leaves - 1; i >= 1; i-- {
		if p.tall[i] != max(p.tall[2*i], p.tall[2*i+1]) {
			t.Fatalf("tall[%d] = %d, not the larger of its children", i, p.tall[i])
		}
	}
	free := 0
	for i, n := range p.nodes {
		if n.state == freeLeaf {
			free++
		} else if n.heap != -1 {
			t.Fatalf("node %d, %+v, is not free but indexed", i, n)
		}
	}
	if free != indexed {
		t.Fatalf("%d free leaves, %d indexed", free, indexed)
	}
}

// fits reports whether some free leaf is at least w×h, by looking at all.
func fits(p *Packer, w, h int) bool {
	for _, n := range p.nodes {
		if n.state == freeLeaf && n.r.W >= w && n.r.H >= h {
			return true
		}
	}
	return false
}

func TestFillExactly(t *testing.T) {
	p := New(64, 64)
	live := map[int]Rect{}
	for range 16 {
		r, id, ok := p.Alloc(16, 16)
		if !ok {
			t.Fatalf("16x16 #%d did not fit a 64x64 page with room for 16", len(live)+1)
		}
		if r.W != 16 || r.H != 16 {
			t.Fatalf("got %+v, want 16x16", r)
		}
		live[id] = r
	}
	check(t, p, live)
	if _, _, ok := p.Alloc(1, 1); ok {
		t.Fatal("a full page took one more pixel")
	}
}

func TestSpaceIsReusedAfterFree(t *testing.T) {
	p := New(64, 64)
	ids := make([]int, 0, 16)
	var freed Rect
	for i := range 16 {
		r, id, _ := p.Alloc(16, 16)
		ids = append(ids, id)
		if i == 5 {
			freed = r
		}
	}
	if !p.Free(ids[5]) {
		t.Fatal("Free of a live id returned false")
	}
	if p.Free(ids[5]) {
		t.Fatal("a second Free of the same id returned true")
	}
	r, _, ok := p.Alloc(16, 16)
	if !ok || r != freed {
		t.Fatalf("after a free in the middle: Alloc = %+v, %v; want the freed %+v", r, ok, freed)
	}
}

func TestFreeEverythingMergesToOnePage(t *testing.T) {
	p := New(128, 128)
	var ids []int
	for _, s := range [][2]int{{10, 30}, {64, 8}, {7, 7}, {50, 50}, {1, 60}, {33, 2}} {
		_, id, ok := p.Alloc(s[0], s[1])
		if !ok {
			t.Fatalf("%v did not fit", s)
		}
		ids = append(ids, id)
	}
	for _, id := range ids {
		p.Free(id)
	}
	if !p.Empty() {
		t.Fatal("after freeing everything the page is not one free rectangle")
	}
	if r, _, ok := p.Alloc(128, 128); !ok || r != (Rect{0, 0, 128, 128}) {
		t.Fatalf("whole page after freeing everything: %+v, %v", r, ok)
	}
}

func TestRejects(t *testing.T) {
	p := New(32, 32)
	for _, s := range [][2]int{{0, 1}, {1, 0}, {-1, 5}, {33, 1}, {1, 33}} {
		if _, _, ok := p.Alloc(s[0], s[1]); ok {
			t.Errorf("Alloc(%d, %d) succeeded", s[0], s[1])
		}
	}
	for _, id := range []int{-1, 0, 99} {
		if p.Free(id) {
			t.Errorf("Free(%d) of nothing allocated returned true", id)
		}
	}
}

// TestNodesAreRecycled fills and empties a page many times: the node slice
// must not grow after the first round.
func TestNodesAreRecycled(t *testing.T) {
	p := New(256, 256)
	rng := rand.New(rand.NewPCG(3, 4))
	round := func() {
		var ids []int
		for {
			_, id, ok := p.Alloc(1+rng.IntN(40), 1+rng.IntN(40))
			if !ok {
				break
			}
			ids = append(ids, id)
		}
		for _, i := range rng.Perm(len(ids)) {
			p.Free(ids[i])
		}
	}
	round()
	grown := 0
	for range 50 {
		before := len(p.nodes)
		round()
		if len(p.nodes) > before {
			grown = max(grown, len(p.nodes))
		}
		if !p.Empty() {
			t.Fatal("page not empty after a round")
		}
	}
	if grown > 4*256 {
		t.Fatalf("node slice grew to %d over 50 fill/empty rounds", grown)
	}
}

// FuzzPacker drives random allocate/free sequences and checks the
// invariants after every step, and that freeing everything left gives the
// whole page back.
func FuzzPacker(f *testing.F) {
	f.Add([]byte{10, 10, 0, 200, 3, 3, 1, 0})
	f.Add([]byte{255, 255, 0, 1, 1, 0, 1, 1, 1, 1, 1, 1})
	f.Fuzz(func(t *testing.T, ops []byte) {
		// 1,000 operations fill and empty a 64×48 page many times over;
		// a longer input only costs time (every step is checked against
		// the whole index: a cold run met one that took a minute).
		ops = ops[:min(len(ops), 3*1000)]
		p := New(64, 48)
		live := map[int]Rect{}
		var order []int
		for i := 0; i+2 < len(ops); i += 3 {
			if ops[i]%4 == 3 && len(order) > 0 { // free one
				k := int(ops[i+1]) % len(order)
				id := order[k]
				order = append(order[:k], order[k+1:]...)
				if !p.Free(id) {
					t.Fatalf("Free(%d) of a live rectangle failed", id)
				}
				delete(live, id)
			} else {
				w, h := 1+int(ops[i+1])%70, 1+int(ops[i+2])%50
				r, id, ok := p.Alloc(w, h)
				if ok {
					if r.W != w || r.H != h {
						t.Fatalf("Alloc(%d, %d) = %+v", w, h, r)
					}
					if _, dup := live[id]; dup {
						t.Fatalf("id %d handed out twice", id)
					}
					live[id] = r
					order = append(order, id)
				} else if fits(p, w, h) {
					t.Fatalf("Alloc(%d, %d) failed with a free rectangle that fits", w, h)
				} else if w <= 64 && h <= 48 && len(live) == 0 {
					t.Fatalf("Alloc(%d, %d) failed on an empty page", w, h)
				}
			}
			check(t, p, live)
		}
		for id := range live {
			p.Free(id)
		}
		if !p.Empty() {
			t.Fatal("freeing everything did not give the whole page back")
		}
	})
}

// TestNarrowestFit checks the placement rule: the narrowest free width
// that is tall enough, and the tallest leaf of that width.
func TestNarrowestFit(t *testing.T) {
	p := New(100, 100)
	// Cut the page into columns 10, 20, 30 and 40 wide.
	var cols []int
	for _, w := range []int{10, 20, 30, 40} {
		_, id, ok := p.Alloc(w, 100)
		if !ok {
			t.Fatalf("column %d did not fit", w)
		}
		cols = append(cols, id)
	}
	p.Free(cols[2]) // a free 30x100 column at x = 30
	p.Free(cols[0]) // a free 10x100 column at x = 0
	for _, c := range []struct {
		w, h int
		want Rect
	}{
		{8, 8, Rect{0, 0, 8, 8}},       // the 10-wide column, not the 30-wide one
		{15, 50, Rect{30, 0, 15, 50}},  // the 30-wide column, cut across
		{25, 50, Rect{30, 50, 25, 50}}, // the 30x50 left below, not a 15-wide
	} {
		r, _, ok := p.Alloc(c.w, c.h)
		if !ok || r != c.want {
			t.Errorf("Alloc(%d, %d) = %+v, %v; want %+v", c.w, c.h, r, ok, c.want)
		}
	}
	if r, _, ok := p.Alloc(31, 1); ok {
		t.Errorf("Alloc(31, 1) = %+v with no free rectangle 31 wide", r)
	}
}

// BenchmarkAllocFree allocates a 21×21 rectangle and frees it with n other
// rectangles, 4 to 19 pixels a side, live on the page (a third of them
// freed again): no hole fits it exactly, which would end a search early.
// The cost must not grow with n.
func BenchmarkAllocFree(b *testing.B) {
	for _, n := range []int{100, 100000} {
		b.Run(fmt.Sprintf("live=%d", n), func(b *testing.B) {
			p := New(4096, 4096)
			rng := rand.New(rand.NewPCG(1, 2))
			ids := make([]int, 0, n)
			for range n {
				_, id, ok := p.Alloc(4+rng.IntN(16), 4+rng.IntN(16))
				if !ok {
					b.Fatalf("page full after %d", len(ids))
				}
				ids = append(ids, id)
			}
			for i := 0; i < len(ids); i += 3 {
				p.Free(ids[i])
			}
			for b.Loop() {
				_, id, ok := p.Alloc(21, 21)
				if !ok {
					b.Fatal("no room")
				}
				p.Free(id)
			}
		})
	}
}
