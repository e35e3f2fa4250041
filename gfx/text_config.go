package gfx

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

// MaxFaceSize is the largest FaceConfig.Size, in pixels: at 256 pixels a
// face's Latin-1 glyphs take about one 2048² atlas page.
const MaxFaceSize = 256

// FaceConfig says how Renderer.NewFace makes a face. The zero value is Go
// Regular at 16 pixels, sampled Nearest.
type FaceConfig struct {
	// Font is the font; nil means DefaultFont (Go Regular).
	Font *Font
	// Size is the em size in pixels (a 16-pixel face has capitals about 12
	// pixels tall); zero means 16. It may be fractional; at most
	// MaxFaceSize.
	Size float64
	// Filter is the glyphs' filter, and so the atlas pages they share with
	// sprites of the same filter. The zero value, Nearest, keeps text
	// crisp and pixel-exact under the pixel camera; Linear smooths text
	// that is scaled or moved by fractions of a pixel.
	Filter Filter
	// NoKerning turns kerning off: advances alone place the glyphs. Kerning
	// (the font's kern table or GPOS pair adjustments, rounded to whole
	// pixels) costs a table look-up per pair of glyphs; Go Regular and Go
	// Mono have no kerning.
	NoKerning bool
}
