package gfx

import (
	"math"
	"strings"
	"unsafe"
)

// Align says where text sits relative to the point it is drawn at: one
// horizontal value ORed with one vertical value, as AlignCenter|AlignMiddle.
// The zero value puts the point at the top left of the text, as Text
// does.
type Align uint8

// Horizontal alignments apply to each line of the text on its own.
const (
	// AlignLeft starts each line at x.
	AlignLeft Align = 0
	// AlignCenter centers each line on x.
	AlignCenter Align = 1
	// AlignRight ends each line at x.
	AlignRight Align = 2

	alignH Align = 3
)

// Vertical alignments place the block of lines.
const (
	// AlignTop puts y at the top of the first line (the face's ascent
	// above its baseline).
	AlignTop Align = 0
	// AlignBaseline puts y on the first line's baseline.
	AlignBaseline Align = 4
	// AlignMiddle centers the block (from the first line's top to the
	// last line's bottom) on y.
	AlignMiddle Align = 8
	// AlignBottom puts y at the bottom of the last line (the face's
	// descent below its baseline).
	AlignBottom Align = 12

	alignV Align = 12
)

// DrawText queues text drawn with face f at (x, y), in camera units of one
// pixel of the face each, placed by a (the zero Align: (x, y) is the top
// left of the first line), tinted by c (premultiplied; White draws the
// glyphs as they are). '\n' starts a new line, LineHeight below; other
// control characters draw nothing; invalid UTF-8 draws as U+FFFD. Each
// line starts at a whole unit: under the pixel camera (BeginFrame's) every
// glyph lands on whole pixels and the text is pixel-exact.
//
// Glyphs batch with sprites, rects and circles on the same atlas page:
// text between sprites of textures of the face's filter usually costs no
// draw call of its own. It does not allocate once the runes it draws are
// rasterized (NewFace rasterizes Latin-1; see Face). Drawing with a face of
// another renderer, or a deleted one, panics.
func (r *Renderer) DrawText(f *Face, x, y float32, text string, c Color, a Align) {
	if f.atlas != r.atlas {
		panic("gfx: DrawText with a deleted Face or one of another renderer")
	}
	base := f.firstBaseline(y, text, a)
	for {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			r.drawLine(f, f.lineStart(x, text, a), roundHalfUp(base), text, c)
			return
		}
		r.drawLine(f, f.lineStart(x, text[:i], a), roundHalfUp(base), text[:i], c)
		text = text[i+1:]
		base -= f.lineHeight
	}
}

// DrawTextBytes is DrawText of text held in a byte slice, such as a
// TextBuffer's Bytes: it neither copies nor keeps text.
func (r *Renderer) DrawTextBytes(f *Face, x, y float32, text []byte, c Color, a Align) {
	r.DrawText(f, x, y, bytesString(text), c, a)
}

// drawLine queues one line's glyphs from the pen at (x, base).
func (r *Renderer) drawLine(f *Face, x, base float32, line string, c Color) {
	var prev rune = -1
	for _, ru := range line {
		g := f.glyph(ru)
		if f.kern && prev >= 0 {
			x += f.kernPair(f.index(prev), g.index)
		}
		if g.ink {
			r.Draw(g.tex, Sprite{X: x + g.dx, Y: base + g.dy, W: g.w, H: g.h, Color: c})
		}
		x += g.adv
		prev = ru
	}
}

// firstBaseline returns the baseline of text's first line drawn at y with
// alignment a.
func (f *Face) firstBaseline(y float32, text string, a Align) float32 {
	switch a & alignV {
	case AlignBaseline:
		return y
	case AlignMiddle:
		return y + f.blockHeight(text)/2 - f.ascent
	case AlignBottom:
		return y + f.blockHeight(text) - f.ascent
	}
	return y - f.ascent
}

// lineStart returns where line's pen starts, x placed by a, at a whole
// unit.
func (f *Face) lineStart(x float32, line string, a Align) float32 {
	switch a & alignH {
	case AlignCenter:
		x -= f.lineWidth(line) / 2
	case AlignRight:
		x -= f.lineWidth(line)
	}
	return roundHalfUp(x)
}

// roundHalfUp rounds v to the nearest whole number, halves up.
func roundHalfUp(v float32) float32 { return float32(math.Floor(float64(v) + 0.5)) }

// Measure returns the size of text drawn with f, in pixels: the width of
// its widest line (the sum of its advances and kernings, from the first
// glyph's pen position to the pen after the last glyph) and the height of
// its block, from the first line's top (Ascent above its baseline) to the
// last line's bottom (Descent below its baseline): Ascent + Descent +
// LineHeight for each line after the first. The empty string has width 0
// and one line's height. It rasterizes nothing and does not allocate.
func (f *Face) Measure(text string) (w, h float32) {
	for {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			return max(w, f.lineWidth(text)), f.blockHeight(text) + h
		}
		w = max(w, f.lineWidth(text[:i]))
		h += f.lineHeight
		text = text[i+1:]
	}
}

// MeasureBytes is Measure of text held in a byte slice.
func (f *Face) MeasureBytes(text []byte) (w, h float32) { return f.Measure(bytesString(text)) }

// blockHeight returns the height of the lines of text from the first
// line's top to the last line's bottom.
func (f *Face) blockHeight(text string) float32 {
	return f.ascent + f.descent + float32(strings.Count(text, "\n"))*f.lineHeight
}

// lineWidth returns the advance width of one line (no '\n'), kerning
// included.
func (f *Face) lineWidth(line string) float32 {
	w := float32(0)
	var prev rune = -1
	for _, ru := range line {
		if f.kern && prev >= 0 {
			w += f.kernPair(f.index(prev), f.index(ru))
		}
		w += f.advance(ru)
		prev = ru
	}
	return w
}

// bytesString views b as a string for a call that neither keeps nor
// changes it, without copying.
func bytesString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}
