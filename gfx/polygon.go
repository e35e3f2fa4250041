//go:build cgo

package gfx

import (
	"unsafe"

	"github.com/go-gl/gl/v3.3-core/gl"
	"github.com/go-gl/mathgl/mgl32"
)

// polyVertex is one corner of a queued polygon triangle as the GPU reads
// it: turned and placed on the CPU, in world units, with its polygon's
// color.
type polyVertex struct {
	X, Y  float32
	Color Color
}

const polyVertexSize = int(unsafe.Sizeof(polyVertex{}))

// Polygons are a batch of their own, not instances of the sprite quad: a
// quad instance is a turned, scaled rectangle, which cannot take the shape
// of a triangle (an affine map keeps a parallelogram a parallelogram), so
// drawing polygons through it would take a general matrix per instance
// (for every sprite) and a mask texture whose diagonal edge is filtered,
// not exact. A triangle list of position and color, with a shader that
// only projects, draws every convex polygon exactly, with hard edges like
// Rect's. The cost is a batch break between a sprite and a polygon: the
// renderer keeps at most one of its two batches non-empty, so painter's
// order holds across them.

// initPolygons makes the polygon program and its vertex array, which
// flushPolygons points at the polygon stream's buffer. closePolygons
// deletes them (Close deletes the stream).
func (r *Renderer) initPolygons() error {
	var err error
	if r.poly, err = LoadProgram("polygon"); err != nil {
		return err
	}
	if r.uPolyProj, err = r.poly.Uniform("projection"); err != nil {
		return err
	}
	r.polyVAO = NewVertexArray()
	gl.BindVertexArray(r.polyVAO.id)
	gl.EnableVertexAttribArray(0)
	gl.EnableVertexAttribArray(1)
	gl.BindVertexArray(0)
	return nil
}

// closePolygons deletes what initPolygons made, in reverse order.
func (r *Renderer) closePolygons() {
	r.polyVAO.Delete()
	r.poly.Delete()
}

// Polygon queues a filled convex polygon of color c (premultiplied): verts
// are its vertices in the body's own frame, relative to its center (x, y),
// turned by angle radians counterclockwise about it, as Rect is, all in
// camera units. Either winding draws the same. It is drawn as a fan of
// triangles from verts[0], exactly for a convex polygon; a concave one
// comes out as that fan (wrong where the fan leaves the outline, and
// doubly blended where it folds over). Edges are hard, like Rect's (a
// Scaler's MSAA smooths both).
//
// Fewer than 3 vertices or more than MaxPolygonVertices draw nothing (a
// polygon cut to its first 64 vertices would be another shape). verts is
// read during the call, not kept: a reused array, such as one of
// physics.MaxHullVertices filled from a Hull's Vertex, costs nothing.
//
// Polygons in a row go out in one draw call (one more per 262,144
// vertices, which bounds the batch's memory); a polygon after a sprite,
// rect, circle or glyph (or one of those after a polygon) ends the batch
// before it, so painter's order is the order of the calls. Its vertices
// are written straight into the memory the GPU reads, as Draw's sprites
// are, and it does not allocate once the polygon stream has grown to the
// largest frame. Call it between BeginFrame and EndFrame, on the thread
// that owns the context.
func (r *Renderer) Polygon(x, y, angle float32, verts []mgl32.Vec2, c Color) {
	n := len(verts)
	if n < 3 || n > MaxPolygonVertices {
		return
	}
	if r.sprites.n != 0 {
		r.flushSprites()
	}
	q := &r.polys
	if need := 3 * (n - 2); len(q.win)-q.n < need {
		r.flushPolygons()
		q.open(need)
	}
	p := placement{x: x, y: y, cos: 1, color: c}
	if angle != 0 {
		cos, sin := turn(angle)
		p.cos, p.sin = turnFloat(cos), turnFloat(sin)
	}
	first, prev := p.vertex(verts[0]), p.vertex(verts[1])
	w := q.win[q.n : q.n+3*(n-2)]
	for i, v := range verts[2:] {
		cur := p.vertex(v)
		w[3*i], w[3*i+1], w[3*i+2] = first, prev, cur
		prev = cur
	}
	q.n += 3 * (n - 2)
	r.polyCount++
}

// placement turns a polygon's vertices by an angle (its cosine and sine)
// and moves them to (x, y).
type placement struct {
	x, y, cos, sin float32
	color          Color
}

// vertex returns v turned and placed as sprite.vert turns and places a
// quad's corner, in the same order of operations, so a Polygon and a Rect
// of the same corners cover the same pixels.
func (p placement) vertex(v mgl32.Vec2) polyVertex {
	return polyVertex{X: p.cos*v[0] - p.sin*v[1] + p.x, Y: p.sin*v[0] + p.cos*v[1] + p.y, Color: p.color}
}

// flushPolygons draws the queued polygons in one call.
func (r *Renderer) flushPolygons() {
	if r.polys.n == 0 {
		if r.polys.win != nil {
			r.polys.commit() // an empty window: unmapped all the same
		}
		return
	}
	blend2D()
	r.poly.Use()
	gl.UniformMatrix4fv(r.uPolyProj, 1, false, &r.proj[0])
	first, n := r.polys.commit()
	gl.BindVertexArray(r.polyVAO.id)
	if r.polyGen != r.polys.gen {
		// A new buffer: the vertex array points at it once.
		r.polyGen = r.polys.gen
		gl.BindBuffer(gl.ARRAY_BUFFER, r.polys.buf.id)
		gl.VertexAttribPointerWithOffset(0, 2, gl.FLOAT, false, int32(polyVertexSize), unsafe.Offsetof(polyVertex{}.X))
		gl.VertexAttribPointerWithOffset(1, 4, gl.UNSIGNED_BYTE, true, int32(polyVertexSize), unsafe.Offsetof(polyVertex{}.Color))
	}
	if !r.cfg.NoDraw {
		gl.DrawArrays(gl.TRIANGLES, int32(first), int32(n))
	}
	r.frame.DrawCalls++
	r.frame.Polygons += r.polyCount
	r.polyCount = 0
}
