//go:build cgo

package gfx

import (
	"fmt"
	"image"
	"math/rand/v2"
	"testing"
)

// benchRenderer runs f on the main thread with a renderer in a small
// hidden window, and fails b with the first error.
func benchRenderer(b *testing.B, f func(r *Renderer) error) {
	b.Helper()
	var w *Window
	var err error
	onMain(func() { w, err = NewWindow(WindowConfig{Width: 4, Height: 4, Hidden: true}) })
	if err != nil {
		b.Skip(err)
	}
	defer onMain(func() { w.Close() })
	if err := withRenderer(f); err != nil {
		b.Fatal(err)
	}
}

// opaque returns a w×h opaque white image.RGBA (no conversion on add).
func opaque(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	return img
}

// BenchmarkAtlasAdd adds a 12×12 Linear texture and deletes it again, with
// live other textures of mixed sizes (2 to 17 pixels a side, so freed and
// cut space is of many shapes) on the atlas. The cost of an add and a
// delete must not grow with the number of live textures.
func BenchmarkAtlasAdd(b *testing.B) {
	for _, n := range []int{100, 100000} {
		b.Run(fmt.Sprintf("live=%d", n), func(b *testing.B) {
			benchRenderer(b, func(r *Renderer) error {
				var sizes [16]*image.RGBA
				for i := range sizes {
					sizes[i] = opaque(2+i, 2+(i*7)%16)
				}
				rng := rand.New(rand.NewPCG(5, 6))
				live := make([]Texture, 0, n)
				for range n {
					t, err := r.TextureFromImage(sizes[rng.IntN(len(sizes))], Linear)
					if err != nil {
						return err
					}
					live = append(live, t)
				}
				// Free every third, so the pages have holes of many shapes.
				for i := 0; i < len(live); i += 3 {
					live[i].Delete()
				}
				img := opaque(12, 12)
				b.ResetTimer()
				for b.Loop() {
					t, err := r.TextureFromImage(img, Linear)
					if err != nil {
						return err
					}
					t.Delete()
				}
				b.StopTimer()
				b.ReportMetric(float64(r.Pages()), "pages")
				return nil
			})
		})
	}
}

// BenchmarkAtlasNearestChurn adds an 8×8 Nearest texture and deletes it,
// with no other Nearest texture alive: the page it goes to must be reused,
// not made and deleted every time.
func BenchmarkAtlasNearestChurn(b *testing.B) {
	benchRenderer(b, func(r *Renderer) error {
		img := opaque(8, 8)
		for b.Loop() {
			t, err := r.TextureFromImage(img, Nearest)
			if err != nil {
				return err
			}
			t.Delete()
		}
		return nil
	})
}
