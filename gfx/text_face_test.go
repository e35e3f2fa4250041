//go:build cgo

package gfx

import (
	"io"
	"testing"
)

// A Face is an io.Closer.
var _ io.Closer = (*Face)(nil)

// TestFacesChurn: a game that rescales its UI makes a face per size and
// drops the old one. 1,200 faces of 8 to 40 pixels, each drawn with a rune
// beyond Latin-1 (a texture of its own) and then closed (or deleted),
// twice, leave the atlas with the pages and the GL objects it started
// with, and take no page beyond those; a closed face still measures, and
// drawing with it panics.
func TestFacesChurn(t *testing.T) {
	openWindow(t, WindowConfig{Width: 64, Height: 64})
	var before, after int
	onMain(func() { before = LiveObjects() })
	err := withRenderer(func(r *Renderer) error {
		warm, err := r.NewFace(FaceConfig{Size: 8}) // makes the nearest spare page
		if err != nil {
			return err
		}
		warm.Delete()
		pages, objects, most := r.Pages(), objectsBesideStreams(r), 0
		for i := range 1200 {
			f, err := r.NewFace(FaceConfig{Size: float64(8 + i%33)})
			if err != nil {
				return err
			}
			r.BeginFrame(64, 64, Black)
			r.DrawText(f, 0, 64, "Ωx€", White, 0)
			r.EndFrame()
			most = max(most, r.Pages())
			if i%2 == 0 {
				f.Delete()
				f.Delete()
				continue
			}
			w, _ := f.Measure("Ωx€")
			if err := f.Close(); err != nil {
				return err
			}
			if err := f.Close(); err != nil {
				return err
			}
			if w2, _ := f.Measure("Ωx€"); w2 != w || w == 0 {
				t.Errorf("face %d measures %v after Close, %v before", i, w2, w)
			}
			if i == 1 {
				func() {
					defer func() {
						if msg := recover(); msg != "gfx: DrawText with a deleted Face or one of another renderer" {
							t.Errorf("DrawText with a closed face: recovered %v", msg)
						}
					}()
					r.DrawText(f, 0, 0, "x", White, 0)
				}()
			}
		}
		if r.Pages() != pages || objectsBesideStreams(r) != objects {
			t.Errorf("after 1,200 faces made and deleted: %d pages and %d GL objects, want %d and %d", r.Pages(), objectsBesideStreams(r), pages, objects)
		}
		if most > pages {
			t.Errorf("the faces took up to %d pages, want %d: their space was not reused", most, pages)
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
