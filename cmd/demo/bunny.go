package main

import (
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/fixstep/fixstep/engine"
	"github.com/fixstep/fixstep/gfx"
)

// The sprites benchmark ("bunnymark"): N sprites of 32×32 premultiplied RGBA
// bouncing in an 800×600 window, through the real loop at 60 TPS with an
// interpolated draw, vsync off and no pacing. It is the scene of the plain
// instanced program (bench/bunnymark-gl) and of the Ebitengine comparison.
const (
	benchW, benchH = 800, 600
	bunnySize      = 32
	benchWarmup    = time.Second
	benchMeasure   = 3 * time.Second
)

type bunny struct{ x, y, px, py, vx, vy float32 }

type bunnymark struct {
	win     *gfx.Window
	r       *gfx.Renderer
	tex     []gfx.Texture // sprite i draws tex[i%len(tex)]
	bunnies []bunny
	rng     *rand.Rand

	start     time.Duration // real time of the first frame
	intervals []time.Duration
}

// newBunnies places n sprites as the classic bunnymark does: from the top
// left corner with random speeds, from a fixed seed.
func newBunnies(n int, seed uint64) ([]bunny, *rand.Rand) {
	rng := rand.New(rand.NewPCG(seed, seed))
	b := make([]bunny, n)
	for i := range b {
		b[i] = bunny{vx: rng.Float32() * 10, vy: rng.Float32()*10 - 5}
	}
	return b, rng
}

// stepBunnies moves the sprites one tick, in y-down screen coordinates.
func stepBunnies(b []bunny, rng *rand.Rand) {
	for i := range b {
		s := &b[i]
		s.px, s.py = s.x, s.y
		s.x += s.vx
		s.y += s.vy
		s.vy += 0.75
		switch {
		case s.x > benchW-bunnySize:
			s.vx, s.x = -s.vx, benchW-bunnySize
		case s.x < 0:
			s.vx, s.x = -s.vx, 0
		}
		switch {
		case s.y > benchH-bunnySize:
			s.vy *= -0.85
			s.y = benchH - bunnySize
			if rng.Float32() < 0.5 {
				s.vy -= rng.Float32() * 6
			}
		case s.y < 0:
			s.vy, s.y = 0, 0
		}
	}
}

func (m *bunnymark) Update(engine.Tick) error {
	stepBunnies(m.bunnies, m.rng)
	return nil
}

func (m *bunnymark) Draw(f engine.Frame) {
	r := m.r
	r.BeginFrame(benchW, benchH, gfx.Black)
	a := float32(f.Alpha)
	for i := range m.bunnies {
		b := &m.bunnies[i]
		x := b.px + (b.x-b.px)*a + bunnySize/2
		y := b.py + (b.y-b.py)*a + bunnySize/2
		r.Draw(m.tex[i%len(m.tex)], gfx.Sprite{X: x, Y: benchH - y, W: bunnySize, H: bunnySize, Color: gfx.White})
	}
	r.EndFrame()
}

func (m *bunnymark) End(s *engine.Stats) error {
	if m.start == 0 {
		m.start = s.Elapsed
	}
	t := s.Elapsed - m.start
	switch {
	case t < benchWarmup:
	case t < benchWarmup+benchMeasure:
		m.intervals = append(m.intervals, s.Interval)
	default:
		return engine.ErrStopped
	}
	return nil
}

// benchResult is the RESULT line every implementation of the benchmark
// prints last.
func benchResult(w io.Writer, name string, n, textures int, intervals []time.Duration) {
	if len(intervals) == 0 {
		fmt.Fprintf(w, "RESULT name=%s n=%d textures=%d frames=0 ms_per_frame_median=NaN fps=0\n", name, n, textures)
		return
	}
	s := slices.Clone(intervals)
	slices.Sort(s)
	med := float64(s[len(s)/2]) / 1e6
	fmt.Fprintf(w, "RESULT name=%s n=%d textures=%d frames=%d ms_per_frame_median=%.3f fps=%.1f\n", name, n, textures, len(s), med, 1000/med)
}

func runBunnymark(o options, stdout io.Writer, w *watcher) error {
	win, err := gfx.NewWindow(gfx.WindowConfig{Title: "fixstep bunnymark", Width: benchW, Height: benchH,
		Vsync: gfx.VsyncOff, Unpaced: true})
	if err != nil {
		return err
	}
	defer win.Close()
	r, err := gfx.NewRenderer()
	if err != nil {
		return err
	}
	defer r.Close()
	// The sprites: opaque discs with a soft edge on a transparent square,
	// so blending does real work (the same pixels as bench/bunnymark-gl's),
	// one color per texture.
	m := &bunnymark{win: win, r: r, intervals: make([]time.Duration, 0, 1<<16)}
	for k := range o.textures {
		img := &image.RGBA{Pix: discPixels(bunnySize, bunnyColor(k)), Stride: 4 * bunnySize, Rect: image.Rect(0, 0, bunnySize, bunnySize)}
		t, err := r.TextureFromImage(img, gfx.Nearest)
		if err != nil {
			return err
		}
		defer t.Delete()
		m.tex = append(m.tex, t)
	}
	m.bunnies, m.rng = newBunnies(o.n, o.seed)
	loop, err := engine.NewLoop(engine.Config{TPS: 60}, win, m)
	if err != nil {
		return err
	}
	w.watch(loop)
	if err := loop.Run(context.Background()); !errors.Is(err, engine.ErrStopped) {
		return err
	}
	benchResult(stdout, "fixstep", o.n, o.textures, m.intervals)
	return nil
}

// bunnyColor is texture k's color: the classic pink first, then hues around
// the wheel. bench/bunnymark-gl and bench/bunnymark-ebiten use the same.
func bunnyColor(k int) [3]byte {
	if k == 0 {
		return [3]byte{230, 180, 200}
	}
	return [3]byte{byte(80 + 37*k%176), byte(80 + 71*k%176), byte(80 + 113*k%176)}
}

// discPixels returns an n×n premultiplied RGBA image: a disc of color c
// with a one-pixel soft edge on a transparent square.
func discPixels(n int, c [3]byte) []byte {
	pix := make([]byte, 4*n*n)
	r := float64(n)/2 - 0.5 // the center, and the radius
	for y := range n {
		for x := range n {
			a := min(max(r-math.Hypot(float64(x)-r, float64(y)-r), 0), 1)
			o := 4 * (y*n + x)
			pix[o], pix[o+1], pix[o+2], pix[o+3] = byte(float64(c[0])*a), byte(float64(c[1])*a), byte(float64(c[2])*a), byte(255*a)
		}
	}
	return pix
}
