//go:build cgo

package gfx

import (
	"fmt"
	"image"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// longLine returns a line of n bytes of printable ASCII, as a peer's name
// or chat message could be.
func longLine(n int) string {
	const word = "peer name "
	return strings.Repeat(word, n/len(word)+1)[:n]
}

// BenchmarkDrawTextLongLine is a frame of one line of 1 MB or 10 MB drawn
// at the top left of an 800×600 window, of the 10 MB line centered
// (measured whole to be placed), and of the 10 MB line scrolled 4 million
// pixels left (walked to the view): its cost should be the glyphs that fit
// the window, not the line's length. heap-MiB is the heap in use after
// the frames and a GC: what the renderer kept.
func BenchmarkDrawTextLongLine(b *testing.B) {
	for _, c := range []struct {
		n int
		a Align
		x float32
	}{{1 << 20, AlignLeft, 0}, {10 << 20, AlignLeft, 0}, {10 << 20, AlignCenter, 400}, {10 << 20, AlignLeft, -4e6}} {
		name := fmt.Sprintf("%dMB", c.n>>20)
		switch {
		case c.a == AlignCenter:
			name += "-centered"
		case c.x < 0:
			name += "-scrolled" // the pen starts 4 million pixels left
		}
		x := c.x
		b.Run(name, func(b *testing.B) {
			line := longLine(c.n)
			var r *Renderer
			benchFrames(b, func(rr *Renderer) (func(), func(), error) {
				r = rr
				f, err := r.NewFace(FaceConfig{Size: 16})
				if err != nil {
					return nil, nil, err
				}
				return func() {
					r.BeginFrame(800, 600, Black)
					r.DrawText(f, x, 600, line, White, c.a)
					r.EndFrame()
				}, nil, nil
			})
			runtime.GC()
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			b.ReportMetric(float64(m.HeapInuse)/(1<<20), "heap-MiB")
			b.ReportMetric(float64(r.LastFrame().Sprites), "sprites")
			b.Logf("resident %s", vmRSS())
		})
	}
}

// clipW, clipH is the window of the clipping tests.
const clipW, clipH = 160, 120

// inBox counts the glyph cells of text drawn with f at (x, y) aligned by a
// (no kerning: Go Regular has none) that touch the box from (x0, y0) to
// (x1, y1), walking every glyph: what clipping should keep.
func inBox(f *Face, x, y float32, text string, a Align, x0, y0, x1, y1 float32) int {
	n := 0
	base := f.firstBaseline(y, text, a)
	for _, line := range strings.Split(text, "\n") {
		pen, b := f.lineStart(x, line, a), roundHalfUp(base)
		for _, ru := range line {
			g := f.glyph(ru)
			cx, cy := pen+g.dx, b+g.dy
			if g.ink && cx+g.w/2 >= x0 && cx-g.w/2 <= x1 && cy+g.h/2 >= y0 && cy-g.h/2 <= y1 {
				n++
			}
			pen += g.adv
		}
		base -= f.lineHeight
	}
	return n
}

// clipRun is a frame drawn clipped and the same frame unclipped.
type clipRun struct {
	clipped, all       FrameStats
	imgClipped, imgAll *image.RGBA
	batchCap           int // the sprite stream's part after the clipped frame
}

// drawClipped draws one frame of draw under the pixel camera twice, clipped
// and with clipping turned off (draw calls noClip after it sets a camera),
// from a sprite stream of its first size.
func drawClipped(r *Renderer, draw func(noClip func())) clipRun {
	var c clipRun
	r.sprites.make(minBatch)
	r.BeginFrame(clipW, clipH, Black)
	draw(func() {})
	c.clipped = r.EndFrame()
	c.batchCap = r.sprites.part
	c.imgClipped = r.ReadPixels(clipW, clipH)
	r.BeginFrame(clipW, clipH, Black)
	noClip := func() { r.view = visible{all: true} }
	noClip()
	draw(noClip)
	c.all = r.EndFrame()
	c.imgAll = r.ReadPixels(clipW, clipH)
	return c
}

// TestDrawTextLongLineCostsWhatItShows: a 1 MB line (also starting far
// left of the window), a line beyond ASCII, and 100,000 short lines,
// queue only the glyphs whose cells touch the window (the view's
// margin of a thousandth included), left-aligned, centered and
// right-aligned, and draw the same picture as without clipping; the batch
// does not grow past its first size.
func TestDrawTextLongLineCostsWhatItShows(t *testing.T) {
	openWindow(t, WindowConfig{Width: clipW, Height: clipH})
	long := longLine(1 << 20)
	lines := strings.Repeat("one of many lines\n", 100000)
	mx, my := float32(clipW)/1024, float32(clipH)/1024
	withFace(t, FaceConfig{Size: 16}, func(r *Renderer, f *Face) error {
		if f.kern {
			t.Fatal("Go Regular kerns: inBox does not")
		}
		type textCase struct {
			name string
			x, y float32
			text string
			a    Align
		}
		cases := []textCase{
			{"left", 2, clipH - 2, long, AlignLeft},
			{"scrolled left", -200000, clipH - 2, long, AlignLeft},
			{"scrolled, non-ASCII", -2000, clipH - 2, strings.Repeat("€ é ", 5000), AlignLeft},
			{"centered", clipW / 2, clipH / 2, long, AlignCenter | AlignMiddle},
			{"right", clipW - 2, 2, long, AlignRight | AlignBottom},
			{"lines", 2, clipH - 2, lines, AlignLeft},
			{"lines from below", 2, -100, lines, AlignLeft | AlignBottom},
		}
		// Scrolled left by every phase of the words (70 pixels or so),
		// so some glyph straddles the left edge.
		short := longLine(4096)
		for k := range 25 {
			cases = append(cases, textCase{fmt.Sprintf("scrolled by %d", 10000+3*k), -10000 - 3*float32(k), clipH / 2, short, AlignLeft})
		}
		for _, c := range cases {
			run := drawClipped(r, func(func()) { r.DrawText(f, c.x, c.y, c.text, White, c.a) })
			want := inBox(f, c.x, c.y, c.text, c.a, -mx, -my, clipW+mx, clipH+my)
			if run.clipped.Sprites != want {
				t.Errorf("%s: %d glyphs queued, want the %d that touch the window (of %d without clipping)", c.name, run.clipped.Sprites, want, run.all.Sprites)
			}
			if want == 0 || want > 1000 {
				t.Errorf("%s: %d glyphs touch the window: the case shows nothing, or too much", c.name, want)
			}
			if d := differing(run.imgClipped, run.imgAll); d != 0 {
				t.Errorf("%s: %d pixels differ from the unclipped picture", c.name, d)
			}
			if run.batchCap != minBatch {
				t.Errorf("%s: the batch grew to %d sprites", c.name, run.batchCap)
			}
		}
		return nil
	})
}

// TestTextLongLineCostsWhatItShows: the bitmap font's Text, clipped the
// same way.
func TestTextLongLineCostsWhatItShows(t *testing.T) {
	openWindow(t, WindowConfig{Width: clipW, Height: clipH})
	long := []byte(longLine(1 << 20))
	lines := []byte(strings.Repeat("one of many lines\n", 100000))
	err := withRenderer(func(r *Renderer) error {
		for _, c := range []struct {
			name string
			x, y float32
			text []byte
			want int // cells with ink touching the window, counted by hand
		}{
			// Cells 0 to 22 (the 23rd starts at 154, the 24th at 161, past
			// the margin), less the spaces at 4, 9, 14 and 19.
			{"long", 0, clipH, long, 23 - 4},
			// From x = -140: cells 19 (ending at 0) to 42, less the spaces
			// at 19, 24, 29, 34 and 39.
			{"left of the window", -140, clipH, long, 24 - 5},
			// 10 lines of 13 pixels (the 10th from y = 3 to -10), each of
			// 17 cells, 3 of them spaces.
			{"lines", 0, clipH, lines, 10 * 14},
		} {
			run := drawClipped(r, func(func()) { r.DebugText(c.x, c.y, 1, c.text, White) })
			if run.clipped.Sprites != c.want {
				t.Errorf("%s: %d cells queued, want %d (of %d without clipping)", c.name, run.clipped.Sprites, c.want, run.all.Sprites)
			}
			if d := differing(run.imgClipped, run.imgAll); d != 0 {
				t.Errorf("%s: %d pixels differ from the unclipped picture", c.name, d)
			}
			if run.batchCap != minBatch {
				t.Errorf("%s: the batch grew to %d sprites", c.name, run.batchCap)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestTextClipTurnedCamera: under a camera turned by 30° and moved, and a
// perspective one (not clipped), clipped text draws the same picture as
// unclipped text, and the turned camera queues far fewer glyphs.
func TestTextClipTurnedCamera(t *testing.T) {
	openWindow(t, WindowConfig{Width: clipW, Height: clipH})
	text := strings.Repeat(longLine(300)+"\n", 40)
	turned := PixelCamera(clipW, clipH).Matrix().Mul4(mgl32.HomogRotate3DZ(math.Pi / 6)).Mul4(mgl32.Translate3D(40, -60, 0))
	persp := mgl32.Perspective(1, float32(clipW)/clipH, 0.1, 100).Mul4(mgl32.Translate3D(-80, -60, -100))
	withFace(t, FaceConfig{Size: 12}, func(r *Renderer, f *Face) error {
		for _, c := range []struct {
			name    string
			m       mgl32.Mat4
			clipped bool
		}{{"turned", turned, true}, {"perspective", persp, false}} {
			views := 0
			run := drawClipped(r, func(noClip func()) {
				r.SetCamera(c.m)
				if !r.view.all {
					views++
				}
				noClip()
				r.DrawText(f, 0, clipH, text, White, AlignLeft)
			})
			if c.clipped != (views == 2) || !c.clipped && views != 0 {
				t.Errorf("%s: the camera's view is clipped %d times of 2", c.name, views)
			}
			if d := differing(run.imgClipped, run.imgAll); d != 0 {
				t.Errorf("%s: %d pixels differ from the unclipped picture", c.name, d)
			}
			if c.clipped && (run.clipped.Sprites == 0 || run.clipped.Sprites*4 > run.all.Sprites) {
				t.Errorf("%s: %d glyphs queued of %d", c.name, run.clipped.Sprites, run.all.Sprites)
			}
			if !c.clipped && run.clipped.Sprites != run.all.Sprites {
				t.Errorf("%s: %d glyphs queued of %d: a perspective camera clips nothing", c.name, run.clipped.Sprites, run.all.Sprites)
			}
			if lit := inkBox(run.imgClipped, [4]uint8{0, 0, 0, 255}); lit.Dx() < clipW/2 || lit.Dy() < clipH/2 {
				t.Errorf("%s: the text covers only %v of the window", c.name, lit)
			}
		}
		return nil
	})
}
