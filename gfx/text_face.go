//go:build cgo

package gfx

import (
	"fmt"
	"image"
	"image/draw"
	"math"
	"slices"

	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// Face is a font rasterized at one pixel size into the renderer's atlas:
// Renderer.DrawText draws with it, and its glyphs batch with sprites,
// rects, circles and other text on the same atlas page. NewFace
// rasterizes printable ASCII and Latin-1 (U+0020 to U+007E, U+00A0 to
// U+00FF) up front, into one atlas texture; any other rune is rasterized
// the first time it is drawn (that draw allocates, once per rune, and
// uploads the glyph as a texture of its own, usually on the same page).
// A rune the font lacks draws as the font's missing-glyph box (.notdef).
//
// Metrics are in pixels, which are camera units under the pixel camera,
// and whole numbers: the face is hinted, so advances, ascent, descent and
// line height are rounded to whole pixels and text placed at whole
// pixels stays pixel-exact.
//
// A Face belongs to the renderer that made it and to its thread; it is not
// safe for concurrent use, measurement included. Close (or Delete) frees
// its atlas space; the renderer's Close frees it too.
type Face struct {
	atlas  *atlas
	sf     *sfnt.Font
	ot     font.Face // an *opentype.Face: rasterizes the runes met after NewFace
	buf    sfnt.Buffer
	ppem   fixed.Int26_6
	filter Filter
	kern   bool // the font kerns and kerning is on

	size                        float64
	ascent, descent, lineHeight float32
	// reach bounds the cells of every glyph from the pen on the baseline
	// (y up): the font's bounding box with the cells' margin, grown by
	// any rasterized cell beyond it. DrawText clips with it before it
	// looks a glyph up.
	reach struct{ minX, minY, maxX, maxY float32 }

	sheet  Texture             // the pre-rasterized glyphs
	latin  [256]faceGlyph      // runes below 256, ok when rasterized
	more   map[rune]*faceGlyph // runes met later
	extras []Texture           // their textures
	notdef *faceGlyph          // the missing-glyph box, made on first need
}

// faceGlyph is one rasterized glyph: a padded cell of the atlas (the ink
// with a one-pixel transparent margin, so linear filtering fades its
// edges) and where that cell sits relative to the pen on the baseline.
type faceGlyph struct {
	tex    Texture
	dx, dy float32 // the cell's center from the pen, y up
	w, h   float32 // the cell's size
	adv    float32
	index  sfnt.GlyphIndex
	ink    bool // something to draw (a space has none)
	ok     bool
}

// NewFace rasterizes cfg's font at cfg's size into the renderer's atlas.
// It allocates and uploads (load time, not frame time): about a
// millisecond and a few KiB of atlas at 16 pixels. Call it on the thread
// that owns the context.
func (r *Renderer) NewFace(cfg FaceConfig) (*Face, error) {
	if cfg.Size < 0 || cfg.Size > MaxFaceSize || math.IsNaN(cfg.Size) {
		return nil, fmt.Errorf("gfx: FaceConfig.Size %v: must be 0 (16) or in (0, %d]", cfg.Size, MaxFaceSize)
	}
	if cfg.Filter != Nearest && cfg.Filter != Linear {
		return nil, fmt.Errorf("gfx: FaceConfig.Filter %d: not Nearest or Linear", cfg.Filter)
	}
	fnt := cfg.Font
	if fnt == nil {
		fnt = DefaultFont()
	}
	size := cfg.Size
	if size == 0 {
		size = 16
	}
	ot, err := opentype.NewFace(fnt.sf, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, fmt.Errorf("gfx: face of %q at %v px: %w", fnt.name, size, err)
	}
	f := &Face{
		atlas: r.atlas, sf: fnt.sf, ot: ot, filter: cfg.Filter, size: size,
		ppem: fixed.Int26_6(math.Round(size * 64)),
		more: make(map[rune]*faceGlyph),
	}
	m := ot.Metrics()
	f.ascent, f.descent, f.lineHeight = float32(m.Ascent.Round()), float32(m.Descent.Round()), float32(m.Height.Round())
	// The head table's box, y down, whole pixels out; a cell has a pixel
	// of margin round the ink.
	if b, err := fnt.sf.Bounds(&f.buf, f.ppem, font.HintingFull); err == nil {
		f.reach.minX, f.reach.maxX = float32(b.Min.X.Floor()-1), float32(b.Max.X.Ceil()+1)
		f.reach.minY, f.reach.maxY = float32(-b.Max.Y.Ceil()-1), float32(-b.Min.Y.Floor()+1)
	}
	if err := f.rasterizeLatin(); err != nil {
		return nil, fmt.Errorf("gfx: face of %q at %v px: %w", fnt.name, size, err)
	}
	if !cfg.NoKerning {
		f.kern = f.hasKerning()
	}
	return f, nil
}

// glyphCell is a glyph's ink on its way into the sheet.
type glyphCell struct {
	r    rune
	mask *image.Alpha // nil for no ink
	dr   image.Rectangle
	x, y int // the padded cell's place in the sheet
}

// rasterizeLatin rasterizes the printable runes below 256 into one image,
// packed in shelves, and adds it to the atlas.
func (f *Face) rasterizeLatin() error {
	var cells []glyphCell
	for r := rune(0); r < 0x100; r++ {
		if r < 0x20 || r >= 0x7f && r < 0xa0 {
			f.latin[r] = faceGlyph{ok: true} // a control: nothing, no advance
			continue
		}
		g := &f.latin[r]
		c, err := f.rasterize(r, g)
		if err != nil {
			return err
		}
		if c.mask != nil {
			cells = append(cells, c)
		}
	}
	// Shelves of glyphs by height, in a sheet about as wide as tall.
	slices.SortStableFunc(cells, func(a, b glyphCell) int { return b.dr.Dy() - a.dr.Dy() })
	area, widest := 0, 0
	for _, c := range cells {
		area += (c.dr.Dx() + 2) * (c.dr.Dy() + 2)
		widest = max(widest, c.dr.Dx()+2)
	}
	sheetW := max(widest, int(math.Ceil(math.Sqrt(float64(area))*1.1)))
	x, y, shelf := 0, 0, 0
	for i := range cells {
		c := &cells[i]
		w, h := c.dr.Dx()+2, c.dr.Dy()+2
		if x+w > sheetW {
			x, y, shelf = 0, y+shelf, 0
		}
		c.x, c.y = x, y
		x += w
		shelf = max(shelf, h)
	}
	sheet := image.NewAlpha(image.Rect(0, 0, sheetW, max(1, y+shelf)))
	for _, c := range cells {
		draw.Draw(sheet, image.Rect(c.x+1, c.y+1, c.x+1+c.dr.Dx(), c.y+1+c.dr.Dy()), c.mask, image.Point{}, draw.Src)
	}
	// An Alpha image's color is premultiplied white: every channel is the
	// coverage, tinted by the sprite color when drawn.
	tex, err := f.atlas.add(sheet, f.filter)
	if err != nil {
		return err
	}
	f.sheet = tex
	for _, c := range cells {
		f.latin[c.r].tex = tex.Sub(c.x, c.y, c.dr.Dx()+2, c.dr.Dy()+2)
	}
	return nil
}

// rasterize fills g's metrics for rune r and returns its ink (a copy: the
// face reuses its mask), with no texture yet.
func (f *Face) rasterize(r rune, g *faceGlyph) (glyphCell, error) {
	idx, err := f.sf.GlyphIndex(&f.buf, r)
	if err != nil {
		return glyphCell{}, err
	}
	// ok is false for a rune the font lacks, whose .notdef glyph is
	// rasterized all the same; a nil mask is a glyph that failed.
	dr, mask, mp, adv, _ := f.ot.Glyph(fixed.Point26_6{}, r)
	if mask == nil {
		return glyphCell{}, fmt.Errorf("rasterize %U: failed", r)
	}
	*g = faceGlyph{adv: float32(adv.Round()), index: idx, ok: true}
	c := glyphCell{r: r, dr: dr}
	if dr.Empty() {
		return c, nil
	}
	c.mask = image.NewAlpha(image.Rect(0, 0, dr.Dx(), dr.Dy()))
	draw.Draw(c.mask, c.mask.Rect, mask, mp, draw.Src)
	g.ink = true
	g.w, g.h = float32(dr.Dx()+2), float32(dr.Dy()+2)
	// The cell spans dr grown by the margin; image y runs down, the
	// camera's up.
	g.dx = float32(dr.Min.X+dr.Max.X) / 2
	g.dy = -float32(dr.Min.Y+dr.Max.Y) / 2
	f.reach.minX, f.reach.maxX = min(f.reach.minX, float32(dr.Min.X-1)), max(f.reach.maxX, float32(dr.Max.X+1))
	f.reach.minY, f.reach.maxY = min(f.reach.minY, float32(-dr.Max.Y-1)), max(f.reach.maxY, float32(-dr.Min.Y+1))
	return c, nil
}

// glyph returns the glyph of r, rasterizing and uploading it on first use.
// A rune the font lacks, or one that cannot be rasterized or uploaded,
// gets the missing-glyph box.
func (f *Face) glyph(r rune) *faceGlyph {
	if r >= 0 && r < 256 && f.latin[r].ok {
		return &f.latin[r]
	}
	if g := f.more[r]; g != nil {
		return g
	}
	return f.slowGlyph(r)
}

// slowGlyph rasterizes r into a texture of its own: the allocating path.
func (f *Face) slowGlyph(r rune) *faceGlyph {
	idx, err := f.sf.GlyphIndex(&f.buf, r)
	if err != nil || idx == 0 {
		g := f.missing(r)
		f.more[r] = g
		return g
	}
	g := new(faceGlyph)
	if err := f.upload(r, g); err != nil {
		g = f.missing(r) // no room left in the atlas, or a broken glyph
	}
	f.more[r] = g
	return g
}

// missing returns the missing-glyph box, rasterized on first need through
// r, a rune the font lacks; when it cannot be, a blank glyph.
func (f *Face) missing(r rune) *faceGlyph {
	if f.notdef == nil {
		f.notdef = new(faceGlyph)
		if err := f.upload(r, f.notdef); err != nil || f.notdef.index != 0 {
			*f.notdef = faceGlyph{ok: true}
		}
	}
	return f.notdef
}

// upload rasterizes r into g and gives it a texture.
func (f *Face) upload(r rune, g *faceGlyph) error {
	c, err := f.rasterize(r, g)
	if err != nil || c.mask == nil {
		return err
	}
	// The ink with its transparent margin.
	img := image.NewAlpha(image.Rect(0, 0, c.dr.Dx()+2, c.dr.Dy()+2))
	draw.Draw(img, image.Rect(1, 1, 1+c.dr.Dx(), 1+c.dr.Dy()), c.mask, image.Point{}, draw.Src)
	tex, err := f.atlas.add(img, f.filter)
	if err != nil {
		return err
	}
	f.extras = append(f.extras, tex)
	g.tex = tex
	return nil
}

// hasKerning reports whether any pair of printable ASCII runes kerns.
func (f *Face) hasKerning() bool {
	for a := rune(0x21); a < 0x7f; a++ {
		for b := rune(0x21); b < 0x7f; b++ {
			if f.kernPair(f.latin[a].index, f.latin[b].index) != 0 {
				return true
			}
		}
	}
	return false
}

// kernPair returns the kerning between glyphs a and b in whole pixels.
func (f *Face) kernPair(a, b sfnt.GlyphIndex) float32 {
	k, err := f.sf.Kern(&f.buf, a, b, f.ppem, font.HintingFull)
	if err != nil {
		return 0
	}
	return float32(k.Round())
}

// Size returns the em size in pixels the face was made at.
func (f *Face) Size() float64 { return f.size }

// Ascent returns how far the tallest glyphs reach above the baseline, in
// pixels.
func (f *Face) Ascent() float32 { return f.ascent }

// Descent returns how far glyphs reach below the baseline, in pixels, a
// positive number.
func (f *Face) Descent() float32 { return f.descent }

// LineHeight returns the distance from one line's baseline to the next
// one's, in pixels: the font's recommended line spacing.
func (f *Face) LineHeight() float32 { return f.lineHeight }

// Advance returns how far the pen moves after rune r, in pixels, kerning
// aside. It rasterizes nothing.
func (f *Face) Advance(r rune) float32 { return f.advance(r) }

// advance is the advance of r without rasterizing it when it is new.
func (f *Face) advance(r rune) float32 {
	if r >= 0 && r < 256 && f.latin[r].ok {
		return f.latin[r].adv
	}
	if g := f.more[r]; g != nil {
		return g.adv
	}
	a, _ := f.ot.GlyphAdvance(r)
	return float32(a.Round())
}

// metrics returns the advance and glyph index of r without rasterizing
// it when it is new.
func (f *Face) metrics(r rune) (adv float32, idx sfnt.GlyphIndex) {
	if r >= 0 && r < 256 && f.latin[r].ok {
		return f.latin[r].adv, f.latin[r].index
	}
	if g := f.more[r]; g != nil {
		return g.adv, g.index
	}
	a, _ := f.ot.GlyphAdvance(r)
	i, _ := f.sf.GlyphIndex(&f.buf, r)
	return float32(a.Round()), i
}

// index is the glyph index of r, for kerning, without rasterizing it.
func (f *Face) index(r rune) sfnt.GlyphIndex {
	if r >= 0 && r < 256 && f.latin[r].ok {
		return f.latin[r].index
	}
	if g := f.more[r]; g != nil {
		return g.index
	}
	i, _ := f.sf.GlyphIndex(&f.buf, r)
	return i
}

// Close frees the face's atlas space, as Delete does, and returns nil: a
// Face is an io.Closer, like the x/image font.Face it wraps. A game that
// rescales its UI makes a face per size and closes the old one; its
// glyphs' space is reused by the next face, and a page left empty is
// deleted (one spare page per filter is kept).
func (f *Face) Close() error {
	f.Delete()
	return nil
}

// Delete frees the face's atlas space; later draws with it panic (Measure
// still works). Call it between frames and before the renderer's Close
// (which frees the atlas whole); calling it again does nothing. Without
// it, a face's space is held until the renderer closes: faces are not
// freed by the garbage collector.
func (f *Face) Delete() {
	if f.atlas == nil {
		return
	}
	f.sheet.Delete()
	for i := range f.extras {
		f.extras[i].Delete()
	}
	f.extras, f.more, f.notdef, f.atlas = nil, nil, nil, nil
}
