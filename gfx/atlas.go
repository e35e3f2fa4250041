//go:build cgo

package gfx

import (
	"fmt"
	"image"
	"image/draw"

	"github.com/go-gl/gl/v3.3-core/gl"

	"github.com/fixstep/fixstep/gfx/internal/pack"
)

// maxPageSize is the side of an atlas page in pixels, or the driver's
// GL_MAX_TEXTURE_SIZE when that is smaller: 2048² RGBA8 is 16 MiB, room for
// a game's sprite sheets, tiles and fonts in one or two pages.
const maxPageSize = 2048

// uploadBytes bounds the staging buffer of an upload: an image is
// converted to premultiplied RGBA8 and extruded into it a strip of rows at
// a time, so adding even the largest texture stages at most 256 KiB (or one
// row of it, when a row is longer), never a copy of the whole image.
const uploadBytes = 256 << 10

// atlas packs a renderer's textures into shared pages, so that sprites of
// different textures on one page draw in one instanced call. Every image
// is stored with a one-pixel border that repeats its edge pixels
// (extrusion), so linear filtering at an edge blends the image with
// itself, never with a neighbour. An image that fits a page with its
// border (up to 2046 pixels a side) goes on a shared page with room, or a
// new one; a larger image gets a page of its own, sized to it. Page rows
// are stored top row first, like image files.
//
// A page has a filter. Nearest textures go to nearest pages, which
// llvmpipe samples faster; Linear textures go to linear pages, where a
// Nearest texture can also be drawn: the sprite shader samples it at texel
// centers, which is what nearest filtering returns. Every shared page
// holds its own copy of the renderer's shapes (a white pixel, Circle's
// disc and the font, about 16 KiB), so Rect, Circle and Text join whatever
// page's batch is open instead of breaking it. A new page takes the image
// it was made for first and then the shapes; a shape that finds no room
// (beside an image of nearly a page) is drawn from the first page's copy,
// breaking the batch, until the page is empty again and gets its own. A
// Face's glyphs are ordinary textures of its filter: Latin-1 as one, each
// rune met later as one of its own.
//
// A page left empty is deleted, but for the first page, which the
// renderer's shapes keep, and one empty shared page of each filter, kept
// for the next texture: adding and deleting a texture in a loop does not
// make and delete a page each time.
type atlas struct {
	pageSize      int // side of a shared page
	maxTex        int // GL_MAX_TEXTURE_SIZE
	shapes        shapeImages
	pages         []*page
	slots         []slot
	unused        []int32 // free slot indices
	scratch       []byte  // an upload's strip, reused: at most uploadBytes or a row
	maxImageBytes int64   // LoadTexture's limit; 0 for DefaultMaxImageBytes
}

// page is one GL texture of the atlas.
type page struct {
	id     uint32
	w, h   int
	filter Filter
	packer *pack.Packer // nil for a page of one large image
	live   int          // textures on it, its shapes not counted
	shapes shapes       // on shared pages: its own, or the first page's
}

// shapeImages are the images of the renderer's shapes, placed on every
// shared page.
type shapeImages struct{ white, disc, font *image.RGBA }

// shapes are a page's copies of them, the font cut into glyphs.
type shapes struct {
	white, disc Texture
	glyphs      [numGlyphs]Texture
}

// slot is one texture's allocation. gen changes whenever the slot is freed,
// so a copy of a deleted Texture is recognised.
type slot struct {
	page *page
	node int
	gen  uint32
	live bool
	// The texture's index in the renderer's region table, valid while the
	// table's cache keeps regionStamp (see Renderer.region): Draw of a
	// whole atlas texture finds it here, beside the slot it reads to check
	// the texture is alive, without a hash.
	region      uint32
	regionStamp uint64
}

// newAtlas makes an atlas whose first page, linear, holds the shapes.
func newAtlas(s shapeImages) *atlas {
	var max int32
	gl.GetIntegerv(gl.MAX_TEXTURE_SIZE, &max)
	a := &atlas{maxTex: int(max), shapes: s}
	a.pageSize = min(maxPageSize, a.maxTex)
	// Made without newPage's check: a GL error stays pending for
	// NewRenderer to report, and the page for Close to delete.
	p := &page{w: a.pageSize, h: a.pageSize, filter: Linear, id: newGLTexture(a.pageSize, a.pageSize, nil, true)}
	p.packer = pack.New(p.w, p.h)
	a.pages = append(a.pages, p)
	a.fillShapes(p)
	return a
}

// add places img (rows top first), premultiplied, and uploads it. A
// refusal leaves the atlas as it was.
func (a *atlas) add(img image.Image, f Filter) (Texture, error) {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if w <= 0 || h <= 0 {
		return Texture{}, fmt.Errorf("gfx: texture size %dx%d: must be positive", w, h)
	}
	if w > a.maxTex || h > a.maxTex {
		return Texture{}, fmt.Errorf("gfx: image %dx%d is larger than the driver's maximum texture size, %d", w, h, a.maxTex)
	}
	var pg *page
	var x, y, node int
	fresh := true // pg was made for img
	if w+2 <= a.pageSize && h+2 <= a.pageSize {
		for _, p := range a.pages {
			if p.packer == nil || p.filter != f {
				continue
			}
			if r, id, ok := p.packer.Alloc(w+2, h+2); ok {
				pg, x, y, node, fresh = p, r.X, r.Y, id, false
				break
			}
		}
		if pg == nil {
			var err error
			if pg, err = a.newPage(a.pageSize, a.pageSize, f, true); err != nil {
				return Texture{}, err
			}
			// The image first: it fits an empty page, with its border.
			r, id, _ := pg.packer.Alloc(w+2, h+2)
			x, y, node = r.X, r.Y, id
			a.fillShapes(pg)
		}
		a.upload(pg, x, y, img, 1)
		x, y = x+1, y+1
	} else {
		var err error
		if pg, err = a.newPage(w, h, f, false); err != nil {
			return Texture{}, err
		}
		a.upload(pg, 0, 0, img, 0)
		node = -1
	}
	if err := glError("atlas"); err != nil {
		if fresh {
			a.deletePage(pg)
		} else {
			pg.packer.Free(node)
		}
		return Texture{}, err
	}
	pg.live++
	i := a.newSlot(pg, node)
	t := pg.texture(x, y, w, h, f)
	t.atlas, t.slot, t.gen = a, i, a.slots[i].gen
	return t, nil
}

// texture returns the w×h image at (x, y) of page p as a Texture.
func (p *page) texture(x, y, w, h int, f Filter) Texture {
	return Texture{
		id: p.id, w: int32(w), h: int32(h), page: p,
		u0: float32(x) / float32(p.w), u1: float32(x+w) / float32(p.w),
		v0: float32(y+h) / float32(p.h), v1: float32(y) / float32(p.h), // bottom, top
		nearest: f == Nearest,
	}
}

// newPage makes an empty w×h page, shared (with a packer) or not. A GL
// error (out of memory) deletes it again and is returned.
func (a *atlas) newPage(w, h int, f Filter, shared bool) (*page, error) {
	p := &page{w: w, h: h, filter: f, id: newGLTexture(w, h, nil, f == Linear)}
	if err := glError(fmt.Sprintf("new %dx%d atlas page", w, h)); err != nil {
		gl.DeleteTextures(1, &p.id)
		live.Add(-1)
		return nil, err
	}
	a.pages = append(a.pages, p)
	if shared {
		p.packer = pack.New(w, h)
	}
	return p, nil
}

// fillShapes places on shared page p the shapes it does not hold yet,
// those that fit; the others are the first page's.
func (a *atlas) fillShapes(p *page) {
	first := &a.pages[0].shapes // p's own when p is the first page
	put := func(t *Texture, img *image.RGBA, f Filter, other Texture) bool {
		if t.page == p {
			return true
		}
		r, _, ok := p.packer.Alloc(img.Rect.Dx()+2, img.Rect.Dy()+2)
		if !ok {
			*t = other
			return false
		}
		a.upload(p, r.X, r.Y, img, 1)
		*t = p.texture(r.X+1, r.Y+1, img.Rect.Dx(), img.Rect.Dy(), f)
		return true
	}
	put(&p.shapes.white, a.shapes.white, Nearest, first.white)
	put(&p.shapes.disc, a.shapes.disc, Linear, first.disc)
	if p.shapes.glyphs[0].page != p {
		var sheet Texture
		if put(&sheet, a.shapes.font, Nearest, Texture{}) {
			for i := range p.shapes.glyphs {
				p.shapes.glyphs[i] = sheet.Sub(i%atlasCols*glyphW, i/atlasCols*glyphH, glyphW, glyphH)
			}
		} else {
			p.shapes.glyphs = first.glyphs
		}
	}
}

func (a *atlas) newSlot(p *page, node int) int32 {
	if k := len(a.unused); k > 0 {
		i := a.unused[k-1]
		a.unused = a.unused[:k-1]
		s := &a.slots[i]
		s.page, s.node, s.live = p, node, true
		s.regionStamp = 0 // another texture's region
		return i
	}
	a.slots = append(a.slots, slot{page: p, node: node, gen: 1, live: true})
	return int32(len(a.slots) - 1)
}

// upload writes img, premultiplied, at (x, y) of page p, with a border of
// border (0 or 1) repeated edge pixels around it, a strip of rows at a
// time through the scratch buffer.
func (a *atlas) upload(p *page, x, y int, img image.Image, border int) {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	bw, bh := w+2*border, h+2*border
	stride := 4 * bw
	rows := max(1, min(bh, uploadBytes/stride))
	if cap(a.scratch) < rows*stride {
		a.scratch = make([]byte, rows*stride)
	}
	gl.BindTexture(gl.TEXTURE_2D, p.id)
	gl.PixelStorei(gl.UNPACK_ALIGNMENT, 1)
	for y0 := 0; y0 < bh; y0 += rows {
		n := min(rows, bh-y0)
		// The strip is rows y0 to y0+n of the bordered image; source row
		// sy is strip row sy+border, clamped to the image for the border.
		strip := &image.RGBA{Pix: a.scratch[:n*stride], Stride: stride, Rect: image.Rect(0, y0, bw, y0+n)}
		if lo, hi := max(y0, border), min(y0+n, border+h); lo < hi {
			draw.Draw(strip, image.Rect(border, lo, border+w, hi), img, image.Pt(b.Min.X, b.Min.Y+lo-border), draw.Src)
		}
		if border > 0 {
			if y0 == 0 {
				draw.Draw(strip, image.Rect(1, 0, 1+w, 1), img, b.Min, draw.Src)
			}
			if y0+n == bh {
				draw.Draw(strip, image.Rect(1, bh-1, 1+w, bh), img, image.Pt(b.Min.X, b.Max.Y-1), draw.Src)
			}
			for k := range n {
				row := strip.Pix[k*stride:][:stride]
				copy(row[:4], row[4:8])
				copy(row[stride-4:], row[stride-8:stride-4])
			}
		}
		gl.TexSubImage2D(gl.TEXTURE_2D, 0, int32(x), int32(y+y0), int32(bw), int32(n), gl.RGBA, gl.UNSIGNED_BYTE, glPtr(&strip.Pix[0]))
	}
}

// valid reports whether a texture of slot i and generation gen is alive.
func (a *atlas) valid(i int32, gen uint32) bool {
	return int(i) < len(a.slots) && a.slots[i].live && a.slots[i].gen == gen
}

// free gives the space of slot i back. A page left empty is released.
func (a *atlas) free(i int32, gen uint32) {
	if !a.valid(i, gen) {
		return
	}
	s := &a.slots[i]
	p := s.page
	if p.packer != nil {
		p.packer.Free(s.node)
	}
	p.live--
	s.live, s.page = false, nil
	s.gen++
	a.unused = append(a.unused, i)
	if p.live == 0 {
		a.release(p)
	}
}

// release deletes page p, which holds no texture, unless it is the first
// page or the only empty shared page of its filter: that one is kept for
// the next texture, with all its shapes.
func (a *atlas) release(p *page) {
	if p.packer != nil {
		if p == a.pages[0] {
			return
		}
		spare := true
		for _, q := range a.pages {
			if q != p && q.packer != nil && q.filter == p.filter && q.live == 0 {
				spare = false
				break
			}
		}
		if spare {
			a.fillShapes(p)
			return
		}
	}
	a.deletePage(p)
}

func (a *atlas) deletePage(p *page) {
	for k, q := range a.pages {
		if q == p {
			a.pages = append(a.pages[:k], a.pages[k+1:]...)
			break
		}
	}
	gl.DeleteTextures(1, &p.id)
	p.id = 0
	live.Add(-1)
}

// close deletes every page. Textures still held become invalid: drawing
// one panics, deleting one does nothing.
func (a *atlas) close() {
	for len(a.pages) > 0 {
		a.deletePage(a.pages[len(a.pages)-1])
	}
	for i := range a.slots {
		if a.slots[i].live {
			a.slots[i].live, a.slots[i].page = false, nil
			a.slots[i].gen++
		}
	}
}

// Pages returns how many atlas pages (GL textures) the renderer holds for
// its textures: those with textures on them, the first page, and at most
// one empty shared page of each filter, kept for the next texture.
func (r *Renderer) Pages() int { return len(r.atlas.pages) }
