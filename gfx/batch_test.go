//go:build cgo

package gfx

import "testing"

// TestBatchesBoundedAndShrink: a frame of 200,000 rects and one of 20,000
// octagons (360,000 vertices) hold at most maxBatch sprites and
// maxPolyBatch vertices at a time, drawn in more calls; the batches, grown
// to that, stay for shrinkFrames-1 frames of 3,000 rects and 300 octagons
// and then shrink to twice that use (their GL stores too), after which
// those frames allocate nothing; frames of a few sprites bring them down
// to their first size.
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
		huge := frame(200000, 20000)
		if huge.Sprites != 200000 || huge.Polygons != 20000 {
			t.Errorf("huge frame drew %+v", huge)
		}
		// 200,000 sprites in batches of 65,536; 360,000 vertices in
		// batches of 262,142 (whole octagons of 18).
		if huge.DrawCalls != 4+2 {
			t.Errorf("huge frame in %d draw calls, want 6", huge.DrawCalls)
		}
		if c := cap(r.batch); c < maxBatch || c > maxBatch*5/4 {
			t.Errorf("after the huge frame the sprite batch holds %d, want %d to %d", c, maxBatch, maxBatch*5/4)
		}
		if c := cap(r.polys); c < maxPolyBatch-18 || c > maxPolyBatch*5/4 {
			t.Errorf("after the huge frame the polygon batch holds %d, want about %d", c, maxPolyBatch)
		}
		grown, grownPoly := cap(r.batch), cap(r.polys)
		for range shrinkFrames - 1 {
			frame(3000, 300)
		}
		if cap(r.batch) != grown || cap(r.polys) != grownPoly {
			t.Errorf("batches shrank to %d and %d before %d frames", cap(r.batch), cap(r.polys), shrinkFrames)
		}
		frame(3000, 300)
		if c, b := cap(r.batch), r.capBytes; c != 6000 || b > 6000*instanceSize {
			t.Errorf("sprite batch %d (store %d bytes) after %d frames of 3,000, want 6,000 (%d bytes at most)", c, b, shrinkFrames, 6000*instanceSize)
		}
		if c, b := cap(r.polys), r.polyCapBytes; c != 2*300*18 || b > 2*300*18*polyVertexSize {
			t.Errorf("polygon batch %d (store %d bytes) after %d frames of 300 octagons, want %d", c, b, shrinkFrames, 2*300*18)
		}
		frame(3000, 300) // the stores shrink at their next upload
		if b := r.capBytes; b > 6000*instanceSize {
			t.Errorf("sprite store %d bytes, want %d at most", b, 6000*instanceSize)
		}
		if a := testing.AllocsPerRun(100, func() { frame(3000, 300) }); a != 0 {
			t.Errorf("steady frames after the shrink: %v allocations each", a)
		}
		for range shrinkFrames {
			frame(10, 1)
		}
		if cap(r.batch) != minBatch || cap(r.polys) != minPolyBatch {
			t.Errorf("after frames of 10 rects and an octagon: batches of %d and %d, want %d and %d", cap(r.batch), cap(r.polys), minBatch, minPolyBatch)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
