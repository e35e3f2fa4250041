//go:build cgo

package gfx

import (
	"fmt"
	"sync/atomic"

	"github.com/go-gl/gl/v3.3-core/gl"
)

// Typed GL handles. Each wraps a GL object name, so passing a texture where
// a buffer is expected is a compile error. Every New function pairs with a
// Delete that is safe to call twice; a zero handle is "no object". Handles
// must be made and deleted on the thread that owns the GL context, and never
// from a finalizer.

// live counts GL objects made by this package and not yet deleted.
var live atomic.Int64

// LiveObjects returns how many GL objects made by this package are still
// alive. After every owner has been closed it is zero; tests assert that.
func LiveObjects() int { return int(live.Load()) }

// genName is where gen has GL write a new object's name: the address of a
// local handed to cgo would move the local to the heap, and making an
// object (a stream's buffer that grows, in a steady state) would allocate.
// Used on the GL thread only, as every GL call is.
var genName uint32

// gen makes one GL object with f (gl.GenBuffers, gl.GenTextures, ...) and
// returns its name, allocating nothing.
func gen(f func(n int32, names *uint32)) uint32 {
	f(1, &genName)
	live.Add(1)
	return genName
}

// Buffer is a GL buffer object.
type Buffer struct{ id uint32 }

// NewBuffer makes a buffer object.
func NewBuffer() Buffer {
	return Buffer{gen(gl.GenBuffers)}
}

// ID returns the GL name, 0 after Delete.
func (b Buffer) ID() uint32 { return b.id }

// Delete deletes the buffer; later calls do nothing.
func (b *Buffer) Delete() {
	if b.id != 0 {
		gl.DeleteBuffers(1, &b.id)
		b.id = 0
		live.Add(-1)
	}
}

// VertexArray is a GL vertex array object.
type VertexArray struct{ id uint32 }

// NewVertexArray makes a vertex array object.
func NewVertexArray() VertexArray {
	return VertexArray{gen(gl.GenVertexArrays)}
}

// ID returns the GL name, 0 after Delete.
func (v VertexArray) ID() uint32 { return v.id }

// Delete deletes the vertex array; later calls do nothing.
func (v *VertexArray) Delete() {
	if v.id != 0 {
		gl.DeleteVertexArrays(1, &v.id)
		v.id = 0
		live.Add(-1)
	}
}

// Texture is an image the renderer can draw: a rectangle of a GL 2D
// texture. Textures made by a Renderer (TextureFromImage, LoadTexture) are
// packed into the renderer's shared atlas pages, so sprites of different
// textures draw in one call; NewTexture makes a GL texture of its own (for
// render targets and raw pixel data). Sub cuts a region that batches with
// its parent. A Texture is a small value: copy it freely; the zero Texture
// draws a solid color.
type Texture struct {
	// 64 bytes, a multiple of 16: Go copies a Texture passed by value
	// (to Draw, a sprite at a time) in 16-byte moves, and a size between
	// multiples makes the last two overlap, which stalls the CPU's store
	// forwarding when the copy is read back (88 bytes cost a third of a
	// benchmark's loop).
	own   *ownTexture // a NewTexture texture's GL object, shared by its copies and regions
	page  *page       // its atlas page, nil for a texture of its own
	atlas *atlas      // the atlas that allocated it (not for a page's shapes)
	// u0, v0 and u1, v1 are the GL texture coordinates of the image's
	// bottom-left and top-right corners.
	u0, v0, u1, v1 float32
	id             uint32
	w, h           int32
	slot           int32  // its allocation in atlas, for Delete and checks
	gen            uint32 // the allocation's generation: a stale copy is caught
	nearest        bool   // sampled at texel centers (the shader snaps)
	sub            bool   // a region (Sub): Delete leaves the parent alone
}

// ownTexture is the state that every copy and region of a NewTexture
// texture (or every copy of a Framebuffer) shares, so that after Delete on
// any one of them the others know the GL object is gone (its name may
// already be another object's).
type ownTexture struct{ deleted bool }

// deleted reports whether t is a copy or region of a texture deleted since.
func (t *Texture) deleted() bool {
	return t.own != nil && t.own.deleted || t.atlas != nil && !t.atlas.valid(t.slot, t.gen)
}

// NewTexture makes a w×h RGBA8 texture of its own from premultiplied pixels
// (len 4·w·h, rows bottom to top as GL wants them, or nil for undefined
// contents), with nearest or linear filtering and clamped edges. It does
// not share an atlas page: each one drawn between others breaks the batch.
// For images, use Renderer.TextureFromImage or Renderer.LoadTexture.
func NewTexture(w, h int, pix []byte, linear bool) (Texture, error) {
	if w <= 0 || h <= 0 {
		return Texture{}, fmt.Errorf("gfx: texture size %dx%d: must be positive", w, h)
	}
	var maxSide int32
	gl.GetIntegerv(gl.MAX_TEXTURE_SIZE, &maxSide)
	if w > int(maxSide) || h > int(maxSide) {
		return Texture{}, fmt.Errorf("gfx: texture size %dx%d: larger than the driver's maximum texture size, %d", w, h, maxSide)
	}
	if pix != nil && len(pix) != 4*w*h {
		return Texture{}, fmt.Errorf("gfx: texture %dx%d: %d bytes of pixels, want %d", w, h, len(pix), 4*w*h)
	}
	t := Texture{w: int32(w), h: int32(h), u1: 1, v1: 1, nearest: !linear, own: new(ownTexture)}
	t.id = newGLTexture(w, h, pix, linear)
	if err := glError("NewTexture"); err != nil {
		t.Delete() // out of memory: nothing is left behind
		return Texture{}, err
	}
	return t, nil
}

// newGLTexture makes a GL texture with clamped edges and uploads pix (nil
// for undefined contents).
func newGLTexture(w, h int, pix []byte, linear bool) uint32 {
	id := gen(gl.GenTextures)
	gl.BindTexture(gl.TEXTURE_2D, id)
	filter := int32(gl.NEAREST)
	if linear {
		filter = gl.LINEAR
	}
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, filter)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, filter)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE)
	var p *byte
	if pix != nil {
		p = &pix[0]
	}
	gl.PixelStorei(gl.UNPACK_ALIGNMENT, 1)
	gl.TexImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, int32(w), int32(h), 0, gl.RGBA, gl.UNSIGNED_BYTE, glPtr(p))
	return id
}

// ID returns the name of the GL texture that holds the image (an atlas
// page for a renderer's texture), 0 after Delete (of t, a copy of it, or
// the texture it is a region of).
func (t Texture) ID() uint32 {
	if t.deleted() {
		return 0
	}
	return t.id
}

// Size returns the texture size in pixels.
func (t Texture) Size() (w, h int) { return int(t.w), int(t.h) }

// Sub returns the w×h region at (x, y) of t, in t's pixels with the origin
// at the top left as in image files: a sprite-sheet frame or a tile. It
// shares t's page, so it batches with t and with every other region of
// it, and it lives as long as t: deleting t makes its regions invalid,
// and Delete on a region does nothing to t. A region outside t panics,
// naming it, however large its numbers (the bounds are checked without
// overflow).
func (t Texture) Sub(x, y, w, h int) Texture {
	// x+w could overflow; w > t.w-x cannot, once 0 <= x <= t.w.
	tw, th := int(t.w), int(t.h)
	if x < 0 || y < 0 || w <= 0 || h <= 0 || x >= tw || y >= th || w > tw-x || h > th-y {
		panic(fmt.Sprintf("gfx: Texture.Sub(%d, %d, %d, %d) is outside the %dx%d texture", x, y, w, h, t.w, t.h))
	}
	fx0, fx1 := float32(x)/float32(t.w), float32(x+w)/float32(t.w)
	ftop, fbot := float32(y)/float32(t.h), float32(y+h)/float32(t.h) // from the top
	s := t
	s.w, s.h, s.sub = int32(w), int32(h), true
	s.u0, s.u1 = t.u0+fx0*(t.u1-t.u0), t.u0+fx1*(t.u1-t.u0)
	s.v0, s.v1 = t.v1+fbot*(t.v0-t.v1), t.v1+ftop*(t.v0-t.v1)
	return s
}

// Delete frees the texture: a NewTexture texture deletes its GL object, a
// renderer's texture gives its atlas space back for reuse. Call it between
// frames (not between drawing the texture and EndFrame) and before the
// renderer's Close. Later calls, and calls on a region (Sub),
// do nothing but clear t. Copies and regions of a deleted texture stay
// deleted: drawing one panics, deleting one does nothing.
func (t *Texture) Delete() {
	switch {
	case t.own != nil && !t.sub && !t.own.deleted && t.id != 0:
		gl.DeleteTextures(1, &t.id)
		live.Add(-1)
		t.own.deleted = true
	case t.atlas != nil && !t.sub:
		t.atlas.free(t.slot, t.gen)
	}
	*t = Texture{}
}

// Framebuffer is a GL framebuffer object with one color texture and a depth
// renderbuffer, for rendering offscreen.
type Framebuffer struct {
	id, depth uint32
	Color     Texture
	gone      *ownTexture // shared by copies: set by Delete
}

// NewFramebuffer makes a w×h framebuffer with an RGBA8 color texture and a
// 24-bit depth buffer.
func NewFramebuffer(w, h int) (Framebuffer, error) {
	f := Framebuffer{gone: new(ownTexture)}
	var err error
	if f.Color, err = NewTexture(w, h, nil, true); err != nil {
		return Framebuffer{}, err
	}
	f.id = gen(gl.GenFramebuffers)
	f.depth = gen(gl.GenRenderbuffers)
	gl.BindRenderbuffer(gl.RENDERBUFFER, f.depth)
	gl.RenderbufferStorage(gl.RENDERBUFFER, gl.DEPTH_COMPONENT24, int32(w), int32(h))
	gl.BindFramebuffer(gl.FRAMEBUFFER, f.id)
	gl.FramebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, f.Color.id, 0)
	gl.FramebufferRenderbuffer(gl.FRAMEBUFFER, gl.DEPTH_ATTACHMENT, gl.RENDERBUFFER, f.depth)
	status := gl.CheckFramebufferStatus(gl.FRAMEBUFFER)
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	if status != gl.FRAMEBUFFER_COMPLETE {
		f.Delete()
		return f, fmt.Errorf("gfx: framebuffer %dx%d incomplete: status 0x%x", w, h, status)
	}
	return f, glError("NewFramebuffer")
}

// ID returns the GL name, 0 after Delete (of f or of a copy of it).
func (f Framebuffer) ID() uint32 {
	if f.gone != nil && f.gone.deleted {
		return 0
	}
	return f.id
}

// Delete deletes the framebuffer and its attachments; later calls, and
// calls on a copy of it, do nothing (but clear it).
func (f *Framebuffer) Delete() {
	if f.gone != nil && f.gone.deleted {
		*f = Framebuffer{}
		return
	}
	if f.gone != nil {
		f.gone.deleted = true
	}
	if f.id != 0 {
		gl.DeleteFramebuffers(1, &f.id)
		f.id = 0
		live.Add(-1)
	}
	if f.depth != 0 {
		gl.DeleteRenderbuffers(1, &f.depth)
		f.depth = 0
		live.Add(-1)
	}
	f.Color.Delete()
}

// glError returns the pending GL errors as one error, or nil.
func glError(where string) error {
	var codes []uint32
	for e := gl.GetError(); e != gl.NO_ERROR; e = gl.GetError() {
		codes = append(codes, e)
		if len(codes) > 8 {
			break
		}
	}
	if len(codes) == 0 {
		return nil
	}
	return fmt.Errorf("gfx: %s: GL error %s", where, glErrorNames(codes))
}

func glErrorNames(codes []uint32) string {
	s := ""
	for i, c := range codes {
		if i > 0 {
			s += ", "
		}
		switch c {
		case gl.INVALID_ENUM:
			s += "INVALID_ENUM"
		case gl.INVALID_VALUE:
			s += "INVALID_VALUE"
		case gl.INVALID_OPERATION:
			s += "INVALID_OPERATION"
		case gl.INVALID_FRAMEBUFFER_OPERATION:
			s += "INVALID_FRAMEBUFFER_OPERATION"
		case gl.OUT_OF_MEMORY:
			s += "OUT_OF_MEMORY"
		default:
			s += fmt.Sprintf("0x%x", c)
		}
	}
	return s
}
