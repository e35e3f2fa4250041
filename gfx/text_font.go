package gfx

import (
	"fmt"
	"sync"

	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
)

// MaxFontBytes is the largest font file ParseFont accepts: 32 MiB, more
// than any Latin, Greek or Cyrillic font and most CJK ones.
const MaxFontBytes = 32 << 20

// Font is a parsed TrueType or OpenType font file, of no size and tied to
// no renderer: Renderer.NewFace makes a drawable face of it at a pixel
// size. A Font is read only once parsed: one Font can make any number of
// faces, on any renderer, and is safe for concurrent use.
type Font struct {
	sf   *sfnt.Font
	name string // for errors
}

// ParseFont parses a TTF or OTF font (a font collection is not accepted:
// pick one of its fonts with sfnt.ParseCollection first and use its
// bytes). data must not change afterwards: the font reads its glyphs
// from it. A file over MaxFontBytes is refused before it is parsed.
func ParseFont(data []byte) (*Font, error) {
	if len(data) > MaxFontBytes {
		return nil, fmt.Errorf("gfx: font of %d bytes: more than MaxFontBytes (%d)", len(data), MaxFontBytes)
	}
	sf, err := opentype.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("gfx: parse font: %w", err)
	}
	name, _ := sf.Name(nil, sfnt.NameIDFull)
	return &Font{sf: sf, name: name}, nil
}

// DefaultFont returns Go Regular, the proportional sans-serif of the Go
// font family, compiled into the program from golang.org/x/image (about
// 135 KiB): the font of a FaceConfig whose Font is nil. It is parsed on
// the first call and shared after. The Go fonts are under a BSD-style
// licence, in gfx/fonts/LICENSE: a program that ships them reproduces it
// in its documentation.
func DefaultFont() *Font {
	regular.once.Do(func() { regular.font = mustParse(goregular.TTF) })
	return regular.font
}

// MonoFont returns Go Mono, the monospaced font of the Go family, compiled
// into the program from golang.org/x/image (about 170 KiB) only when a
// program calls it: for columns of numbers and text that must line up.
// Parsed once and licensed as DefaultFont.
func MonoFont() *Font {
	mono.once.Do(func() { mono.font = mustParse(gomono.TTF) })
	return mono.font
}

// regular and mono are the embedded fonts, parsed on first use: a Font is
// read only, so one parse serves every face on every thread. The data is
// referenced only from DefaultFont and MonoFont, so the linker drops a
// font no call reaches.
var regular, mono struct {
	once sync.Once
	font *Font
}

func mustParse(data []byte) *Font {
	f, err := ParseFont(data)
	if err != nil {
		panic(err) // the embedded fonts parse, or x/image is broken
	}
	return f
}

// Name returns the font's full name ("Go Regular"), or "" when the font
// does not say.
func (f *Font) Name() string { return f.name }
