package gfx

import (
	"fmt"
	"image"

	"github.com/go-gl/gl/v3.3-core/gl"

	"github.com/fixstep/fixstep/gfx/internal/pack"
)

// Filter says how a texture is sampled when it is drawn at another size
// than its own or between pixels.
type Filter uint8

const (
	// Nearest takes the nearest pixel: crisp pixel art and text. It is the
	// zero value.
	Nearest Filter = iota
	// Linear blends the four nearest pixels: smooth scaling and rotation.
	Linear
)

// maxPageSize is the side of an atlas page in pixels, or the driver's
// GL_MAX_TEXTURE_SIZE when that is smaller: 2048² RGBA8 is 16 MiB, room for
// a game's sprite sheets, tiles and fonts in one or two pages.
const maxPageSize = 2048

// atlas packs a renderer's textures into shared pages, so that sprites of
// different textures on one page draw in one instanced call. Every image
// is stored with a one-pixel border that repeats its edge pixels
// (extrusion), so linear filtering at an edge blends the image with
// itself, never with a neighbour. An image too large for a page with its
// border gets a page of its own, sized to it. Page rows are stored top row
// first, like image files.
//
// A page has a filter. Nearest textures go to nearest pages, which
// llvmpipe samples faster; Linear textures go to linear pages, where a
// Nearest texture can also be drawn: the sprite shader samples it at texel
// centers, which is what nearest filtering returns. Every shared page
// holds its own copy of the renderer's shapes (a white pixel, Circle's
// disc and the font, about 16 KiB), so Rect, Circle and Text join whatever
// page's batch is open instead of breaking it.
type atlas struct {
	pageSize int // side of a shared page
	maxTex   int // GL_MAX_TEXTURE_SIZE
	shapes   shapeImages
	pages    []*page
	slots    []slot
	unused   []int32 // free slot indices
	scratch  []byte  // the extruded upload, reused
}

// page is one GL texture of the atlas.
type page struct {
	id     uint32
	w, h   int
	filter Filter
	packer *pack.Packer // nil for a page of one large image
	live   int          // textures on it, its shapes not counted
	shapes shapes       // on shared pages
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
}

// newAtlas makes an atlas whose first page, linear, holds the shapes.
func newAtlas(s shapeImages) *atlas {
	var max int32
	gl.GetIntegerv(gl.MAX_TEXTURE_SIZE, &max)
	a := &atlas{maxTex: int(max), shapes: s}
	a.pageSize = min(maxPageSize, a.maxTex)
	a.newPage(a.pageSize, a.pageSize, Linear, true)
	return a
}

// add places the premultiplied image img (rows top first) and uploads it.
func (a *atlas) add(img *image.RGBA, f Filter) (Texture, error) {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	if w <= 0 || h <= 0 {
		return Texture{}, fmt.Errorf("gfx: texture size %dx%d: must be positive", w, h)
	}
	if w > a.maxTex || h > a.maxTex {
		return Texture{}, fmt.Errorf("gfx: image %dx%d is larger than the driver's maximum texture size, %d", w, h, a.maxTex)
	}
	var pg *page
	var x, y, node int
	if w+2 <= a.pageSize && h+2 <= a.pageSize {
		for _, p := range a.pages {
			if p.packer == nil || p.filter != f {
				continue
			}
			if r, id, ok := p.packer.Alloc(w+2, h+2); ok {
				pg, x, y, node = p, r.X, r.Y, id
				break
			}
		}
		if pg == nil {
			pg = a.newPage(a.pageSize, a.pageSize, f, true)
			var ok bool
			if x, y, node, ok = a.place(pg, img); !ok {
				return Texture{}, fmt.Errorf("gfx: image %dx%d does not fit a new %dx%d atlas page", w, h, a.pageSize, a.pageSize)
			}
		}
		a.uploadExtruded(pg, x, y, img)
		x, y = x+1, y+1
	} else {
		pg = a.newPage(w, h, f, false)
		a.upload(pg, 0, 0, w, h, a.rows(img, false))
		node = -1
	}
	pg.live++
	i := a.newSlot(pg, node)
	t := pg.texture(x, y, w, h, f)
	t.atlas, t.slot, t.gen = a, i, a.slots[i].gen
	return t, glError("atlas")
}

// texture returns the w×h image at (x, y) of page p as a Texture.
func (p *page) texture(x, y, w, h int, f Filter) Texture {
	return Texture{
		id: p.id, w: w, h: h, page: p,
		u0: float32(x) / float32(p.w), u1: float32(x+w) / float32(p.w),
		v0: float32(y+h) / float32(p.h), v1: float32(y) / float32(p.h), // bottom, top
		nearest: f == Nearest,
	}
}

// place allocates room for img and its border on shared page p.
func (a *atlas) place(p *page, img *image.RGBA) (x, y, node int, ok bool) {
	r, id, ok := p.packer.Alloc(img.Rect.Dx()+2, img.Rect.Dy()+2)
	return r.X, r.Y, id, ok
}

func (a *atlas) newPage(w, h int, f Filter, shared bool) *page {
	p := &page{w: w, h: h, filter: f, id: newGLTexture(w, h, nil, f == Linear)}
	a.pages = append(a.pages, p)
	if !shared {
		return p
	}
	p.packer = pack.New(w, h)
	// The shapes: a page has room for them, they are tiny.
	put := func(img *image.RGBA, f Filter) Texture {
		x, y, _, _ := a.place(p, img)
		a.uploadExtruded(p, x, y, img)
		return p.texture(x+1, y+1, img.Rect.Dx(), img.Rect.Dy(), f)
	}
	p.shapes.white = put(a.shapes.white, Nearest)
	p.shapes.disc = put(a.shapes.disc, Linear)
	sheet := put(a.shapes.font, Nearest)
	for i := range p.shapes.glyphs {
		p.shapes.glyphs[i] = sheet.Sub(i%atlasCols*glyphW, i/atlasCols*glyphH, glyphW, glyphH)
	}
	return p
}

func (a *atlas) newSlot(p *page, node int) int32 {
	if k := len(a.unused); k > 0 {
		i := a.unused[k-1]
		a.unused = a.unused[:k-1]
		s := &a.slots[i]
		s.page, s.node, s.live = p, node, true
		return i
	}
	a.slots = append(a.slots, slot{page: p, node: node, gen: 1, live: true})
	return int32(len(a.slots) - 1)
}

// rows copies img's pixels into the scratch buffer, with a border of one
// repeated pixel when extrude is set.
func (a *atlas) rows(img *image.RGBA, extrude bool) []byte {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	b := 0
	if extrude {
		b = 1
	}
	bw, bh := w+2*b, h+2*b
	if cap(a.scratch) < 4*bw*bh {
		a.scratch = make([]byte, 4*bw*bh)
	}
	out := a.scratch[:4*bw*bh]
	for oy := range bh {
		sy := min(max(oy-b, 0), h-1)
		src := img.Pix[img.PixOffset(img.Rect.Min.X, img.Rect.Min.Y+sy):][:4*w]
		dst := out[4*bw*oy:][:4*bw]
		copy(dst[4*b:], src)
		if extrude {
			copy(dst[:4], src[:4])
			copy(dst[4*(bw-1):], src[4*(w-1):])
		}
	}
	return out
}

func (a *atlas) uploadExtruded(p *page, x, y int, img *image.RGBA) {
	a.upload(p, x, y, img.Rect.Dx()+2, img.Rect.Dy()+2, a.rows(img, true))
}

func (a *atlas) upload(p *page, x, y, w, h int, pix []byte) {
	gl.BindTexture(gl.TEXTURE_2D, p.id)
	gl.PixelStorei(gl.UNPACK_ALIGNMENT, 1)
	gl.TexSubImage2D(gl.TEXTURE_2D, 0, int32(x), int32(y), int32(w), int32(h), gl.RGBA, gl.UNSIGNED_BYTE, glPtr(&pix[0]))
}

// valid reports whether a texture of slot i and generation gen is alive.
func (a *atlas) valid(i int32, gen uint32) bool {
	return int(i) < len(a.slots) && a.slots[i].live && a.slots[i].gen == gen
}

// free gives the space of slot i back. A page left empty is deleted, but
// for the first shared page, which the renderer's own textures keep.
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
	if p.live == 0 && (p.packer == nil || p != a.pages[0]) {
		a.deletePage(p)
	}
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

// Pages returns how many atlas pages (GL textures) the renderer's textures
// occupy.
func (r *Renderer) Pages() int { return len(r.atlas.pages) }
