//go:build cgo

package gfx

import (
	"fmt"
	"image"
	"image/color"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/go-gl/gl/v3.3-core/gl"
)

// modes returns the streaming modes this context offers, in order.
func modes() []Streaming {
	var ms []Streaming
	onMain(func() {
		if persistentMapping() {
			ms = append(ms, StreamPersistent)
		}
	})
	return append(ms, StreamMapped, StreamCopied)
}

// TestStreamFences drives a stream of small parts through 2,000 windows of
// random sizes, in each streaming mode: every window lies in one part and
// holds what was asked; the part being written has no fence left (the
// GPU's reads of it were waited for); a part left behind has one; and what
// each commit hands over is in the buffer where commit says, read back from
// GL.
func TestStreamFences(t *testing.T) {
	openWindow(t, WindowConfig{Width: 16, Height: 16})
	for _, mode := range modes() {
		t.Run(mode.String(), func(t *testing.T) {
			var errs []string
			onMain(func() {
				const part = 16
				s := stream[uint32]{mode: mode, minPart: part, maxPart: part}
				defer s.drop()
				rng := rand.New(rand.NewPCG(2, 2))
				want := make(map[int]uint32)
				value := uint32(1)
				moves := 0
				for i := range 2000 {
					need := 1 + rng.IntN(part)
					before := s.cur
					moved := s.open(need)
					switch {
					case len(s.win) < need:
						errs = append(errs, fmt.Sprintf("window %d: %d elements, asked for %d", i, len(s.win), need))
					case s.head < s.cur*part || s.head+len(s.win) != (s.cur+1)*part:
						errs = append(errs, fmt.Sprintf("window %d: elements %d to %d, not the rest of part %d", i, s.head, s.head+len(s.win), s.cur))
					case s.fences[s.cur] != 0:
						errs = append(errs, fmt.Sprintf("window %d: part %d is written with its fence still set", i, s.cur))
					case moved && i > 0 && s.fences[before] == 0:
						errs = append(errs, fmt.Sprintf("window %d: part %d was left without a fence", i, before))
					}
					if moved {
						moves++
					}
					if len(errs) > 0 {
						return
					}
					n := rng.IntN(len(s.win) + 1)
					for j := range n {
						s.win[j] = value
						value++
					}
					s.n = n
					first, got := s.commit()
					for j := range got {
						want[first+j] = value - uint32(got) + uint32(j)
					}
					if i%100 == 99 {
						s.used = 0 // a steady size: no growth or shrink
					}
				}
				if moves < 100 {
					errs = append(errs, fmt.Sprintf("only %d moves between parts in 2,000 windows", moves))
				}
				// What the buffer holds now: each element's last write.
				buf := make([]uint32, streamParts*part)
				gl.BindBuffer(gl.COPY_READ_BUFFER, s.buf.id)
				if s.mode == StreamPersistent {
					gl.MemoryBarrier(gl.CLIENT_MAPPED_BUFFER_BARRIER_BIT)
				}
				gl.GetBufferSubData(gl.COPY_READ_BUFFER, 0, len(buf)*4, unsafe.Pointer(&buf[0]))
				for i, w := range want {
					if buf[i] != w {
						errs = append(errs, fmt.Sprintf("element %d holds %d, want %d", i, buf[i], w))
						break
					}
				}
			})
			for _, e := range errs {
				t.Error(e)
			}
		})
	}
}

// TestStreamGrowsAndShrinks: in each streaming mode, a frame that commits
// more than a part grows the part to hold it (at least doubling, at most
// maxPart), and shrinkFrames frames of little use shrink it to twice that
// use.
func TestStreamGrowsAndShrinks(t *testing.T) {
	openWindow(t, WindowConfig{Width: 16, Height: 16})
	want := []int{16, 40, 80, 256}
	for range shrinkFrames - 1 {
		want = append(want, 256)
	}
	want = append(want, 40)
	for _, mode := range modes() {
		var parts []int
		onMain(func() {
			s := stream[uint32]{mode: mode, minPart: 16, maxPart: 256, perFrame: true}
			defer s.drop()
			frame := func(n int) {
				for n > 0 {
					if s.n == len(s.win) {
						if s.win != nil {
							s.commit()
						}
						s.open(1)
					}
					k := min(n, len(s.win)-s.n)
					s.n += k
					n -= k
				}
				s.commit()
				s.endFrame()
				parts = append(parts, s.part)
			}
			frame(10)  // 16
			frame(40)  // 40: more than 16, at least twice
			frame(50)  // 80
			frame(500) // 256: the most
			for range shrinkFrames {
				frame(20) // 40 after shrinkFrames frames under a quarter
			}
		})
		if fmt.Sprint(parts) != fmt.Sprint(want) {
			t.Errorf("%v: parts after each frame: %v, want %v", mode, parts, want)
		}
	}
}

// TestRegionsAcrossParts: frames of 71,424 one-pixel sprites, each showing
// one texel of a 256-texel gradient through a texture region of its own
// (more regions than the region table's four parts hold), so the table
// moves through every part in a frame and grows; between them, one sprite
// of a region drawn before the flood (its cache entry untouched by the
// flood's) is drawn again, after the table has overwritten its entry; the
// second and third frames ask for the same regions again. Every pixel
// shows its texel, in every streaming mode: no sprite reads another's
// region, or a stale one.
func TestRegionsAcrossParts(t *testing.T) {
	const w, h = 256, 280
	openWindow(t, WindowConfig{Width: w, Height: h})
	grad := image.NewRGBA(image.Rect(0, 0, 256, 1))
	for x := range 256 {
		grad.SetRGBA(x, 0, color.RGBA{uint8(x), uint8(255 - x), uint8(x * 7), 255})
	}
	// uvs200 is the region of the last row's sprites: texel 200.
	uvs200 := func() (u0, u1 float32) {
		u0 = (200 + 0.25) / 256
		return u0, u0 + 0.1/256
	}
	// texel returns the texel the sprite at (px, py) shows.
	texel := func(px, py int) int {
		if py == h-1 {
			return 200 // the sprite drawn before and after the flood
		}
		return (px + 3*py) % 256
	}
	for _, mode := range modes() {
		t.Run(mode.String(), func(t *testing.T) {
			var bad []string
			var stamps uint64
			var cfgErr error
			onMain(func() {
				r, err := NewRenderer(RendererConfig{Streaming: mode})
				if err != nil {
					cfgErr = err
					return
				}
				defer r.Close()
				tex, err := r.TextureFromImage(grad, Nearest)
				if err != nil {
					cfgErr = err
					return
				}
				defer tex.Delete()
				// entry is the cache entry of a sprite's region, the page's
				// rectangle as Draw works it out.
				du, dv := tex.u1-tex.u0, tex.v1-tex.v0
				entry := func(u0, u1 float32) uint32 {
					return hashRegion(tex.u0+u0*du, tex.v0+0*dv, tex.u0+u1*du, tex.v0+1*dv)
				}
				// uvs returns the region of the sprite at (px, py): a range
				// inside its texel, different for every sprite of the
				// flood, none in the same cache entry as the last row's.
				uvs := func(px, py int) (u0, u1 float32) {
					k := float32(texel(px, py))
					frac := float32(0.25)
					if py < h-1 {
						frac += 0.5 * float32(py) / h
					}
					for {
						u0 = (k + frac) / 256
						u1 = u0 + 0.1/256
						if py == h-1 || entry(u0, u1) != entry(uvs200()) {
							return u0, u1
						}
						frac += 1e-4
					}
				}
				draw := func(px, py int) {
					u0, u1 := uvs(px, py)
					r.Draw(tex, Sprite{X: float32(px) + 0.5, Y: float32(py) + 0.5, W: 1, H: 1, Color: White, U0: u0, U1: u1, V0: 0, V1: 1})
				}
				for f := range 3 {
					r.BeginFrame(w, h, Black)
					draw(0, h-1)
					for py := range h - 1 {
						for px := range w {
							draw(px, py)
						}
					}
					for px := 1; px < w; px++ {
						draw(px, h-1)
					}
					r.EndFrame()
					img := r.ReadPixels(w, h)
					for py := range h {
						for px := range w {
							// ReadPixels' rows run top down; the sprites' y up.
							if got, want := img.RGBAAt(px, h-1-py), grad.RGBAAt(texel(px, py), 0); got != want {
								bad = append(bad, fmt.Sprintf("frame %d: pixel (%d, %d) is %v, want texel %d's %v", f, px, py, got, texel(px, py), want))
							}
						}
					}
				}
				stamps = r.regionCache.stamp
			})
			if cfgErr != nil {
				t.Fatal(cfgErr)
			}
			if len(bad) > 0 {
				t.Errorf("%d pixels wrong; the first: %v", len(bad), bad[:min(len(bad), 5)])
			}
			if stamps < 3*4 {
				t.Errorf("the region cache was cleared %d times in 3 frames of 71,680 regions: the table did not move through its parts", stamps-1)
			}
		})
	}
}

// TestStreamingModesDrawAlike: the golden scene, sprites of many textures
// turned at many angles, text and polygons draw the same pixels in every
// streaming mode, and the scene matches its golden image in each.
func TestStreamingModesDrawAlike(t *testing.T) {
	const w, h = 160, 120
	openWindow(t, WindowConfig{Width: w, Height: h})
	hull := regularPolygon(7, 9, 0.3)
	var first *image.RGBA
	for _, mode := range modes() {
		var scene, busy *image.RGBA
		var got Streaming
		err := withConfig(RendererConfig{Streaming: mode}, func(r *Renderer) error {
			got = r.Streaming()
			renderScene(r, w, h)
			scene = r.ReadPixels(w, h)
			var texs []Texture
			for k := range 5 {
				img := image.NewRGBA(image.Rect(0, 0, 6+k, 5))
				for i := range img.Pix {
					img.Pix[i] = uint8(40*k + i)
				}
				t, err := r.TextureFromImage(img, Filter(k%2))
				if err != nil {
					return err
				}
				texs = append(texs, t)
			}
			for range 3 { // the streams move on from frame to frame
				r.BeginFrame(w, h, Black)
				for i := range 3000 {
					r.Draw(texs[i%len(texs)], Sprite{X: float32(i % w), Y: float32(i * 7 % h), W: 9, H: 5, Angle: float32(i) * 0.37, Color: White})
					if i%500 == 0 {
						r.DebugText(2, float32(h-2-i/50), 1, []byte("streams 0123"), White)
						r.Polygon(float32(i%w), 60, float32(i), hull, RGBA(0.2, 0.6, 0.9, 0.7))
					}
				}
				r.EndFrame()
			}
			busy = r.ReadPixels(w, h)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if got != mode {
			t.Errorf("asked for %v streaming, got %v", mode, got)
		}
		checkGolden(t, "scene", scene)
		if first == nil {
			first = busy
		} else if d := differing(first, busy); d != 0 {
			t.Errorf("%v streaming: %d pixels differ from %v streaming's", mode, d, modes()[0])
		}
	}
}

// TestSlotRegionAfterReuse: a texture drawn (its atlas slot keeps its
// region), deleted, and its slot taken by a texture of another size and
// place: a sprite of the new texture shows the new texture's pixels, not
// the old one's region.
func TestSlotRegionAfterReuse(t *testing.T) {
	openWindow(t, WindowConfig{Width: 8, Height: 8})
	var got [2]color.RGBA
	var slots [2]int32
	err := withRenderer(func(r *Renderer) error {
		draw := func(tex Texture) color.RGBA {
			r.BeginFrame(8, 8, Black)
			r.Draw(tex, Sprite{X: 4, Y: 4, W: 8, H: 8, Color: White})
			r.EndFrame()
			return r.ReadPixels(8, 8).RGBAAt(4, 4)
		}
		red, err := r.TextureFromImage(solid(4, 4, color.NRGBA{255, 0, 0, 255}), Nearest)
		if err != nil {
			return err
		}
		slots[0] = red.slot
		got[0] = draw(red)
		red.Delete()
		blue, err := r.TextureFromImage(solid(6, 3, color.NRGBA{0, 0, 255, 255}), Nearest)
		if err != nil {
			return err
		}
		defer blue.Delete()
		slots[1] = blue.slot
		got[1] = draw(blue)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if slots[0] != slots[1] {
		t.Fatalf("the second texture took slot %d, not the first's %d: the test tests nothing", slots[1], slots[0])
	}
	if want := (color.RGBA{255, 0, 0, 255}); got[0] != want {
		t.Errorf("the first texture draws %v, want %v", got[0], want)
	}
	if want := (color.RGBA{0, 0, 255, 255}); got[1] != want {
		t.Errorf("the texture in the reused slot draws %v, want %v", got[1], want)
	}
}
