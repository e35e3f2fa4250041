//go:build cgo

package gfx

import (
	"bytes"
	"math"
	"strings"
	"unicode/utf8"
	"unsafe"

	"golang.org/x/image/font/sfnt"
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
//
// Text is clipped to what the camera shows (see SetCamera), so a string
// from a peer costs what it shows, whatever its length: a glyph wholly
// outside is not queued (nor rasterized, when new), a line stops at its
// first glyph that starts past the right edge (pens only move right: a
// kerning pair never moves the pen back past the previous glyph's, in
// Measure too), and the lines stop at the first one below the bottom.
// Lines above the top cost a search for their '\n'; a line drawn
// centered or right-aligned is measured (Measure's cost, a few ns a rune)
// before its visible glyphs are queued.
func (r *Renderer) DrawText(f *Face, x, y float32, text string, c Color, a Align) {
	if f.atlas != r.atlas {
		panic("gfx: DrawText with a deleted Face or one of another renderer")
	}
	v := &r.view
	base := f.firstBaseline(y, text, a)
	for {
		i := strings.IndexByte(text, '\n')
		line := text
		if i >= 0 {
			line = text[:i]
		}
		b := roundHalfUp(base)
		switch {
		case v.all || b+f.reach.minY <= v.maxY && b+f.reach.maxY >= v.minY:
			r.drawLine(f, f.lineStart(x, line, a), b, line, c)
		case b+f.reach.maxY < v.minY && f.lineHeight > 0:
			return // below the view, as every later line
		}
		if i < 0 {
			return
		}
		text = text[i+1:]
		base -= f.lineHeight
	}
}

// DrawTextBytes is DrawText of text held in a byte slice, such as a
// TextBuffer's Bytes: it neither copies nor keeps text.
func (r *Renderer) DrawTextBytes(f *Face, x, y float32, text []byte, c Color, a Align) {
	r.DrawText(f, x, y, bytesString(text), c, a)
}

// drawLine queues the visible glyphs of one line from the pen at (x,
// base), stopping at the first glyph that starts past the view's right
// edge: pens never move left, so no later glyph can show.
func (r *Renderer) drawLine(f *Face, x, base float32, line string, c Color) {
	v := &r.view
	var prev sfnt.GlyphIndex
	start := x // the previous glyph's pen
	skip := !v.all && !f.kern
	for i := 0; i < len(line); {
		// Without kerning, ASCII left of the view is passed a byte at a
		// time (a line scrolled far left).
		for skip && i < len(line) && line[i] < utf8.RuneSelf && x+f.reach.maxX < v.minX {
			x += f.latin[line[i]].adv
			i++
		}
		if i == len(line) {
			return
		}
		ru, n := rune(line[i]), 1
		if ru >= utf8.RuneSelf {
			ru, n = utf8.DecodeRuneInString(line[i:])
		}
		// Latin-1 is at hand; another rune is rasterized only if it may
		// show.
		var g *faceGlyph
		var adv float32
		var idx sfnt.GlyphIndex
		if ru < 256 && f.latin[ru].ok {
			g = &f.latin[ru]
			adv, idx = g.adv, g.index
		} else {
			adv, idx = f.metrics(ru)
		}
		if f.kern && i > 0 {
			x = max(x+f.kernPair(prev, idx), start)
		}
		if !v.all && x+f.reach.minX > v.maxX {
			return
		}
		if v.all || x+f.reach.maxX >= v.minX {
			if g == nil {
				g = f.glyph(ru)
			}
			if g.ink && !v.outside(x+g.dx-g.w/2, base+g.dy-g.h/2, x+g.dx+g.w/2, base+g.dy+g.h/2) {
				r.Draw(g.tex, Sprite{X: x + g.dx, Y: base + g.dy, W: g.w, H: g.h, Color: c})
			}
		}
		start = x
		x += adv
		prev = idx
		i += n
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
// glyph's pen position to the pen after the last glyph; a kerning pair
// never moves the pen back past the previous glyph's) and the height of
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
// included, as drawLine places it: a pair's kerning never moves the pen
// back past the previous glyph's pen.
func (f *Face) lineWidth(line string) float32 {
	if !f.kern {
		return f.advances(line)
	}
	w, start := float32(0), float32(0)
	var prev sfnt.GlyphIndex
	for i, ru := range line {
		adv, idx := f.metrics(ru)
		if f.kern && i > 0 {
			w = max(w+f.kernPair(prev, idx), start)
		}
		start = w
		w += adv
		prev = idx
	}
	return w
}

// advances returns the sum of the advances of line's runes, in order:
// lineWidth without kerning, with ASCII read a byte at a time (a long
// centered or right-aligned line is measured before it is drawn).
func (f *Face) advances(line string) float32 {
	w := float32(0)
	for i := 0; i < len(line); {
		if b := line[i]; b < utf8.RuneSelf {
			w += f.latin[b].adv
			i++
			continue
		}
		ru, n := utf8.DecodeRuneInString(line[i:])
		w += f.advance(ru)
		i += n
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

// DebugText queues text in the overlay's 7×13 bitmap font, for debug
// overlays and quick HUDs, at (x, y), the top-left corner of its first
// line, in camera units of one pixel per font pixel at scale 1. Every glyph is a 7×13 cell scaled as blocks: each byte
// advances 7·scale, and the line height is 13·scale ('\n' starts a new
// line). Bytes outside printable ASCII draw as '?'. It batches with
// sprites and does not allocate. Like DrawText it is clipped to what the
// camera shows: a cell wholly outside is not queued, and with a positive
// scale a line stops at its first cell past the right edge and the text
// at its first line below the bottom. For proportional, smooth text at any
// size use a Face and DrawText.
func (r *Renderer) DebugText(x, y, scale float32, text []byte, c Color) {
	cw, ch := glyphW*scale, glyphH*scale
	v := &r.view
	px, py := x, y
	for i := 0; i < len(text); i++ {
		b := text[i]
		if b == '\n' {
			px, py = x, py-ch
			continue
		}
		if !v.all && scale > 0 && (px > v.maxX || py-ch > v.maxY) {
			// Past the right edge, or a line above the top: the rest of
			// the line is hidden.
			j := bytes.IndexByte(text[i:], '\n')
			if j < 0 {
				return
			}
			i += j - 1
			continue
		}
		if !v.all && scale > 0 && py < v.minY {
			return // this line and every later one are below the bottom
		}
		if b < firstGlyph || b >= firstGlyph+numGlyphs {
			b = '?'
		}
		if b != ' ' && !v.outside(min(px, px+cw), min(py, py-ch), max(px, px+cw), max(py, py-ch)) {
			r.Draw(r.shapes().glyphs[b-firstGlyph], Sprite{X: px + cw/2, Y: py - ch/2, W: cw, H: ch, Color: c})
		}
		px += cw
	}
}
