//go:build cgo

package gfx

import (
	"fmt"
	"image"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/gl/v3.3-core/gl"
	"github.com/go-gl/mathgl/mgl32"
)

// BenchmarkSprites is one frame of n moving 32×32 sprites at 800×600 with
// vsync off and no pacing: clear, queue, one instanced draw, and a wait for
// the rasterizer (glFinish), so the figure is the whole frame's cost.
func BenchmarkSprites(b *testing.B) {
	for _, n := range []int{0, 1000, 10000, 50000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			benchFrames(b, func(r *Renderer) (func(), func(), error) {
				pix := make([]byte, 32*32*4)
				for i := range pix {
					pix[i] = 255
				}
				tex, err := NewTexture(32, 32, pix, false)
				if err != nil {
					return nil, nil, err
				}
				rng := rand.New(rand.NewPCG(1, 1))
				pos := make([][2]float32, n)
				for i := range pos {
					pos[i] = [2]float32{rng.Float32() * 800, rng.Float32() * 600}
				}
				frame := func() {
					r.BeginFrame(800, 600, Black)
					for i := range pos {
						pos[i][0] = float32(int(pos[i][0]+1) % 800)
						r.Draw(tex, Sprite{X: pos[i][0], Y: pos[i][1], W: 32, H: 32, Color: White})
					}
					r.EndFrame()
				}
				return frame, tex.Delete, nil
			})
		})
	}
}

// benchFrames times the frames of a renderer on the main thread, in a
// window of the benchmark's own: setup makes what the frames draw and
// returns the frame, what deletes the setup's GL objects (or nil) and an
// error. One frame grows the batches to their steady size, then each timed
// frame is drawn, waited for (glFinish) and presented.
func benchFrames(b *testing.B, setup func(r *Renderer) (frame, done func(), err error)) {
	w := openBenchWindow(b)
	var err error
	onMain(func() {
		var r *Renderer
		if r, err = NewRenderer(testConfig()); err != nil {
			return
		}
		defer r.Close()
		frame, done, e := setup(r)
		if err = e; err != nil {
			return
		}
		if done != nil {
			defer done()
		}
		show := func() {
			frame()
			gl.Finish()
			w.Present()
		}
		show()
		b.ReportAllocs()
		for b.Loop() {
			show()
		}
	})
	if err != nil {
		b.Fatal(err)
	}
}

func openBenchWindow(b *testing.B) *Window {
	var w *Window
	var err error
	onMain(func() {
		w, err = NewWindow(WindowConfig{Width: 800, Height: 600, Vsync: VsyncOff, Unpaced: true, Hidden: true})
	})
	if err != nil {
		b.Skip(err)
	}
	b.Cleanup(func() { onMain(func() { w.Close() }) })
	return w
}

// BenchmarkPolygons is BenchmarkSprites with n moving octagons (a physics
// hull's most vertices) 32 pixels across instead of 32×32 sprites: one
// sincos and 8 vertices turned on the CPU per polygon, 18 vertices of 12
// bytes uploaded, one draw call, glFinish and swap.
func BenchmarkPolygons(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			benchFrames(b, func(r *Renderer) (func(), func(), error) {
				var hull [8]mgl32.Vec2
				for i := range hull {
					s, c := math.Sincos(2 * math.Pi * float64(i) / 8)
					hull[i] = mgl32.Vec2{float32(16 * c), float32(16 * s)}
				}
				rng := rand.New(rand.NewPCG(1, 1))
				pos := make([][3]float32, n)
				for i := range pos {
					pos[i] = [3]float32{rng.Float32() * 800, rng.Float32() * 600, rng.Float32() * 6}
				}
				frame := func() {
					r.BeginFrame(800, 600, Black)
					for i := range pos {
						pos[i][0] = float32(int(pos[i][0]+1) % 800)
						pos[i][2] += 0.01
						r.Polygon(pos[i][0], pos[i][1], pos[i][2], hull[:], White)
					}
					r.EndFrame()
				}
				return frame, nil, nil
			})
		})
	}
}

// BenchmarkSpriteFeed is the CPU's cost of feeding sprites to the GPU,
// in ns a sprite: n moving 32×32 sprites of k atlas textures (sprite i
// draws texture i%k), turned or not, queued and handed over in one
// frame, with the draw calls left out (RendererConfig.NoDraw) and no
// present, so neither the rasterizer nor the swap is counted. ns/sprite
// is wall time; cpu-ns/sprite the main thread's own CPU time (Linux),
// which other processes on a shared machine do not inflate.
func BenchmarkSpriteFeed(b *testing.B) {
	for _, c := range []struct {
		n, k   int
		turned bool
	}{{10000, 1, false}, {100000, 1, false}, {100000, 8, false}, {100000, 1, true}} {
		name := fmt.Sprintf("n=%d/textures=%d", c.n, c.k)
		if c.turned {
			name += "/turned"
		}
		b.Run(name, func(b *testing.B) {
			openBenchWindow(b)
			var err error
			onMain(func() {
				var r *Renderer
				if r, err = NewRenderer(RendererConfig{NoDraw: true}); err != nil {
					return
				}
				defer r.Close()
				tex := make([]Texture, c.k)
				for i := range tex {
					img := image.NewRGBA(image.Rect(0, 0, 32, 32))
					if tex[i], err = r.TextureFromImage(img, Nearest); err != nil {
						return
					}
				}
				// The sprites are made up front: the frame is the
				// renderer's work alone, Draw after Draw.
				rng := rand.New(rand.NewPCG(1, 1))
				type queued struct {
					tex Texture
					s   Sprite
				}
				sprites := make([]queued, c.n)
				for i := range sprites {
					q := &sprites[i]
					q.tex = tex[i%len(tex)]
					q.s = Sprite{X: rng.Float32() * 800, Y: rng.Float32() * 600, W: 32, H: 32, Color: White}
					if c.turned {
						q.s.Angle = rng.Float32() * 6
					}
				}
				frame := func() {
					r.BeginFrame(64, 64, Black)
					for i := range sprites {
						r.Draw(sprites[i].tex, sprites[i].s)
					}
					r.EndFrame()
				}
				frame()
				b.ReportAllocs()
				cpu0, ok := threadCPU()
				for b.Loop() {
					frame()
				}
				per := float64(b.N) * float64(c.n)
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/per, "ns/sprite")
				if cpu1, _ := threadCPU(); ok {
					b.ReportMetric(float64((cpu1-cpu0).Nanoseconds())/per, "cpu-ns/sprite")
				}
			})
			if err != nil {
				b.Fatal(err)
			}
		})
	}
}
