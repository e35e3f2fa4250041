package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"image"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/fixstep/fixstep/app"
	"github.com/fixstep/fixstep/engine"
	"github.com/fixstep/fixstep/engine/profile"
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
	// The process's and the main thread's CPU time when the measured
	// frames began and ended.
	cpu0, cpu1, main0, main1 time.Duration
	cpuOK, mainOK            bool
	// The measured frames' waits for the GPU (gfx.FrameStats.GPUWait).
	measuring bool
	gpuWaits  int
	gpuWait   time.Duration
}

// newBunnies places n sprites as the classic bunnymark does: from the top
// left corner with random speeds, from a fixed seed.
//
//fixvet:sim
func newBunnies(n int, seed uint64) ([]bunny, *rand.Rand) {
	rng := rand.New(rand.NewPCG(seed, seed))
	b := make([]bunny, n)
	for i := range b {
		b[i] = bunny{vx: rng.Float32() * 10, vy: float32(rng.Float32()*10) - 5}
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
				s.vy -= float32(rng.Float32() * 6)
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
	k := 0 // i%len(m.tex), counted: a division a sprite costs more than Draw
	for i := range m.bunnies {
		b := &m.bunnies[i]
		x := b.px + (b.x-b.px)*a + bunnySize/2
		y := b.py + (b.y-b.py)*a + bunnySize/2
		r.Draw(m.tex[k], gfx.Sprite{X: x, Y: benchH - y, W: bunnySize, H: bunnySize, Color: gfx.White})
		if k++; k == len(m.tex) {
			k = 0
		}
	}
	if st := r.EndFrame(); m.measuring {
		m.gpuWaits += st.GPUWaits
		m.gpuWait += st.GPUWait
	}
}

func (m *bunnymark) End(s *engine.Stats) error {
	if m.start == 0 {
		m.start = s.Elapsed
	}
	t := s.Elapsed - m.start
	switch {
	case t < benchWarmup:
		m.cpu0, m.cpuOK = profile.ProcessCPU()
		m.main0, m.mainOK = profile.ThreadCPU()
	case t < benchWarmup+benchMeasure:
		m.intervals = append(m.intervals, s.Interval)
		m.measuring = true
	default:
		var ok, mainOK bool
		m.cpu1, ok = profile.ProcessCPU()
		m.main1, mainOK = profile.ThreadCPU()
		m.cpuOK, m.mainOK = m.cpuOK && ok, m.mainOK && mainOK
		return engine.ErrStopped
	}
	return nil
}

// cpuPerFrame returns the CPU time the measured frames took, on average,
// of the process (-1 when not measured) and of the main thread, which
// runs the loop and feeds the GPU (-1 when not measured).
func (m *bunnymark) cpuPerFrame() (process, main time.Duration) {
	process, main = -1, -1
	if n := time.Duration(len(m.intervals)); n > 0 {
		if m.cpuOK {
			process = (m.cpu1 - m.cpu0) / n
		}
		if m.mainOK {
			main = (m.main1 - m.main0) / n
		}
	}
	return process, main
}

// benchResult is the RESULT line every implementation of the benchmark
// prints last. fixstep's adds cpu_ms_per_frame, the process's CPU time
// (all its threads, a software rasterizer's included) over the measured
// frames divided by their number, and main_cpu_ms_per_frame, the main
// thread's (the loop, the drawing code and the feeding of the GPU), each
// when it is not negative.
func benchResult(w io.Writer, name string, n, textures int, intervals []time.Duration, cpu, mainCPU time.Duration) {
	extra := ""
	if cpu >= 0 {
		extra = fmt.Sprintf(" cpu_ms_per_frame=%.3f", float64(cpu)/1e6)
	}
	if mainCPU >= 0 {
		extra += fmt.Sprintf(" main_cpu_ms_per_frame=%.3f", float64(mainCPU)/1e6)
	}
	if len(intervals) == 0 {
		fmt.Fprintf(w, "RESULT name=%s n=%d textures=%d frames=0 ms_per_frame_median=NaN fps=0%s\n", name, n, textures, extra)
		return
	}
	s := slices.Clone(intervals)
	slices.Sort(s)
	med := float64(s[len(s)/2]) / 1e6
	fmt.Fprintf(w, "RESULT name=%s n=%d textures=%d frames=%d ms_per_frame_median=%.3f fps=%.1f%s\n", name, n, textures, len(s), med, 1000/med, extra)
}

// benchmark reports whether args ask for -bench: a mode of the demo's
// own, which main runs instead of the runner.
func benchmark(args []string) bool {
	for _, a := range args {
		if a == "--" {
			break
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "-") && name == "bench" {
			return true
		}
	}
	return false
}

// benchFlags are -bench's flags: the benchmark, its sprites and textures,
// the seed and the profiles.
type benchFlags struct {
	bench    string
	n        int
	textures int
	seed     uint64
	nodraw   bool
	stream   string
	profile  profile.Flags
}

// parseBench parses and checks -bench's flags.
func parseBench(args []string, stderr io.Writer) (benchFlags, error) {
	var b benchFlags
	fs := flag.NewFlagSet("demo -bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&b.bench, "bench", "", "the benchmark: sprites (800x600, vsync off, -n sprites)")
	fs.IntVar(&b.n, "n", 300, fmt.Sprintf("sprites, 0 to %d", maxSprites))
	fs.IntVar(&b.textures, "textures", 1, "sprite i uses texture i%K of K textures")
	fs.Uint64Var(&b.seed, "seed", 1, "random seed of the sprites")
	fs.BoolVar(&b.nodraw, "nodraw", false, "leave the draw calls out: the CPU's cost of feeding the GPU alone (gfx.RendererConfig.NoDraw)")
	fs.StringVar(&b.stream, "stream", "auto", "how sprites reach the GPU: auto, persistent, mapped or copied (gfx.Streaming)")
	b.profile.Register(fs)
	if err := fs.Parse(args); err != nil {
		return b, fmt.Errorf("-bench takes -n, -textures, -seed, -nodraw, -stream and the profiling flags: %w", err)
	}
	if _, err := gfx.ParseStreaming(b.stream); err != nil {
		return b, fmt.Errorf("-stream %q: want auto, persistent, mapped or copied", b.stream)
	}
	switch {
	case fs.NArg() > 0:
		return b, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	case b.bench != "sprites":
		return b, fmt.Errorf("-bench %q: the only benchmark is sprites", b.bench)
	case b.n < 0 || b.n > maxSprites:
		return b, fmt.Errorf("-n %d: want 0 to %d sprites", b.n, maxSprites)
	case b.textures < 1 || b.textures > 256:
		return b, fmt.Errorf("-textures %d: want 1 to 256", b.textures)
	}
	return b, nil
}

// bench runs -bench and returns its exit status, as app.Main does: sig,
// when not nil, stops it and is released at the end.
func bench(args []string, stdout, stderr io.Writer, sig *engine.Signals) int {
	err := runBench(args, stdout, stderr, sig)
	if sig != nil {
		if err == nil {
			err = sig.Err()
		}
		sig.Release()
	}
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(stderr, "demo:", err)
	}
	return app.ExitCode(err)
}

func runBench(args []string, stdout, stderr io.Writer, sig *engine.Signals) (err error) {
	o, err := parseBench(args, stderr)
	if err != nil {
		return err
	}
	prof, err := o.profile.Start()
	if err != nil {
		return err
	}
	started := false
	defer func() {
		if err != nil && !started {
			prof.Discard() // a failed start keeps an earlier run's profiles
			return
		}
		err = errors.Join(err, prof.Stop())
	}()
	win, err := gfx.NewWindow(gfx.WindowConfig{Title: "fixstep bunnymark", Width: benchW, Height: benchH,
		Vsync: gfx.VsyncOff, Unpaced: true})
	if err != nil {
		return err
	}
	defer win.Close()
	stream, _ := gfx.ParseStreaming(o.stream)
	r, err := gfx.NewRenderer(gfx.RendererConfig{NoDraw: o.nodraw, Streaming: stream})
	if err != nil {
		return err
	}
	defer r.Close()
	// Which GL this ran on: a figure from llvmpipe is not a GPU's.
	version, renderer := win.GLVersion()
	fmt.Fprintf(stdout, "GL_RENDERER=%q GL_VERSION=%q\n", renderer, version)
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
	if sig != nil {
		sig.Watch(loop)
	}
	started = true
	if err := loop.Run(context.Background()); !errors.Is(err, engine.ErrStopped) {
		return err
	}
	// The exit, timed: the textures, the renderer (which waits for the
	// GPU first, and says how long) and the window, in that order.
	exit := time.Now()
	for i := range m.tex {
		m.tex[i].Delete()
	}
	closeErr := r.Close()
	closeTotal, closeWait := r.CloseTime()
	win.Close()
	frames := time.Duration(max(len(m.intervals), 1))
	fmt.Fprintf(stdout, "EXIT stream=%s gpu_waits_per_frame=%.2f gpu_wait_ms_per_frame=%.3f renderer_close_ms=%.1f close_gpu_wait_ms=%.1f exit_ms=%.1f\n",
		r.Streaming(), float64(m.gpuWaits)/float64(frames), float64(m.gpuWait/frames)/1e6,
		float64(closeTotal)/1e6, float64(closeWait)/1e6, float64(time.Since(exit))/1e6)
	name := "fixstep"
	if o.nodraw {
		name = "fixstep-nodraw"
	}
	cpu, mainCPU := m.cpuPerFrame()
	benchResult(stdout, name, o.n, o.textures, m.intervals, cpu, mainCPU)
	return closeErr
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
