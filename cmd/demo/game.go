package main

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/fixstep/fixstep/app"
	"github.com/fixstep/fixstep/cmd/demo/arena"
	"github.com/fixstep/fixstep/engine"
	"github.com/fixstep/fixstep/gfx"
	"github.com/fixstep/fixstep/input"
	"github.com/fixstep/fixstep/netplay"
	"github.com/fixstep/fixstep/physics"
)

// The runner's hooks the demo has: a signature that drifts from app's
// would leave a hook silently uncalled.
var (
	_ app.Attacher   = (*game)(nil)
	_ app.Starter    = (*game)(nil)
	_ app.Configurer = (*game)(nil)
	_ app.Opener     = (*game)(nil)
	_ app.Reporter   = (*game)(nil)
)

// game is the demo as package app runs it: the scene (package arena, the
// simulation) with what the demo adds around it: its flags, drawing, the
// overlay, the cube, the sounds and the hotkeys. A headless run has no
// window: no Open, no Draw.
type game struct {
	*arena.Scene
	flags   flags
	workers *physics.Workers // -workers', for the scene's world
	stderr  io.Writer
	sound   *sounds
	cube    gfx.Interpolated[gfx.Transform]
	glide   gfx.Glide   // eases rollbacks' and snaps' corrections out of Draw
	win     *gfx.Window // nil headless
	r       *gfx.Renderer
	keys    input.State // the devices: the window fills it
	overlay gfx.Overlay
	loop    *engine.Loop
	net     netplay.Match // the networked match, in any role; nil alone

	lastRollbackTicks uint64 // MatchStats.RollbackTicks at the last frame

	// Headless: the progress line every second (not with -ticks or
	// -replay), and -seconds on a real clock.
	headless, quiet  bool
	until, lastPrint time.Duration
	line             []byte // the progress line, formatted without allocating

	shots    int
	wantShot bool
	err      error // a screenshot or scaler error, reported at exit
	extra    []byte
	live     bool // the audio device was open, for the stats line

	scaler gfx.Scaler
	hull   [physics.MaxHullVertices]mgl32.Vec2 // a polygon's vertices as Draw hands them over
	loadOn bool                                // -load's work is on (L toggles)
	// hotSeen holds, for each of hotkeys, 1 + the frame's FirstTick when
	// Begin last acted on it.
	hotSeen [len(hotkeys)]uint64
}

// newGame makes the demo, before its flags are parsed; stderr gets its
// messages.
func newGame(stderr io.Writer) *game { return &game{stderr: stderr} }

// Start builds the scene for the run's players, from the flags (or a
// recording's parameters), before anything opens.
func (g *game) Start(players int) error {
	f := &g.flags
	bindings, err := loadBindings(f.bindings)
	if err != nil {
		return err
	}
	g.Scene, err = arena.NewMatch(f.n, f.seed, players, input.NewActions(&g.keys, bindings))
	if err != nil {
		return err
	}
	g.World.Workers = g.workers
	g.PanicAt = f.panicAt
	// Sound: counted from the start, played once the window has shown its
	// first frame (opening a device can take 100 ms or more; start-up does
	// not wait for it), counted only, headless.
	g.sound = newSounds(g.Scene, g.stderr)
	g.cube.Teleport(gfx.Identity())
	g.overlay.Visible = true
	g.loadOn = f.load > 0
	return nil
}

// Employ keeps the runner's workers (-workers) for the world Start builds.
func (g *game) Employ(w *physics.Workers) { g.workers = w }

// Load puts back a saved state, as the scene's Load, and tells the glide
// that the next frame draws a corrected world: every rollback and every
// snap to a server's state comes through here.
func (g *game) Load(src []byte) error {
	g.glide.Correct()
	return g.Scene.Load(src)
}

// Open keeps the window and the renderer for Draw.
func (g *game) Open(w *gfx.Window, r *gfx.Renderer) error {
	g.win, g.r = w, r
	return nil
}

// Close frees what the demo made on the renderer and the audio device,
// and returns a screenshot's or the scaler's error.
func (g *game) Close() error {
	g.scaler.Delete()
	g.live = g.sound.mixer.Live()
	g.sound.close()
	return g.err
}

// Attach keeps the loop and the networked match, for the overlay.
func (g *game) Attach(l *engine.Loop, m netplay.Match) { g.loop, g.net = l, m }

// Report is the demo's fields of the stats line: the bounces played (or,
// without an audio device, counted).
func (g *game) Report() string {
	m := g.sound.mixer
	return fmt.Sprintf(" sounds=%d sounds_dropped=%d audio=%v", m.Played, m.Dropped, g.live)
}

// SuspendChanged pauses the sound while the window is minimized.
func (g *game) SuspendChanged(on bool) { g.sound.mixer.Suspend(on) }

// QualityChanged applies a new quality level's knobs that live in the
// simulation side (the debris pool); the rendering knobs are read each
// frame from Frame.Quality.
func (g *game) QualityChanged(level int) {
	g.Debris.Limit = knobsAt(level).debris
}

// Update adds the cube to the scene's tick. Like the scene's, it reads no
// device: the hotkeys are Begin's.
func (g *game) Update(t engine.Tick) error {
	if err := g.Scene.Update(t); err != nil || t.Rerun {
		return err
	}
	// The cube turns a quarter turn per second about a tilted axis: drawn,
	// never simulated, so math and float32 are fine here.
	c := g.cube.Current()
	c.Rot = mgl32.QuatRotate(float32(math.Pi/2*t.DtSeconds()), mgl32.Vec3{0.3, 1, 0.2}.Normalize()).Mul(c.Rot).Normalize()
	g.cube.Set(c)
	return nil
}

// hotkeys are the keys Begin reads: the demo's own, never the game's
// input.
var hotkeys = [...]input.Key{input.KeyEscape, input.KeyF3, input.KeyF12, input.KeyL}

// hotkey reports whether k was pressed since f's last Begin: a press
// counts once, though its edge lasts until the next tick ends (the window
// clears edges after each tick) and a frame may run no tick.
func (g *game) hotkey(f engine.Frame, i int) bool {
	if !g.keys.Pressed(hotkeys[i]) || g.hotSeen[i] == f.FirstTick+1 {
		return false
	}
	g.hotSeen[i] = f.FirstTick + 1 // no tick has ended since: the same press
	return true
}

// Begin reads the demo's hotkeys, once per frame before the updates:
// Escape quits, F3 toggles the overlay, F12 saves a screenshot, L toggles
// -load's work. Then it builds the overlay's input line: the keys held
// and the last action edge.
func (g *game) Begin(f engine.Frame) error {
	if g.win == nil {
		return nil // headless: no keys, no overlay
	}
	if g.hotkey(f, 0) {
		return engine.ErrStopped
	}
	if g.hotkey(f, 1) {
		g.overlay.Visible = !g.overlay.Visible
	}
	if g.hotkey(f, 2) {
		g.wantShot = true
	}
	if g.hotkey(f, 3) && g.flags.load > 0 {
		g.loadOn = !g.loadOn
	}
	b := append(g.extra[:0], "keys"...)
	for k := input.Key(0); k < input.NumKeys; k++ {
		if g.keys.Down(k) {
			b = append(b, ' ')
			b = append(b, k.String()...)
		}
	}
	b = append(b, "\nlast "...)
	b = append(b, g.LastEdge...)
	s := g.loop.Stats()
	k := knobsAt(s.Quality)
	b = append(b, "\nquality "...)
	b = strconv.AppendInt(b, int64(s.Quality), 10)
	b = append(b, " scale "...)
	b = strconv.AppendInt(b, int64(k.scale*100+0.5), 10)
	b = append(b, "% msaa "...)
	b = strconv.AppendInt(b, int64(k.msaa), 10)
	b = append(b, "x gpu "...)
	b = strconv.AppendFloat(b, float64(s.GPUTime)/1e6, 'f', 2, 64)
	b = append(b, "ms\n  last change: "...)
	b = append(b, s.QualityReason.String()...)
	b = append(b, "\nheap/frame "...)
	b = strconv.AppendUint(b, s.Runtime.FrameAllocBytes, 10)
	b = append(b, "B gc "...)
	b = strconv.AppendUint(b, s.Runtime.GCCycles, 10)
	b = append(b, " pause "...)
	b = strconv.AppendFloat(b, float64(s.Runtime.GCPause)/1e6, 'f', 2, 64)
	b = append(b, "ms"...)
	if g.net != nil {
		b = g.appendNet(b)
	}
	if g.flags.load > 0 {
		b = append(b, "\nload "...)
		b = strconv.AppendFloat(b, float64(g.flags.load)/1e6, 'f', 1, 64)
		if g.loadOn {
			b = append(b, "ms on (L)"...)
		} else {
			b = append(b, "ms off (L)"...)
		}
	}
	g.extra = b
	return nil
}

// Draw renders the world at alpha between the last two ticks.
func (g *game) Draw(f engine.Frame) {
	w, h := g.win.DrawableSize()
	r := g.r
	k := knobsAt(f.Quality)
	rw, rh, err := g.scaler.Begin(w, h, k.scale, k.msaa)
	if err != nil {
		g.err = err
		rw, rh = w, h
	}
	r.BeginFrame(rw, rh, gfx.RGBA(0.07, 0.08, 0.11, 1))

	// Fit the arena to the window, keeping its aspect.
	aspect := float32(w) / float32(max(h, 1))
	cam := gfx.Camera2D{X: arena.Width / 2, Y: arena.Height / 2, Width: arena.Width + 1, Height: arena.Height + 1}
	if aspect > cam.Width/cam.Height {
		cam.Width = cam.Height * aspect
	} else {
		cam.Height = cam.Width / aspect
	}
	r.SetCamera(cam.Matrix())
	bodies := g.World.Bodies()
	g.glide.Frame(f)
	for i := range bodies {
		b := &bodies[i]
		p := g.drawn(i, f.Alpha)
		x, y := float32(p.X), float32(p.Y)
		a := float32(p.Angle) // along the shorter arc between the ticks
		switch {
		case b.Kind == physics.Static:
			r.Rect(x, y, float32(2*b.HalfW), float32(2*b.HalfH), a, gfx.RGBA(0.35, 0.38, 0.45, 1))
		case arena.PlayerOf(b.Tag) >= 0:
			p := arena.PlayerOf(b.Tag)
			if p == f.Local { // this machine's player has a white rim
				r.Rect(x, y, float32(2*b.HalfW)+0.16, float32(2*b.HalfH)+0.16, 0, gfx.White)
			}
			r.Rect(x, y, float32(2*b.HalfW), float32(2*b.HalfH), 0, playerColors[p])
		case b.Tag == arena.TagOscillator:
			r.Rect(x, y, float32(2*b.HalfW), float32(2*b.HalfH), a, gfx.RGBA(1, 0.85, 0.2, 1))
		case b.Shape == physics.Polygon: // below, in a run of their own
		case b.Shape == physics.Circle:
			rad := float32(b.Radius)
			r.Circle(x, y, rad, hue(b.Tag))
			// A spoke from the centre shows the ball roll.
			sin, cos := math.Sincos(float64(a))
			r.Rect(x+rad/2*float32(cos), y+rad/2*float32(sin), rad, rad/5, a, gfx.RGBA(0.1, 0.1, 0.15, 0.6))
		default:
			r.Rect(x, y, float32(2*b.HalfW), float32(2*b.HalfH), a, hue(b.Tag))
		}
	}

	// The hexagons after the rest, in one run: one draw call, where each
	// between two sprites would split their batch.
	for i := range bodies {
		b := &bodies[i]
		if b.Removed() || b.Shape != physics.Polygon {
			continue
		}
		p := g.drawn(i, f.Alpha)
		h := b.Hull
		for k := range h.Len() {
			vx, vy := h.Vertex(k).F32()
			g.hull[k] = mgl32.Vec2{vx, vy}
		}
		r.Polygon(float32(p.X), float32(p.Y), float32(p.Angle), g.hull[:h.Len()], hue(b.Tag))
	}

	// The cube, interpolated along the shortest arc.
	cube3 := gfx.Camera3D{Eye: mgl32.Vec3{0, 0, 6}}
	t := g.cube.At(f.Alpha)
	t.Pos = mgl32.Vec3{2.2 * aspect, 1.4, 0}
	t.Scale = mgl32.Vec3{0.9, 0.9, 0.9}
	r.DrawCube(cube3.Matrix(aspect), t.Mat4(), gfx.RGBA(0.55, 0.45, 1, 1))
	r.SetCamera(cam.Matrix())
	g.drawDebris(f.Alpha)
	r.Flush()
	g.scaler.End()
	r.SetTarget(w, h)

	g.overlay.Detail = k.graph
	g.overlay.Draw(r, g.loop.Stats(), gfx.OverlayInfo{
		TPS: g.loop.Timestep().TPS(), Vsync: g.win.Vsync(), State: g.win.State(), Extra: g.extra,
	})
	r.EndFrame()

	if g.loadOn {
		g.burn()
	}

	if g.wantShot { // F12; -screenshot is the runner's
		g.shots++
		g.wantShot = false
		g.loop.ExcludeFrame() // reading back and encoding a PNG allocates
		if err := r.Screenshot(fmt.Sprintf("fixstep-%d.png", g.shots), w, h); err != nil {
			g.err = err
		}
	}
}

// burn spins for the -load time: artificial work to watch the governor.
func (g *game) burn() {
	deadline := time.Now().Add(g.flags.load)
	for time.Now().Before(deadline) {
	}
}

// End opens the audio device after the first frame and feeds the
// overlay; headless, it prints the progress and stops after -seconds.
func (g *game) End(s *engine.Stats) error {
	if g.win == nil {
		return g.endHeadless(s)
	}
	if s.Frames == 1 {
		if err := g.sound.open(); err != nil {
			return err
		}
	}
	g.overlay.Record(s)
	return nil
}

// endHeadless prints the progress every second of game time (not with
// -ticks or -replay), and stops a real-clock run after -seconds.
func (g *game) endHeadless(s *engine.Stats) error {
	if !g.quiet && s.Sim-g.lastPrint >= time.Second {
		g.lastPrint = s.Sim
		g.line = appendProgress(g.line[:0], s, g.World.Body(g.Osc).Pos)
		g.stderr.Write(g.line)
	}
	if g.until > 0 && s.Sim >= g.until {
		return engine.ErrStopped
	}
	return nil
}

// appendProgress appends the headless progress line to b, times in
// seconds and milliseconds:
//
//	t=2.000s box=(0.123, 4.567) ticks=120 fps=60.0 p99=16.712ms dropped=0.000ms
//
// It allocates nothing once b has room: fmt's would, once a second, and
// the runtime counts a span's allocations when it flushes it (a GC), not
// when they are made, so even an excluded frame's garbage shows up in the
// steady state's allocs_per_frame.
func appendProgress(b []byte, s *engine.Stats, box physics.Vec2) []byte {
	b = appendNumber(b, "t=", s.Sim.Seconds(), 3)
	b = appendNumber(b, "s box=(", box.X, 3)
	b = appendNumber(b, ", ", box.Y, 3)
	b = strconv.AppendUint(append(b, ") ticks="...), s.Ticks, 10)
	b = appendNumber(b, " fps=", s.FPS, 1)
	b = appendNumber(b, " p99=", float64(s.FrameP99)/1e6, 3)
	b = appendNumber(b, "ms dropped=", float64(s.Dropped)/1e6, 3)
	return append(b, "ms\n"...)
}

// appendNumber appends label and v with prec decimals to b.
func appendNumber(b []byte, label string, v float64, prec int) []byte {
	return strconv.AppendFloat(append(b, label...), v, 'f', prec, 64)
}

// drawn returns where Draw shows body i at alpha between the last two
// ticks, with what is left of a correction's glide.
func (g *game) drawn(i int, alpha float64) gfx.Pose {
	b := &g.World.Bodies()[i]
	p := b.Lerp(alpha)
	at := gfx.Pose{X: p.X, Y: p.Y, Angle: b.LerpAngle(alpha)}
	motion := gfx.Pose{X: b.Pos.X - b.Prev.X, Y: b.Pos.Y - b.Prev.Y, Angle: b.Angle - b.PrevAngle}
	return g.glide.At(i, at, motion)
}

// drawDebris draws the particles alive, interpolated.
func (g *game) drawDebris(alpha float64) {
	d := &g.Debris
	for i := range d.P {
		p := &d.P[i]
		if p.Life <= 0 || i >= d.Limit {
			continue
		}
		x := p.Prev.X + (p.Pos.X-p.Prev.X)*alpha
		y := p.Prev.Y + (p.Pos.Y-p.Prev.Y)*alpha
		g.r.Rect(float32(x), float32(y), 0.1, 0.1, 0, hue(p.Tag))
	}
}

// playerColors are the players' boxes' colors: green, cyan, magenta,
// orange.
var playerColors = [arena.MaxPlayers]gfx.Color{
	gfx.RGBA(0.1, 0.8, 0.3, 1), gfx.RGBA(0.1, 0.7, 0.9, 1), gfx.RGBA(0.9, 0.2, 0.8, 1), gfx.RGBA(1, 0.55, 0.1, 1),
}

// hue returns a color for a bouncing body from its tag.
func hue(tag int32) gfx.Color {
	// Hues from orange through pink to blue: green is the player's.
	h := 0.5 + float64(tag%12)/12*0.6
	r, gr, b := hsv(h-math.Floor(h), 0.6, 0.95)
	return gfx.RGBA(r, gr, b, 1)
}

func hsv(h, s, v float64) (float32, float32, float32) {
	i := int(h * 6)
	f := h*6 - float64(i)
	p, q, t := v*(1-s), v*(1-s*f), v*(1-s*(1-f))
	var r, g, b float64
	switch i % 6 {
	case 0:
		r, g, b = v, t, p
	case 1:
		r, g, b = q, v, p
	case 2:
		r, g, b = p, v, t
	case 3:
		r, g, b = p, q, v
	case 4:
		r, g, b = t, p, v
	default:
		r, g, b = v, p, q
	}
	return float32(r), float32(g), float32(b)
}

// appendNet appends the overlay's netplay lines, in any role: the round
// trip, the rollbacks (the last frame's depth and the deepest), how far
// this machine runs ahead of where its time sync aims (a peer's frame
// advantage, a client's lead over its target, which the time sync brings
// to 0), and the ticks run on predictions.
func (g *game) appendNet(b []byte) []byte {
	st := g.net.MatchStats()
	b = append(b, "\nnet rtt "...)
	b = strconv.AppendFloat(b, float64(st.RTT)/1e6, 'f', 1, 64)
	b = append(b, "ms rollback "...)
	b = strconv.AppendInt(b, int64(st.RollbackTicks-g.lastRollbackTicks), 10)
	b = append(b, " max "...)
	b = strconv.AppendInt(b, int64(st.RollbackTicksMax), 10)
	b = append(b, "\n  advantage "...)
	b = strconv.AppendFloat(b, st.Ahead, 'f', 1, 64)
	b = append(b, " ticks scale "...)
	b = strconv.AppendFloat(b, st.TimeScale, 'f', 3, 64)
	b = append(b, " predicted "...)
	b = strconv.AppendUint(b, st.Predicted, 10)
	if !g.net.Running() {
		b = append(b, "\n  waiting for the others"...)
	}
	g.lastRollbackTicks = st.RollbackTicks
	return b
}
