//go:build cgo

package gfx

import (
	"image"
	"math"
	"testing"
)

// withFace runs f on the main thread with a renderer and a face of cfg.
func withFace(t *testing.T, cfg FaceConfig, f func(r *Renderer, face *Face) error) {
	t.Helper()
	err := withRenderer(func(r *Renderer) error {
		face, err := r.NewFace(cfg)
		if err != nil {
			return err
		}
		return f(r, face)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestTextMeasure checks Measure against the face's own numbers: a line's
// width is the sum of its advances (and kernings), a block's height is
// ascent, descent and a line height for each line after the first.
func TestTextMeasure(t *testing.T) {
	openWindow(t, WindowConfig{Width: 64, Height: 64})
	for _, size := range []float64{16, 32} {
		withFace(t, FaceConfig{Size: size}, func(r *Renderer, f *Face) error {
			asc, desc, lh := f.Ascent(), f.Descent(), f.LineHeight()
			for _, v := range []float32{asc, desc, lh} {
				if v <= 0 || v != float32(math.Round(float64(v))) {
					t.Errorf("size %v: metric %v is not a positive whole number", size, v)
				}
			}
			if lh < float32(size) || asc <= desc {
				t.Errorf("size %v: ascent %v, descent %v, line height %v", size, asc, desc, lh)
			}
			sum := func(line string) float32 {
				w := float32(0)
				var prev rune = -1
				for _, c := range line {
					if prev >= 0 && f.kern {
						w += f.kernPair(f.index(prev), f.index(c))
					}
					w += f.Advance(c)
					prev = c
				}
				return w
			}
			for _, c := range []struct {
				text  string
				lines []string
			}{
				{"", []string{""}},
				{"Hello, world", []string{"Hello, world"}},
				{"ab\nlonger line, Ωμέγα\nc", []string{"ab", "longer line, Ωμέγα", "c"}},
				{"trailing\n", []string{"trailing", ""}},
				{"\n\n", []string{"", "", ""}},
			} {
				w, h := f.Measure(c.text)
				var want float32
				for _, l := range c.lines {
					want = max(want, sum(l))
				}
				wantH := asc + desc + float32(len(c.lines)-1)*lh
				if w != want || h != wantH {
					t.Errorf("size %v: Measure(%q) = %v, %v, want %v, %v", size, c.text, w, h, want, wantH)
				}
				if bw, bh := f.MeasureBytes([]byte(c.text)); bw != w || bh != h {
					t.Errorf("MeasureBytes(%q) = %v, %v, Measure %v, %v", c.text, bw, bh, w, h)
				}
			}
			if w, _ := f.Measure("Hello"); w <= 0 || w != sum("Hello") {
				t.Errorf("Measure(Hello) = %v", w)
			}
			// Measuring rasterizes nothing; drawing then gives the same
			// advance.
			adv := f.Advance('Ж')
			if f.more['Ж'] != nil {
				t.Errorf("Advance rasterized its rune")
			}
			r.BeginFrame(64, 64, Black)
			r.DrawText(f, 0, 64, "Ж", White, 0)
			r.EndFrame()
			if g := f.more['Ж']; g == nil || g.adv != adv || adv <= 0 {
				t.Errorf("Ж: Advance %v, drawn glyph %+v", adv, g)
			}
			// Digits share one width: a HUD's numbers do not jiggle.
			for c := '1'; c <= '9'; c++ {
				if f.Advance(c) != f.Advance('0') {
					t.Errorf("size %v: digit %c advances %v, 0 %v", size, c, f.Advance(c), f.Advance('0'))
				}
			}
			return nil
		})
	}
}

// inkBox returns the bounds of the pixels of img that are not bg, in image
// coordinates (y down).
func inkBox(img *image.RGBA, bg [4]uint8) image.Rectangle {
	var box image.Rectangle
	for y := img.Rect.Min.Y; y < img.Rect.Max.Y; y++ {
		for x := img.Rect.Min.X; x < img.Rect.Max.X; x++ {
			o := img.PixOffset(x, y)
			if [4]uint8(img.Pix[o:o+4]) != bg {
				box = box.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	return box
}

// TestTextAlignment draws one string at each alignment and finds its ink:
// centered and right-aligned text is left-aligned text moved by exactly
// half and all of its measured width (rounded to a whole pixel), and the
// vertical alignments move it by the ascent, half the block height and the
// block height. Glyphs sit on the baseline: a capital's ink ends on the
// pixel row just above it and is the cap height tall.
func TestTextAlignment(t *testing.T) {
	const w, h = 200, 100
	openWindow(t, WindowConfig{Width: w, Height: h})
	const line, text = "Hxg, TT", "Hxg, TT\nline two"
	draw := func(r *Renderer, f *Face, x, y float32, s string, a Align) image.Rectangle {
		r.BeginFrame(w, h, Black)
		r.DrawText(f, x, y, s, White, a)
		r.EndFrame()
		return inkBox(r.ReadPixels(w, h), [4]uint8{0, 0, 0, 255})
	}
	withFace(t, FaceConfig{}, func(r *Renderer, f *Face) error {
		lw, lh := f.Measure(line)
		_, th := f.Measure(text)
		for _, c := range []struct {
			name   string
			s      string
			x, y   float32
			a      Align
			dx, dy float32 // where the ink should move from left's, x right, y up
		}{
			{"center", line, 100, 80, AlignCenter, 80 - lw/2, 0},
			{"right", line, 180, 80, AlignRight, 160 - lw, 0},
			{"center at x.5", line, 100.5, 80, AlignCenter, 80.5 - lw/2, 0},
			{"right bottom", line, 180, 10, AlignRight | AlignBottom, 160 - lw, 10 + lh - 80},
			{"baseline", text, 20, 80, AlignBaseline, 0, f.Ascent()},
			{"middle", text, 20, 50, AlignMiddle, 0, 50 + th/2 - 80},
			{"bottom", text, 20, 10, AlignBottom, 0, 10 + th - 80},
		} {
			left := draw(r, f, 20, 80, c.s, AlignLeft|AlignTop)
			if left.Empty() {
				t.Fatalf("nothing drawn")
			}
			got := draw(r, f, c.x, c.y, c.s, c.a)
			// Lines and the pen start at whole pixels, rounded half up.
			want := left.Add(image.Pt(int(math.Floor(float64(c.dx)+0.5)), -int(math.Floor(float64(c.dy)+0.5))))
			if got != want {
				t.Errorf("%s: ink at %v, want %v (left-aligned at %v)", c.name, got, want, left)
			}
		}
		// A centered line's advance box is centered on x, to half a pixel.
		for _, line := range []string{"a", "ab", "Centered text", "mmmm i"} {
			lw := f.lineWidth(line)
			x0 := f.lineStart(100, line, AlignCenter)
			if mid := x0 + lw/2; mid < 99.5 || mid > 100.5 {
				t.Errorf("%q centered on 100: advance box %v to %v", line, x0, x0+lw)
			}
		}
		// The baseline: 'H' at y = 50 has ink on rows 50-cap to 49 (y up),
		// image rows h-50 to h-50+cap-1 (y down), and is upright: its top
		// row is as wide as its bottom row.
		capH := f.ot.Metrics().CapHeight.Round()
		hbox := draw(r, f, 20, 50, "H", AlignBaseline)
		if hbox.Max.Y != h-50 || hbox.Dy() != capH {
			t.Errorf("H on baseline 50: ink rows %d to %d, want %d to %d", hbox.Min.Y, hbox.Max.Y, h-50-capH, h-50)
		}
		tbox := draw(r, f, 20, 50, "T", AlignBaseline)
		img := r.ReadPixels(w, h) // still the T's frame
		row := func(y int) (n int) {
			for x := tbox.Min.X; x < tbox.Max.X; x++ {
				if img.RGBAAt(x, y).R > 128 {
					n++
				}
			}
			return n
		}
		if top, bottom := row(tbox.Min.Y), row(tbox.Max.Y-1); top <= bottom {
			t.Errorf("T: %d pixels in its top row, %d in its bottom row: upside down?", top, bottom)
		}
		return nil
	})
}

// TestTextControlRunes: '\r' and other controls draw nothing and take no
// room; a trailing newline adds a line.
func TestTextControlRunes(t *testing.T) {
	openWindow(t, WindowConfig{Width: 64, Height: 64})
	withFace(t, FaceConfig{}, func(r *Renderer, f *Face) error {
		a, _ := f.Measure("ab")
		b, _ := f.Measure("a\r\x01b\x7f")
		if a != b {
			t.Errorf("controls take room: %v vs %v", b, a)
		}
		_, h1 := f.Measure("ab")
		_, h2 := f.Measure("ab\r\n")
		if h2 != h1+f.LineHeight() {
			t.Errorf("a trailing CRLF: height %v, want %v", h2, h1+f.LineHeight())
		}
		return nil
	})
}
