//go:build cgo

package gfx

import (
	"errors"
	"fmt"
	"image"
	"time"
	"unsafe"

	"github.com/go-gl/gl/v3.3-core/gl"
	"github.com/go-gl/mathgl/mgl32"

	"github.com/fixstep/fixstep/shaders"
)

// instance is a Sprite as the GPU reads it, 32 bytes: its center and
// size; its rotation as a cosine and a sine in fixed point (turnOne is 1,
// so no rotation, and quarter turns, are exact, and q/turnOne is exact on
// any GPU: the CPU works them out once a sprite, and not at all for the
// unrotated, where llvmpipe's vertex shader, which is the CPU too, would
// work them out for every vertex); its depth; its texture region as an
// index into the region table the GPU holds (see region), with snapBit
// for a Nearest texture; its color.
type instance struct {
	X, Y, W, H float32
	Cos, Sin   int16
	Depth      float32
	Region     uint32
	Color      Color
}

const instanceSize = int(unsafe.Sizeof(instance{}))

// instanceAttrs are the instance's vertex attributes, as sprite.vert
// reads them: integer ones (the turn, the region) stay integers.
var instanceAttrs = [...]struct {
	loc, n  uint32
	typ     uint32
	integer bool
	norm    bool
	offset  uintptr
}{
	{1, 4, gl.FLOAT, false, false, unsafe.Offsetof(instance{}.X)},
	{2, 2, gl.SHORT, true, false, unsafe.Offsetof(instance{}.Cos)},
	{3, 1, gl.FLOAT, false, false, unsafe.Offsetof(instance{}.Depth)},
	{4, 1, gl.UNSIGNED_INT, true, false, unsafe.Offsetof(instance{}.Region)},
	{5, 4, gl.UNSIGNED_BYTE, false, true, unsafe.Offsetof(instance{}.Color)},
}

// Renderer draws sprites in instanced batches, filled polygons, lit meshes,
// and text, into the current GL context. Its textures (TextureFromImage,
// LoadTexture, the glyphs of its Faces, the bitmap font, Rect's and
// Circle's) share atlas pages, so sprites, text, rects and circles in any
// order draw in one instanced call per page switch; a camera change, a
// cube, a texture of its own (NewTexture, a render target) or a polygon
// also ends a batch, and a run longer than 65,536 sprites is split (a
// batch's memory is bounded). Polygons in a row draw in one call of their
// own, up to 262,144 vertices. Text is clipped to the camera's view.
// Painter's order is submission order, always.
//
// Draw writes each sprite, 32 bytes, straight into memory the GPU reads
// (see Streaming), with no GL call a sprite; Polygon does the same with
// its vertices. The CPU runs at most two frames ahead of the GPU:
// EndFrame waits for the frame before the last to finish, and
// FrameStats.GPUWait says how long the CPU waited.
//
// It owns every GL object it makes, its faces' included, and deletes them
// in Close. Use it on the thread that owns the context.
type Renderer struct {
	cfg       RendererConfig
	streaming Streaming // the mode in use

	// sprite draws batches whose texture's own GL filter is right;
	// snap those on linear atlas pages, where Nearest textures are sampled
	// at texel centers. uProj, uTex and uRegions are their uniforms, in
	// that order.
	sprite, snap          Program
	uProj, uTex, uRegions [2]int32
	mesh                  Program
	uVP, uModel, uTint    int32
	poly                  Program // Polygon's: position and color, no texture
	uPolyProj             int32

	quad      Buffer
	spriteVAO VertexArray
	cube      Buffer
	cubeVAO   VertexArray
	polyVAO   VertexArray
	polyGen   uint32 // the polygon stream's buffer polyVAO points at
	atlas     *atlas

	// The sprite batch: the instances queued since the last draw are
	// sprites.win[:sprites.n], all on batchTex.
	sprites   stream[instance]
	batchTex  uint32 // the GL texture of the queued sprites
	batchPage *page  // its atlas page, nil for a texture of its own
	// The region table (region.go): its stream, the texture buffer that
	// shows it to the shaders, and the cache of its entries.
	regions      stream[region]
	regionTex    uint32
	regionTexGen uint32 // the regions' buffer regionTex shows
	regionCache  regionCache

	proj mgl32.Mat4
	view visible // what proj shows, in camera units: text outside is not queued
	// Matrices handed to GL live here: the address of a local passed to
	// cgo escapes, and would allocate every frame.
	vp, model mgl32.Mat4

	// The polygon batch: triangles queued by Polygon, polys.win[:polys.n].
	// At most one of the sprite and polygon batches holds anything:
	// queuing into one flushes the other, which keeps painter's order.
	polys     stream[polyVertex]
	polyCount int // polygons queued

	// frameFences[i] is passed when frame number i (mod 2) is done:
	// EndFrame waits for the one before the last.
	frameFences [2]uintptr
	frames      int

	w, h   int
	frame  FrameStats // the frame being drawn
	last   FrameStats // the last frame EndFrame finished
	closed bool
	// How long Close took, and how long of it it waited for the GPU.
	closeTotal, closeWait time.Duration

	// GPU timing: two TIME_ELAPSED queries used in turn, so reading one
	// never waits for the frame the GPU is still drawing.
	queries    [2]uint32
	queryCur   int
	queried    [2]bool
	gpuNs      uint64 // fields, not locals: a pointer handed to cgo escapes
	queryReady int32
	gpuTime    time.Duration
}

// LastFrame returns the counts of the last frame that EndFrame finished
// (what the overlay shows, a frame late).
func (r *Renderer) LastFrame() FrameStats { return r.last }

// NewRenderer makes the renderer's programs, buffers and textures in the
// current context, set up by cfg (the zero RendererConfig draws, and
// streams as the driver allows best). The stream buffers grow to hold the
// largest frame seen, then stop allocating; a batch that reaches maxBatch
// sprites is drawn and started again, so a frame of millions of sprites
// holds no more than four parts of 64 Ki of them (8 MiB) at a time; and
// after shrinkFrames frames in a row that use under a quarter of a part,
// the parts shrink to twice their use (see bufferUse). It fails when cfg
// asks for a streaming mode the driver lacks.
func NewRenderer(cfg RendererConfig) (*Renderer, error) {
	if cfg.Streaming >= numStreaming {
		return nil, fmt.Errorf("gfx: RendererConfig.Streaming = %d: not a streaming mode", int(cfg.Streaming))
	}
	r := &Renderer{cfg: cfg, view: visible{all: true}}
	if err := r.init(); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// Streaming returns the streaming mode in use: StreamAuto resolved, or
// StreamCopied after the driver refused a mapping.
func (r *Renderer) Streaming() Streaming {
	if r.sprites.mode == StreamCopied || r.regions.mode == StreamCopied || r.polys.mode == StreamCopied {
		return StreamCopied
	}
	return r.streaming
}

func (r *Renderer) init() error {
	r.streaming = r.cfg.Streaming
	switch {
	case r.streaming == StreamAuto && persistentMapping():
		r.streaming = StreamPersistent
	case r.streaming == StreamAuto:
		r.streaming = StreamMapped
	case r.streaming == StreamPersistent && !persistentMapping():
		return fmt.Errorf("gfx: RendererConfig.Streaming = persistent: the driver offers neither OpenGL 4.4 nor ARB_buffer_storage (%s)", glString(gl.VERSION))
	}
	r.sprites = stream[instance]{mode: r.streaming, minPart: minBatch, maxPart: maxBatch, perFrame: true}
	r.regions = stream[region]{mode: r.streaming, minPart: minRegions, maxPart: maxRegions}
	r.polys = stream[polyVertex]{mode: r.streaming, minPart: minPolyBatch, maxPart: maxPolyBatch, perFrame: true}
	r.regionCache.stamp = 1

	var err error
	if r.sprite, err = LoadProgram("sprite"); err != nil {
		return err
	}
	vs, _ := shaders.Source("sprite.vert")
	fs, _ := shaders.Source("sprite_snap.frag")
	if r.snap, err = NewProgram("sprite.vert", vs, "sprite_snap.frag", fs); err != nil {
		return err
	}
	if r.mesh, err = LoadProgram("mesh"); err != nil {
		return err
	}
	for _, u := range []struct {
		p    Program
		name string
		loc  *int32
	}{
		{r.sprite, "projection", &r.uProj[0]}, {r.sprite, "tex", &r.uTex[0]}, {r.sprite, "regions", &r.uRegions[0]},
		{r.snap, "projection", &r.uProj[1]}, {r.snap, "tex", &r.uTex[1]}, {r.snap, "regions", &r.uRegions[1]},
		{r.mesh, "viewProjection", &r.uVP}, {r.mesh, "model", &r.uModel}, {r.mesh, "color", &r.uTint},
	} {
		if *u.loc, err = u.p.Uniform(u.name); err != nil {
			return err
		}
	}
	// The samplers' units never change: the page on 0, the regions on 1.
	for i, p := range []Program{r.sprite, r.snap} {
		p.Use()
		gl.Uniform1i(r.uTex[i], 0)
		gl.Uniform1i(r.uRegions[i], 1)
	}
	gl.GenTextures(1, &r.regionTex)
	live.Add(1)

	// The sprite VAO: a unit quad (attribute 0) and the instances
	// (attributes 1-5, one step per instance), which flushSprites points
	// at the batch's place in the sprite stream.
	r.spriteVAO = NewVertexArray()
	gl.BindVertexArray(r.spriteVAO.id)
	r.quad = NewBuffer()
	corners := [8]float32{-0.5, -0.5, 0.5, -0.5, -0.5, 0.5, 0.5, 0.5}
	gl.BindBuffer(gl.ARRAY_BUFFER, r.quad.id)
	gl.BufferData(gl.ARRAY_BUFFER, len(corners)*4, glPtr(&corners[0]), gl.STATIC_DRAW)
	gl.EnableVertexAttribArray(0)
	gl.VertexAttribPointerWithOffset(0, 2, gl.FLOAT, false, 8, 0)
	for _, a := range instanceAttrs {
		gl.EnableVertexAttribArray(a.loc)
		gl.VertexAttribDivisor(a.loc, 1)
	}

	// The cube: 36 vertices of position and normal.
	r.cubeVAO = NewVertexArray()
	gl.BindVertexArray(r.cubeVAO.id)
	r.cube = NewBuffer()
	v := cubeVertices()
	gl.BindBuffer(gl.ARRAY_BUFFER, r.cube.id)
	gl.BufferData(gl.ARRAY_BUFFER, len(v)*4, glPtr(&v[0]), gl.STATIC_DRAW)
	gl.EnableVertexAttribArray(0)
	gl.VertexAttribPointerWithOffset(0, 3, gl.FLOAT, false, 24, 0)
	gl.EnableVertexAttribArray(1)
	gl.VertexAttribPointerWithOffset(1, 3, gl.FLOAT, false, 24, 12)
	gl.BindVertexArray(0)

	if err := r.initPolygons(); err != nil {
		return err
	}

	white := image.NewRGBA(image.Rect(0, 0, 1, 1))
	copy(white.Pix, []byte{255, 255, 255, 255})
	r.atlas = newAtlas(shapeImages{white: white, disc: discImage(discSize), font: fontImage()})
	gl.GenQueries(2, &r.queries[0])
	live.Add(2)
	return glError("NewRenderer")
}

// BeginFrame starts a frame on a w×h pixel target: sets the viewport and
// clears color and depth to clear.
func (r *Renderer) BeginFrame(w, h int, clear Color) {
	r.w, r.h = w, h
	r.frame = FrameStats{}
	gl.BeginQuery(gl.TIME_ELAPSED, r.queries[r.queryCur])
	gl.Viewport(0, 0, int32(w), int32(h))
	gl.ClearColor(float32(clear[0])/255, float32(clear[1])/255, float32(clear[2])/255, float32(clear[3])/255)
	gl.Clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT)
	r.SetCamera(PixelCamera(w, h).Matrix())
}

// Target returns the size of the current target.
func (r *Renderer) Target() (w, h int) { return r.w, r.h }

// SetTarget switches to a w×h target without clearing it, with the pixel
// camera, after a Scaler has upscaled the scene into the window: for the
// overlay.
func (r *Renderer) SetTarget(w, h int) {
	r.Flush()
	r.w, r.h = w, h
	gl.Viewport(0, 0, int32(w), int32(h))
	r.proj = PixelCamera(w, h).Matrix()
	r.view = visibleOf(r.proj)
}

// GPUTime returns the GPU time of the most recent frame whose timer query
// has completed (one or two frames ago), 0 before the first.
func (r *Renderer) GPUTime() time.Duration { return r.gpuTime }

// SetCamera sets the projection·view matrix for the sprites that follow,
// flushing the ones before. Text (DrawText, Text) is clipped to what it
// shows when it is a 2D affine matrix (any orthographic camera, Camera2D's
// included, turned or not); under a perspective matrix every glyph is
// queued.
func (r *Renderer) SetCamera(m mgl32.Mat4) {
	r.Flush()
	r.proj = m
	r.view = visibleOf(m)
}

// Draw queues a sprite of texture tex; the zero Texture draws the sprite's
// color alone. The sprite joins the current batch when tex is on the same
// GL texture (atlas page) as the sprites before it. Drawing a texture
// after its Delete, or a copy or region of it, panics. It writes the
// sprite, 32 bytes, into the sprite stream's window (memory the GPU reads,
// but with StreamCopied), with no GL call, and does not allocate once the
// stream buffers have grown to the largest frame.
func (r *Renderer) Draw(tex Texture, s Sprite) {
	if r.polys.n != 0 {
		r.flushPolygons()
	}
	if tex.id == 0 {
		tex = r.shapes().white
	} else if tex.deleted() {
		panic("gfx: Draw of a deleted texture")
	}
	if tex.id != r.batchTex {
		r.Flush()
		r.batchTex, r.batchPage = tex.id, tex.page
	}
	// The sprite's coordinates are relative to the texture; map them into
	// its page. The region's index: from the atlas slot of a whole atlas
	// texture, else region's, its first comparison inline.
	u0, v0, u1, v1 := tex.u0, tex.v0, tex.u1, tex.v1
	whole := s.U0 == 0 && s.V0 == 0 && s.U1 == 0 && s.V1 == 0
	if !whole {
		du, dv := tex.u1-tex.u0, tex.v1-tex.v0
		u0, v0, u1, v1 = tex.u0+s.U0*du, tex.v0+s.V0*dv, tex.u0+s.U1*du, tex.v0+s.V1*dv
	}
	var reg uint32
	switch c := &r.regionCache; {
	case whole && tex.atlas != nil && !tex.sub:
		// A whole atlas texture: its slot keeps its region.
		sl := &tex.atlas.slots[tex.slot]
		if sl.regionStamp == c.stamp {
			reg = sl.region
			break
		}
		reg = r.regionSlow(u0, v0, u1, v1)
		sl.region, sl.regionStamp = reg, c.stamp // the stamp after: regionSlow may clear
	case c.lastOK && u0 == c.last[0] && v0 == c.last[1] && u1 == c.last[2] && v1 == c.last[3]:
		reg = c.lastIdx // a run of one region
	default:
		reg = r.regionSlow(u0, v0, u1, v1)
	}
	if tex.nearest {
		reg |= snapBit
	}
	cos, sin := int16(turnOne), int16(0)
	if s.Angle != 0 {
		cos, sin = turn(s.Angle)
	}
	q := &r.sprites
	if q.n == len(q.win) {
		r.moreSprites()
	}
	// Field by field, straight into the window: no copy of the instance
	// on the stack first.
	in := &q.win[q.n]
	in.X, in.Y, in.W, in.H = s.X, s.Y, s.W, s.H
	in.Cos, in.Sin = cos, sin
	in.Depth = s.Depth
	in.Region = reg
	in.Color = s.Color
	q.n++
}

// moreSprites makes room for a sprite: the batch, when its window is full,
// is drawn, and a new window opened.
func (r *Renderer) moreSprites() {
	r.flushSprites()
	r.sprites.open(1)
}

// shapes returns the shapes of the page whose batch is open, so Rect,
// Circle and Text join it, or the first page's.
func (r *Renderer) shapes() *shapes {
	if p := r.batchPage; p != nil && p.packer != nil {
		return &p.shapes
	}
	return &r.atlas.pages[0].shapes
}

// Rect queues a solid rectangle centered on (x, y), rotated by angle.
func (r *Renderer) Rect(x, y, w, h, angle float32, c Color) {
	r.Draw(r.shapes().white, Sprite{X: x, Y: y, W: w, H: h, Angle: angle, Color: c})
}

// Circle queues a filled disc of radius radius centered on (x, y), its edge
// softened over about one texel of a 64-pixel disc: smooth from a few
// pixels to a few hundred pixels across (on a Nearest page, where it joins
// a batch of Nearest textures, the edge is sampled unfiltered). It batches
// with sprites, rects and text.
func (r *Renderer) Circle(x, y, radius float32, c Color) {
	d := 2 * radius * discSize / (discSize - 2) // the disc's edge is 1 px inside its square
	r.Draw(r.shapes().disc, Sprite{X: x, Y: y, W: d, H: d, Color: c})
}

// discSize is the side of Circle's texture.
const discSize = 64

// discImage returns an n×n white disc, premultiplied, whose edge fades over
// one pixel at radius n/2-1, coverage estimated with 4×4 samples a pixel.
func discImage(n int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, n, n))
	c, rad := float64(n)/2, float64(n)/2-1
	for y := range n {
		for x := range n {
			in := 0
			for sy := range 4 {
				for sx := range 4 {
					dx := float64(x) + (float64(sx)+0.5)/4 - c
					dy := float64(y) + (float64(sy)+0.5)/4 - c
					if dx*dx+dy*dy <= rad*rad {
						in++
					}
				}
			}
			a := uint8((in*255 + 8) / 16)
			copy(img.Pix[img.PixOffset(x, y):], []byte{a, a, a, a})
		}
	}
	return img
}

// Flush draws what is queued: the sprites in one instanced call, or the
// polygons in one call (only one of the two batches is ever open).
func (r *Renderer) Flush() {
	r.flushSprites()
	r.flushPolygons()
}

// blend2D sets the state sprites and polygons draw with: no depth test,
// premultiplied blending.
func blend2D() {
	gl.Disable(gl.DEPTH_TEST)
	gl.Enable(gl.BLEND)
	gl.BlendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA)
}

// flushSprites draws the queued sprites in one instanced call.
func (r *Renderer) flushSprites() {
	if r.sprites.n == 0 {
		if r.sprites.win != nil {
			r.sprites.commit() // an empty window: unmapped all the same
		}
		return
	}
	blend2D()
	prog := 0
	if p := r.batchPage; p != nil && p.filter == Linear {
		prog = 1
		r.snap.Use()
	} else {
		r.sprite.Use()
	}
	gl.UniformMatrix4fv(r.uProj[prog], 1, false, &r.proj[0])
	r.bindRegions()
	gl.BindTexture(gl.TEXTURE_2D, r.batchTex)
	first, n := r.sprites.commit()
	gl.BindVertexArray(r.spriteVAO.id)
	gl.BindBuffer(gl.ARRAY_BUFFER, r.sprites.buf.id)
	base := uintptr(first * instanceSize)
	for _, a := range instanceAttrs {
		if a.integer {
			gl.VertexAttribIPointerWithOffset(a.loc, int32(a.n), a.typ, int32(instanceSize), base+a.offset)
		} else {
			gl.VertexAttribPointerWithOffset(a.loc, int32(a.n), a.typ, a.norm, int32(instanceSize), base+a.offset)
		}
	}
	if !r.cfg.NoDraw {
		gl.DrawArraysInstanced(gl.TRIANGLE_STRIP, 0, 4, int32(n))
	}
	r.frame.DrawCalls++
	r.frame.Sprites += n
}

// DrawCube draws a lit unit cube with the given model matrix, under camera
// viewProj, with depth testing.
func (r *Renderer) DrawCube(viewProj, model mgl32.Mat4, c Color) {
	r.Flush()
	gl.Enable(gl.DEPTH_TEST)
	gl.Disable(gl.BLEND)
	r.mesh.Use()
	r.vp, r.model = viewProj, model
	gl.UniformMatrix4fv(r.uVP, 1, false, &r.vp[0])
	gl.UniformMatrix4fv(r.uModel, 1, false, &r.model[0])
	gl.Uniform4f(r.uTint, float32(c[0])/255, float32(c[1])/255, float32(c[2])/255, float32(c[3])/255)
	gl.BindVertexArray(r.cubeVAO.id)
	if !r.cfg.NoDraw {
		gl.DrawArrays(gl.TRIANGLES, 0, 36)
	}
	r.frame.DrawCalls++
}

// EndFrame flushes what is queued and returns the frame's counts. It
// then waits, when it has to, for the GPU to finish the frame before the
// last, so the CPU is never more than two frames ahead (FrameStats.GPUWait
// says how long).
func (r *Renderer) EndFrame() FrameStats {
	r.Flush()
	r.endStreams()
	gl.EndQuery(gl.TIME_ELAPSED)
	r.queried[r.queryCur] = true
	r.queryCur ^= 1
	// The other query is a frame old: read it if the GPU is done with it.
	if q := r.queryCur; r.queried[q] {
		gl.GetQueryObjectiv(r.queries[q], gl.QUERY_RESULT_AVAILABLE, &r.queryReady)
		if r.queryReady != 0 {
			gl.GetQueryObjectui64v(r.queries[q], gl.QUERY_RESULT, &r.gpuNs)
			r.gpuTime = time.Duration(r.gpuNs)
			r.queried[q] = false
		}
	}
	// Frames in flight: this frame's fence, and a wait for the one two
	// frames old, which a GPU that keeps up has passed already.
	i := r.frames % len(r.frameFences)
	r.frames++
	if f := r.frameFences[i]; f != 0 {
		if !fenceDone(f) {
			r.frame.GPUWaits++
			r.frame.GPUWait += waitFence(f)
		}
		deleteFence(&r.frameFences[i])
	}
	r.frameFences[i] = newFence()
	r.last = r.frame
	return r.frame
}

// endStreams ends the frame of the three streams: their sizes follow the
// frames, and their fence waits join the frame's.
func (r *Renderer) endStreams() {
	gen := r.regions.gen
	r.addWaits(r.sprites.endFrame())
	r.addWaits(r.polys.endFrame())
	r.addWaits(r.regions.endFrame())
	if r.regions.gen != gen {
		r.regionCache.clear() // a new table: the old regions are gone
	}
}

// addWaits counts n waits for the GPU, of d in all, in the frame's stats.
func (r *Renderer) addWaits(n int, d time.Duration) {
	r.frame.GPUWaits += n
	r.frame.GPUWait += d
}

// ReadPixels reads the w×h pixels at the bottom left of the current
// framebuffer (the back buffer, before Present) into an image, top row
// first. It allocates: use it for screenshots and tests, not every frame.
func (r *Renderer) ReadPixels(w, h int) *image.RGBA {
	r.Flush()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	gl.PixelStorei(gl.PACK_ALIGNMENT, 1)
	gl.ReadPixels(0, 0, int32(w), int32(h), gl.RGBA, gl.UNSIGNED_BYTE, glPtr(&img.Pix[0]))
	// GL's rows run bottom to top.
	row := make([]byte, 4*w)
	for y := 0; y < h/2; y++ {
		a := img.Pix[y*img.Stride : y*img.Stride+4*w]
		b := img.Pix[(h-1-y)*img.Stride : (h-1-y)*img.Stride+4*w]
		copy(row, a)
		copy(a, b)
		copy(b, row)
	}
	return img
}

// Close deletes every GL object the renderer made. It first waits for the
// GPU to finish what it was given (glFinish) and times that wait
// (CloseTime), so that no delete waits for the GPU unseen (a driver may
// stall in the delete of a texture the GPU still reads); then it unmaps
// and deletes the stream buffers and fences, and the rest in reverse
// order of creation. Sprites and polygons queued and not flushed are
// dropped. It must run while the context is current; calling it twice is
// safe.
func (r *Renderer) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	start := time.Now()
	gl.Finish()
	r.closeWait = time.Since(start)
	for i := range r.frameFences {
		deleteFence(&r.frameFences[i])
	}
	r.polys.drop()
	r.regions.drop()
	r.sprites.drop()
	if r.queries[0] != 0 {
		gl.DeleteQueries(2, &r.queries[0])
		r.queries = [2]uint32{}
		live.Add(-2)
	}
	if r.atlas != nil {
		r.atlas.close()
	}
	r.closePolygons()
	r.cube.Delete()
	r.cubeVAO.Delete()
	r.quad.Delete()
	r.spriteVAO.Delete()
	if r.regionTex != 0 {
		gl.DeleteTextures(1, &r.regionTex)
		r.regionTex = 0
		live.Add(-1)
	}
	r.mesh.Delete()
	r.snap.Delete()
	r.sprite.Delete()
	r.closeTotal = time.Since(start)
	if err := glError("Renderer.Close"); err != nil {
		return errors.Join(err, fmt.Errorf("gfx: renderer closed with GL errors"))
	}
	return nil
}

// CloseTime returns how long Close took, and how much of that it waited
// for the GPU to finish the work it had been given: 0, 0 before Close.
func (r *Renderer) CloseTime() (total, gpuWait time.Duration) { return r.closeTotal, r.closeWait }

// cubeVertices returns a unit cube centered on the origin as 36 vertices of
// position and normal.
func cubeVertices() []float32 {
	faces := [6][2]mgl32.Vec3{ // normal, and the axis that is "up" on the face
		{{1, 0, 0}, {0, 1, 0}}, {{-1, 0, 0}, {0, 1, 0}},
		{{0, 1, 0}, {0, 0, 1}}, {{0, -1, 0}, {0, 0, 1}},
		{{0, 0, 1}, {0, 1, 0}}, {{0, 0, -1}, {0, 1, 0}},
	}
	out := make([]float32, 0, 36*6)
	for _, f := range faces {
		n, up := f[0], f[1]
		right := up.Cross(n)
		c := n.Mul(0.5)
		corner := func(a, b float32) mgl32.Vec3 { return c.Add(right.Mul(a * 0.5)).Add(up.Mul(b * 0.5)) }
		// Two counterclockwise triangles seen from outside.
		for _, p := range [6][2]float32{{-1, -1}, {1, -1}, {1, 1}, {-1, -1}, {1, 1}, {-1, 1}} {
			v := corner(p[0], p[1])
			out = append(out, v[0], v[1], v[2], n[0], n[1], n[2])
		}
	}
	return out
}
