//go:build cgo

package gfx

import (
	"fmt"
	"image/color"
	"math"
	"strings"
	"testing"
)

// textHUD draws a frame of sprites with a four-line HUD of numbers that change
// every frame, drawn between the sprites and over a panel (a rect).
type textHUD struct {
	face        *Face
	sprite      Texture
	buf         TextBuffer
	frame       int64
	withText    bool
	lastDrawn   FrameStats
	lastSprites int
}

func (h *textHUD) draw(r *Renderer) {
	h.frame++
	r.BeginFrame(160, 120, Black)
	for i := range 20 {
		r.Draw(h.sprite, Sprite{X: float32(8 * i), Y: 100, W: 8, H: 8, Color: White})
	}
	if h.withText {
		r.Rect(40, 30, 80, 60, 0, RGBA(0, 0, 0, 0.5))
		fps := 60 - float64(h.frame%7)*0.13
		h.buf.Reset().AppendString("score ").AppendInt(h.frame * 1234567)
		r.DrawTextBytes(h.face, 4, 60, h.buf.Bytes(), White, 0)
		h.buf.Reset().AppendString("fps ").AppendFixed(fps, 2)
		r.DrawTextBytes(h.face, 4, 60-h.face.LineHeight(), h.buf.Bytes(), White, 0)
		h.buf.Reset().AppendString("x ").AppendFixed(-float64(h.frame)/3, 3).AppendString(" y ").AppendInt(-h.frame)
		r.DrawTextBytes(h.face, 4, 60-2*h.face.LineHeight(), h.buf.Bytes(), White, 0)
		h.buf.Reset().AppendString("tick ").AppendInt(h.frame).AppendString(" · ").AppendFixed(math.Pi*float64(h.frame), 1)
		r.DrawTextBytes(h.face, 156, 80, h.buf.Bytes(), RGBA(1, 0.8, 0.2, 1), AlignRight|AlignBaseline)
	}
	for i := range 20 {
		r.Draw(h.sprite, Sprite{X: float32(8 * i), Y: 90, W: 8, H: 8, Color: White})
	}
	h.lastDrawn = r.EndFrame()
}

// TestTextHUD: a HUD of four lines of text whose numbers change every
// frame, drawn between sprites of a texture of the face's filter, adds no
// draw call (the glyphs share the sprites' atlas page; the brief allows
// one) and allocates nothing once warm, for either filter.
func TestTextHUD(t *testing.T) {
	openWindow(t, WindowConfig{Width: 160, Height: 120})
	for _, filter := range []Filter{Nearest, Linear} {
		var plain, withText FrameStats
		var allocs float64
		withFace(t, FaceConfig{Size: 14, Filter: filter}, func(r *Renderer, f *Face) error {
			tex, err := r.TextureFromImage(solid(8, 8, color.NRGBA{200, 100, 50, 255}), filter)
			if err != nil {
				return err
			}
			h := &textHUD{face: f, sprite: tex}
			h.draw(r)
			plain = h.lastDrawn
			h.withText = true
			for range 5 {
				h.draw(r)
			}
			withText = h.lastDrawn
			allocs = testing.AllocsPerRun(100, func() { h.draw(r) })
			return nil
		})
		if withText.DrawCalls > plain.DrawCalls+1 {
			t.Errorf("filter %d: sprites drew in %d calls, with the HUD %d: more than one more", filter, plain.DrawCalls, withText.DrawCalls)
		}
		if withText.DrawCalls != 1 {
			t.Errorf("filter %d: HUD frame in %d draw calls, want 1 (glyphs on the sprites' page)", filter, withText.DrawCalls)
		}
		if withText.Sprites < plain.Sprites+40 {
			t.Errorf("filter %d: %d sprites with the HUD, %d without: the text was not drawn", filter, withText.Sprites, plain.Sprites)
		}
		if allocs != 0 {
			t.Errorf("filter %d: a HUD frame allocates %v times, want 0", filter, allocs)
		}
	}
}

// TestTextFirstUse: a rune beyond Latin-1 is rasterized on first use (that
// frame may allocate), then drawn without allocating; runes the font lacks
// share one missing-glyph box, which has ink.
func TestTextFirstUse(t *testing.T) {
	openWindow(t, WindowConfig{Width: 64, Height: 64})
	withFace(t, FaceConfig{}, func(r *Renderer, f *Face) error {
		frame := func(s string) FrameStats {
			r.BeginFrame(64, 64, Black)
			r.DrawText(f, 0, 64, s, White, 0)
			return r.EndFrame()
		}
		frame("Ωμέγα")
		if f.more['Ω'] == nil || !f.more['Ω'].ink {
			t.Errorf("Ω not rasterized on first use")
		}
		if a := testing.AllocsPerRun(20, func() { frame("Ωμέγα") }); a != 0 {
			t.Errorf("drawing rasterized Greek allocates %v times", a)
		}
		frame("一丁") // CJK: not in Go Regular
		a, b := f.more['一'], f.more['丁']
		if a == nil || a != b || a != f.notdef || !a.ink || a.index != 0 {
			t.Errorf("missing runes: %p %p, notdef %p", a, b, f.notdef)
		}
		if got := frame("一"); got.Sprites != 1 {
			t.Errorf("missing rune drew %d sprites, want its box", got.Sprites)
		}
		if got := frame("\xff"); got.Sprites != 1 || f.more[0xFFFD] == nil {
			t.Errorf("invalid UTF-8 drew %d sprites, want U+FFFD", got.Sprites)
		}
		return nil
	})
}

// TestFaceLifetime: a face's atlas space comes back on Delete (the page it
// made is released), Delete twice is harmless, drawing a deleted face
// panics, and after the renderer's Close no GL object is left, faces
// never deleted included.
func TestFaceLifetime(t *testing.T) {
	openWindow(t, WindowConfig{Width: 64, Height: 64})
	var before, after int
	onMain(func() { before = LiveObjects() })
	err := withRenderer(func(r *Renderer) error {
		pages := r.Pages()
		f, err := r.NewFace(FaceConfig{Size: 24})
		if err != nil {
			return err
		}
		r.BeginFrame(64, 64, Black)
		r.DrawText(f, 0, 64, "Ωx€", White, 0)
		r.EndFrame()
		if r.Pages() != pages+1 {
			t.Errorf("%d pages with a nearest face, want %d", r.Pages(), pages+1)
		}
		f.Delete()
		f.Delete()
		// The nearest page is empty: kept as the spare page of its filter.
		var spare *page
		for _, p := range r.atlas.pages {
			if p.filter == Nearest {
				spare = p
			}
		}
		if spare == nil || spare.live != 0 {
			t.Errorf("after Delete, the face's page holds %+v", spare)
		}
		panicked := func() (p bool) {
			defer func() { p = recover() != nil }()
			r.DrawText(f, 0, 0, "x", White, 0)
			return false
		}()
		if !panicked {
			t.Errorf("DrawText with a deleted face did not panic")
		}
		// Faces left to Close: one with a texture of its own per rune.
		g, err := r.NewFace(FaceConfig{Size: 40, Filter: Linear})
		if err != nil {
			return err
		}
		r.BeginFrame(64, 64, Black)
		r.DrawText(g, 0, 64, strings.Repeat("Ωψ€", 3), White, 0)
		r.EndFrame()
		if _, err := r.NewFace(FaceConfig{Font: MonoFont()}); err != nil {
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	onMain(func() { after = LiveObjects() })
	if after != before {
		t.Errorf("%d GL objects live after Close, %d before the renderer", after, before)
	}
}

// TestNewFaceErrors: a bad config is refused with the field and value
// named, and leaves no atlas page behind.
func TestNewFaceErrors(t *testing.T) {
	openWindow(t, WindowConfig{Width: 64, Height: 64})
	withRenderer(func(r *Renderer) error {
		pages := r.Pages()
		for _, c := range []struct {
			cfg  FaceConfig
			want string
		}{
			{FaceConfig{Size: -1}, "FaceConfig.Size -1"},
			{FaceConfig{Size: 1000}, "FaceConfig.Size 1000"},
			{FaceConfig{Size: math.NaN()}, "FaceConfig.Size NaN"},
			{FaceConfig{Filter: 7}, "FaceConfig.Filter 7"},
		} {
			if _, err := r.NewFace(c.cfg); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("NewFace(%+v): %v, want an error naming %q", c.cfg, err, c.want)
			}
		}
		if r.Pages() != pages {
			t.Errorf("refused faces left %d pages, want %d", r.Pages(), pages)
		}
		return nil
	})
	if _, err := ParseFont([]byte("not a font")); err == nil {
		t.Errorf("ParseFont of junk: no error")
	}
	if n := DefaultFont().Name(); n != "Go Regular" {
		t.Errorf("DefaultFont is %q", n)
	}
}

// BenchmarkDrawText is one frame of 40 sprites at 160×120, without and
// with the four-line HUD of changing numbers between them: format, queue,
// one instanced draw, and a wait for the rasterizer (glFinish).
func BenchmarkDrawText(b *testing.B) {
	for _, withText := range []bool{false, true} {
		name := "sprites"
		if withText {
			name = "sprites+hud"
		}
		b.Run(name, func(b *testing.B) {
			benchFrames(b, func(r *Renderer) (func(), func(), error) {
				f, err := r.NewFace(FaceConfig{Size: 14})
				if err != nil {
					return nil, nil, err
				}
				tex, err := r.TextureFromImage(solid(8, 8, color.NRGBA{200, 100, 50, 255}), Nearest)
				if err != nil {
					return nil, nil, err
				}
				h := &textHUD{face: f, sprite: tex, withText: withText}
				return func() { h.draw(r) }, nil, nil
			})
		})
	}
}

// BenchmarkNewFace is the load-time cost of a face: rasterizing Latin-1
// and uploading it.
func BenchmarkNewFace(b *testing.B) {
	openBenchWindow(b)
	for _, size := range []float64{16, 48} {
		b.Run(fmt.Sprint(size), func(b *testing.B) {
			var err error
			onMain(func() {
				var r *Renderer
				if r, err = NewRenderer(testConfig()); err != nil {
					return
				}
				defer r.Close()
				b.ReportAllocs()
				for b.Loop() {
					var f *Face
					if f, err = r.NewFace(FaceConfig{Size: size}); err != nil {
						return
					}
					f.Delete()
				}
			})
			if err != nil {
				b.Fatal(err)
			}
		})
	}
}

// BenchmarkDrawTextQueue is the CPU cost of one 20-glyph line of DrawText:
// the glyph look-ups and the instances queued, without the draw.
func BenchmarkDrawTextQueue(b *testing.B) {
	openBenchWindow(b)
	var err error
	onMain(func() {
		var r *Renderer
		if r, err = NewRenderer(testConfig()); err != nil {
			return
		}
		defer r.Close()
		var f *Face
		if f, err = r.NewFace(FaceConfig{}); err != nil {
			return
		}
		r.BeginFrame(800, 600, Black)
		b.ReportAllocs()
		for b.Loop() {
			r.DrawText(f, 400, 300, "score 1234567 fps 60", White, AlignCenter|AlignMiddle)
			r.sprites.n = 0
		}
		r.EndFrame()
	})
	if err != nil {
		b.Fatal(err)
	}
}
