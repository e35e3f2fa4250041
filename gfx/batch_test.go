//go:build cgo

package gfx

import (
	"image"
	"testing"
	"unsafe"

	"github.com/go-gl/gl/v3.3-core/gl"
)

// bufferBytes returns the size of GL buffer b's store, as the driver
// reports it.
func bufferBytes(b Buffer) int {
	var n int32
	gl.BindBuffer(gl.COPY_READ_BUFFER, b.id)
	gl.GetBufferParameteriv(gl.COPY_READ_BUFFER, gl.BUFFER_SIZE, &n)
	return int(n)
}

// TestBatchesBoundedAndShrink: a frame of 200,000 rects and one of 20,000
// octagons (360,000 vertices) grows the sprite and polygon streams' parts
// to maxBatch sprites and maxPolyBatch vertices and no further (four
// parts: 8 MiB and 12 MiB of GL buffer), and the next such frame draws in
// batches of those sizes; the parts, grown to that, stay for
// shrinkFrames-1 frames of 3,000 rects and 300 octagons and then shrink
// to twice that use (their GL stores too), after which those frames
// allocate nothing; frames of a few sprites bring them down to their
// first size.
func TestBatchesBoundedAndShrink(t *testing.T) {
	openWindow(t, WindowConfig{Width: 64, Height: 64})
	oct := regularPolygon(8, 4, 0)
	err := withRenderer(func(r *Renderer) error {
		frame := func(rects, polys int) FrameStats {
			r.BeginFrame(64, 64, Black)
			for i := range rects {
				r.Rect(float32(i%64), 32, 1, 1, 0, White)
			}
			for i := range polys {
				r.Polygon(float32(i%64), 32, 0, oct, White)
			}
			return r.EndFrame()
		}
		stores := func() (sprites, polys int) { return bufferBytes(r.sprites.buf), bufferBytes(r.polys.buf) }
		if huge := frame(200000, 20000); huge.Sprites != 200000 || huge.Polygons != 20000 {
			t.Errorf("huge frame drew %+v", huge)
		}
		if r.sprites.part != maxBatch || r.polys.part != maxPolyBatch {
			t.Errorf("after the huge frame the parts hold %d sprites and %d vertices, want %d and %d", r.sprites.part, r.polys.part, maxBatch, maxPolyBatch)
		}
		if s, p := stores(); s != streamParts*maxBatch*instanceSize || p != streamParts*maxPolyBatch*polyVertexSize {
			t.Errorf("after the huge frame the stores hold %d and %d bytes, want %d and %d", s, p, streamParts*maxBatch*instanceSize, streamParts*maxPolyBatch*polyVertexSize)
		}
		// 200,000 sprites in batches of 65,536; 360,000 vertices in
		// batches of 262,134 (whole octagons of 18).
		if huge := frame(200000, 20000); huge.DrawCalls != 4+2 || huge.Sprites != 200000 || huge.Polygons != 20000 {
			t.Errorf("second huge frame: %+v, want 6 draw calls", huge)
		}
		if r.sprites.part != maxBatch || r.polys.part != maxPolyBatch {
			t.Errorf("after two huge frames the parts hold %d sprites and %d vertices", r.sprites.part, r.polys.part)
		}
		for range shrinkFrames - 1 {
			frame(3000, 300)
		}
		if r.sprites.part != maxBatch || r.polys.part != maxPolyBatch {
			t.Errorf("the parts shrank to %d and %d before %d frames", r.sprites.part, r.polys.part, shrinkFrames)
		}
		frame(3000, 300)
		if c, b := r.sprites.part, bufferBytes(r.sprites.buf); c != 6000 || b != streamParts*6000*instanceSize {
			t.Errorf("sprite part %d (store %d bytes) after %d frames of 3,000, want 6,000 (%d bytes)", c, b, shrinkFrames, streamParts*6000*instanceSize)
		}
		if c, b := r.polys.part, bufferBytes(r.polys.buf); c != 2*300*18 || b != streamParts*2*300*18*polyVertexSize {
			t.Errorf("polygon part %d (store %d bytes) after %d frames of 300 octagons, want %d", c, b, shrinkFrames, 2*300*18)
		}
		if a := testing.AllocsPerRun(100, func() { frame(3000, 300) }); a != 0 {
			t.Errorf("steady frames after the shrink: %v allocations each", a)
		}
		for range shrinkFrames {
			frame(10, 1)
		}
		if r.sprites.part != minBatch || r.polys.part != minPolyBatch {
			t.Errorf("after frames of 10 rects and an octagon: parts of %d and %d, want %d and %d", r.sprites.part, r.polys.part, minBatch, minPolyBatch)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// streamObjects counts the GL objects stream s holds: its buffer and its
// fences.
func streamObjects[T any](s *stream[T]) int {
	n := 0
	if s.buf.id != 0 {
		n++
	}
	for _, f := range s.fences {
		if f != 0 {
			n++
		}
	}
	return n
}

// objectsBesideStreams counts the live GL objects less those that come
// and go with the frames: the streams' buffers and fences, and the
// renderer's frame fences.
func objectsBesideStreams(r *Renderer) int {
	n := LiveObjects() - streamObjects(&r.sprites) - streamObjects(&r.regions) - streamObjects(&r.polys)
	for _, f := range r.frameFences {
		if f != 0 {
			n--
		}
	}
	return n
}

// TestSpriteFramesAllocateNothing: frames of 0 to 1,000,000 sprites of 8
// atlas textures, turned, allocate nothing once the streams have grown
// (testing.AllocsPerRun), at every count; the largest holds its sprites
// in 16 batches of 65,536. The frames of a million sprites leave the draw
// calls out (RendererConfig.NoDraw): llvmpipe takes seconds to shade
// them, and a draw call allocates nothing in Go.
func TestSpriteFramesAllocateNothing(t *testing.T) {
	openWindow(t, WindowConfig{Width: 8, Height: 8})
	for _, c := range []struct {
		counts []int
		noDraw bool
	}{{[]int{0, 1000, 100000}, false}, {[]int{1000000}, true}} {
		cfg := testConfig()
		cfg.NoDraw = c.noDraw
		err := withConfig(cfg, func(r *Renderer) error {
			var texs [8]Texture
			for k := range texs {
				var err error
				if texs[k], err = r.TextureFromImage(image.NewRGBA(image.Rect(0, 0, 4+k, 4)), Nearest); err != nil {
					return err
				}
			}
			for _, n := range c.counts {
				var drawn FrameStats
				frame := func() {
					r.BeginFrame(8, 8, Black)
					for i := range n {
						r.Draw(texs[i&7], Sprite{X: float32(i & 7), Y: 4, W: 2, H: 2, Angle: float32(i), Color: White})
					}
					drawn = r.EndFrame()
				}
				frame()
				frame()
				if a := testing.AllocsPerRun(3, frame); a != 0 {
					t.Errorf("a frame of %d sprites allocates %v times, want 0", n, a)
				}
				if drawn.Sprites != n || n == 1000000 && drawn.DrawCalls != 16 {
					t.Errorf("a frame of %d sprites drew %+v", n, drawn)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestTextureSize: a Texture is 64 bytes, a multiple of 16, so a copy of
// one (Draw takes it by value) is four 16-byte moves that do not overlap.
func TestTextureSize(t *testing.T) {
	if n := unsafe.Sizeof(Texture{}); n != 64 {
		t.Errorf("a Texture is %d bytes, want 64", n)
	}
}
