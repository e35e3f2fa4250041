//go:build cgo

package gfx

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"
	"unsafe"

	"github.com/go-gl/gl/v3.3-core/gl"
	"github.com/veandco/go-sdl2/sdl"

	"github.com/fixstep/fixstep/engine"
	"github.com/fixstep/fixstep/input"
)

// Available reports whether this build has a window and a renderer: false
// in a build without cgo, whose NewWindow and NewRenderer return ErrNoCgo.
const Available = true

// Window is an SDL window with an OpenGL 3.3 core context: the platform a
// windowed engine.Loop runs on. It implements engine.Platform,
// engine.Suspender and engine.TickEnder.
//
// SDL and GL calls must happen on the main OS thread: go-sdl2 locks it in
// its init, so make the window, run the loop and close the window from the
// main goroutine.
type Window struct {
	cfg    WindowConfig
	log    *slog.Logger
	win    *sdl.Window
	ctx    sdl.GLContext
	clock  engine.MonoClock
	pacer  engine.Pacer
	vsync  Vsync
	driver string

	state        WindowState
	stateChanges int
	disturbed    bool // a state or size change since Disturbed last ran
	focused      bool
	minimized    bool
	fullscreen   bool
	quit         bool

	winW, winH   int
	drawW, drawH int
	layout       Layout

	// Present timing, for the measured period and occlusion.
	lastPresent  time.Duration
	presents     presentTracker
	firstPresent time.Time

	in   *input.State
	pads padSet
}

// NewWindow opens a window and makes its GL 3.3 core context current. It
// fails with a clear error, never a panic, when there is no display, SDL
// cannot start, or the driver offers an OpenGL older than 3.3. Call it from
// the main goroutine.
func NewWindow(cfg WindowConfig) (*Window, error) {
	if cfg.Title == "" {
		cfg.Title = "fixstep"
	}
	if cfg.Width == 0 {
		cfg.Width = 1280
	}
	if cfg.Height == 0 {
		cfg.Height = 720
	}
	if cfg.Width < 0 || cfg.Height < 0 {
		return nil, fmt.Errorf("gfx: WindowConfig size %dx%d: must be positive", cfg.Width, cfg.Height)
	}
	if cfg.FPSCap < 0 {
		return nil, fmt.Errorf("gfx: WindowConfig.FPSCap = %v: must be positive (or zero for the refresh rate)", cfg.FPSCap)
	}
	if cfg.LogicalWidth < 0 || cfg.LogicalHeight < 0 || (cfg.LogicalWidth == 0) != (cfg.LogicalHeight == 0) {
		return nil, fmt.Errorf("gfx: WindowConfig logical size %dx%d: set both positive, or neither", cfg.LogicalWidth, cfg.LogicalHeight)
	}
	if cfg.IntegerScale && cfg.LogicalWidth == 0 {
		return nil, errors.New("gfx: WindowConfig.IntegerScale needs LogicalWidth and LogicalHeight")
	}
	if cfg.Vsync < VsyncAdaptive || cfg.Vsync > VsyncOff {
		return nil, fmt.Errorf("gfx: WindowConfig.Vsync = %d: must be VsyncAdaptive, VsyncOn or VsyncOff", int(cfg.Vsync))
	}
	w := &Window{cfg: cfg, log: cfg.Logger, in: cfg.Input, focused: true}
	if w.log == nil {
		w.log = slog.Default()
	}
	sdl.SetHint(sdl.HINT_NO_SIGNAL_HANDLERS, "1")
	sdl.SetHint(sdl.HINT_VIDEO_X11_NET_WM_BYPASS_COMPOSITOR, "0")
	if err := sdl.Init(sdl.INIT_VIDEO | sdl.INIT_EVENTS); err != nil {
		return nil, noDisplay(err)
	}
	if err := sdl.InitSubSystem(sdl.INIT_GAMECONTROLLER); err != nil {
		w.log.Warn("gfx: gamepads unavailable", "err", err)
	}
	w.driver, _ = sdl.GetCurrentVideoDriver()
	if err := w.open(); err != nil {
		w.Close()
		return nil, err
	}
	return w, nil
}

func noDisplay(err error) error {
	hint := "set DISPLAY (X11) or WAYLAND_DISPLAY, run under xvfb-run, or set SDL_VIDEODRIVER=offscreen for a headless GL context"
	if d := os.Getenv("SDL_VIDEODRIVER"); d != "" {
		hint = "SDL_VIDEODRIVER=" + d + " is set; unset it or pick a driver this SDL was built with (x11, wayland, offscreen)"
	}
	return fmt.Errorf("%w: SDL video init failed: %v (%s)", ErrNoDisplay, err, hint)
}

func (w *Window) open() error {
	cfg := w.cfg
	sdl.GLSetAttribute(sdl.GL_CONTEXT_MAJOR_VERSION, 3)
	sdl.GLSetAttribute(sdl.GL_CONTEXT_MINOR_VERSION, 3)
	sdl.GLSetAttribute(sdl.GL_CONTEXT_PROFILE_MASK, sdl.GL_CONTEXT_PROFILE_CORE)
	flags := sdl.GL_CONTEXT_FORWARD_COMPATIBLE_FLAG
	if cfg.Debug {
		flags |= sdl.GL_CONTEXT_DEBUG_FLAG
	}
	sdl.GLSetAttribute(sdl.GL_CONTEXT_FLAGS, flags)
	sdl.GLSetAttribute(sdl.GL_DOUBLEBUFFER, 1)
	sdl.GLSetAttribute(sdl.GL_DEPTH_SIZE, 24)

	wflags := uint32(sdl.WINDOW_OPENGL | sdl.WINDOW_ALLOW_HIGHDPI)
	if !cfg.NotResizable {
		wflags |= sdl.WINDOW_RESIZABLE
	}
	if cfg.Hidden {
		wflags |= sdl.WINDOW_HIDDEN
	}
	if cfg.Fullscreen {
		wflags |= sdl.WINDOW_FULLSCREEN_DESKTOP
		w.fullscreen = true
	}
	var err error
	w.win, err = sdl.CreateWindow(cfg.Title, sdl.WINDOWPOS_CENTERED, sdl.WINDOWPOS_CENTERED,
		int32(cfg.Width), int32(cfg.Height), wflags)
	if err != nil {
		return fmt.Errorf("gfx: create window (video driver %s): %v", w.driver, err)
	}
	w.ctx, err = w.win.GLCreateContext()
	if err != nil {
		return fmt.Errorf("gfx: create an OpenGL 3.3 core context (video driver %s): %v; %s",
			w.driver, err, offeredGL(w.win))
	}
	if err := gl.InitWithProcAddrFunc(sdl.GLGetProcAddress); err != nil {
		return fmt.Errorf("gfx: load OpenGL functions: %v", err)
	}
	var major, minor int32
	gl.GetIntegerv(gl.MAJOR_VERSION, &major)
	gl.GetIntegerv(gl.MINOR_VERSION, &minor)
	if major < 3 || major == 3 && minor < 3 {
		return fmt.Errorf("gfx: OpenGL 3.3 core needed, the driver offers %d.%d (%s)", major, minor, glString(gl.VERSION))
	}
	if cfg.Debug {
		w.enableDebug()
	}
	w.log.Debug("gfx: context", "driver", w.driver, "version", glString(gl.VERSION), "renderer", glString(gl.RENDERER))
	w.clock = engine.NewMonoClock()
	w.updateSize()
	w.setupVsync()
	return nil
}

// offeredGL says which OpenGL the driver offers when a 3.3 core context
// could not be made, by making a default context and asking it.
func offeredGL(win *sdl.Window) string {
	sdl.GLSetAttribute(sdl.GL_CONTEXT_PROFILE_MASK, 0)
	sdl.GLSetAttribute(sdl.GL_CONTEXT_FLAGS, 0)
	sdl.GLSetAttribute(sdl.GL_CONTEXT_MAJOR_VERSION, 2)
	sdl.GLSetAttribute(sdl.GL_CONTEXT_MINOR_VERSION, 1)
	ctx, err := win.GLCreateContext()
	if err != nil {
		return "the driver offers no OpenGL context at all (is Mesa's libgl1-mesa-dri installed?)"
	}
	defer sdl.GLDeleteContext(ctx)
	if err := gl.InitWithProcAddrFunc(sdl.GLGetProcAddress); err != nil {
		return "the driver's default context could not be inspected"
	}
	return "the driver offers " + glString(gl.VERSION)
}

func glString(name uint32) string {
	p := gl.GetString(name)
	if p == nil {
		return "unknown"
	}
	return gl.GoStr(p)
}

// Driver returns SDL's video driver name: x11, wayland, offscreen, ...
func (w *Window) Driver() string { return w.driver }

// GLVersion returns the context's GL_VERSION and GL_RENDERER strings.
func (w *Window) GLVersion() (version, renderer string) {
	return glString(gl.VERSION), glString(gl.RENDERER)
}

// Size returns the window size in window coordinates.
func (w *Window) Size() (width, height int) { return w.winW, w.winH }

// DrawableSize returns the size of the GL drawable in pixels: larger than
// Size on a high-DPI display. The viewport follows it.
func (w *Window) DrawableSize() (width, height int) { return w.drawW, w.drawH }

// Layout returns where the logical screen (WindowConfig.LogicalWidth and
// LogicalHeight) lies in the drawable at its current size; without a
// logical size, the identity layout of the drawable. Pass it to
// Scaler.BeginLayout each frame: it changes when the window is resized.
func (w *Window) Layout() Layout { return w.layout }

func (w *Window) updateSize() {
	ww, wh := w.win.GetSize()
	dw, dh := w.win.GLGetDrawableSize()
	if int(dw) != w.drawW || int(dh) != w.drawH {
		w.disturbed = true
	}
	w.winW, w.winH, w.drawW, w.drawH = int(ww), int(wh), int(dw), int(dh)
	lw, lh := w.drawW, w.drawH
	if w.cfg.LogicalWidth > 0 {
		lw, lh = w.cfg.LogicalWidth, w.cfg.LogicalHeight
	}
	w.layout = FitLayout(lw, lh, w.drawW, w.drawH, w.cfg.IntegerScale)
	gl.Viewport(0, 0, dw, dh)
}

// Disturbed reports whether the window changed state or size since the
// last call: part of engine.Disturber, so the quality governor takes no
// evidence from the slow frames after a resize or a restore.
func (w *Window) Disturbed() bool {
	d := w.disturbed
	w.disturbed = false
	return d
}

// Vsync returns what was asked for, what the driver reports, and what was
// measured.
func (w *Window) Vsync() Vsync { return w.vsync }

// State returns the window state.
func (w *Window) State() WindowState { return w.state }

// StateChanges returns how many times the state changed since the window
// opened.
func (w *Window) StateChanges() int { return w.stateChanges }

// Fullscreen reports whether the window is in desktop fullscreen.
func (w *Window) Fullscreen() bool { return w.fullscreen }

// SetFullscreen enters or leaves desktop fullscreen.
func (w *Window) SetFullscreen(on bool) error {
	var f uint32
	if on {
		f = sdl.WINDOW_FULLSCREEN_DESKTOP
	}
	if err := w.win.SetFullscreen(f); err != nil {
		return fmt.Errorf("gfx: fullscreen %v: %v", on, err)
	}
	w.fullscreen = on
	w.updateSize()
	return nil
}

// Now returns monotonic time; part of engine.Platform.
func (w *Window) Now() time.Duration { return w.clock.Now() }

// Poll handles pending SDL events: window states, resizes, F11 and
// Alt+Enter for fullscreen, input (when WindowConfig.Input is set) and the
// close button, which makes Poll return engine.ErrStopped. Part of
// engine.Platform.
func (w *Window) Poll() error {
	for ev := sdl.PollEvent(); ev != nil; ev = sdl.PollEvent() {
		w.handle(ev)
	}
	if w.quit {
		return engine.ErrStopped
	}
	return nil
}

// RequestQuit makes the next Poll return engine.ErrStopped, as the close
// button does.
func (w *Window) RequestQuit() { w.quit = true }

// handle translates one event right away: go-sdl2 reuses one C buffer for
// every PollEvent, so no event is kept past this call.
func (w *Window) handle(ev sdl.Event) {
	switch e := ev.(type) {
	case *sdl.QuitEvent:
		w.quit = true
	case *sdl.WindowEvent:
		switch e.Event {
		case sdl.WINDOWEVENT_CLOSE:
			w.quit = true
		case sdl.WINDOWEVENT_SIZE_CHANGED, sdl.WINDOWEVENT_RESIZED:
			w.updateSize()
		case sdl.WINDOWEVENT_MINIMIZED, sdl.WINDOWEVENT_HIDDEN:
			w.minimized = true
		case sdl.WINDOWEVENT_RESTORED, sdl.WINDOWEVENT_SHOWN, sdl.WINDOWEVENT_MAXIMIZED:
			w.minimized = false
		case sdl.WINDOWEVENT_EXPOSED:
			w.minimized = false
			w.presents.occluded, w.presents.longRun = false, 0
		case sdl.WINDOWEVENT_FOCUS_GAINED:
			w.focused = true
		case sdl.WINDOWEVENT_FOCUS_LOST:
			w.focused = false
			if w.in != nil {
				w.in.ReleaseAll() // no key stays stuck while another window gets its release
			}
		}
		w.updateState()
	case *sdl.KeyboardEvent:
		down := e.Type == sdl.KEYDOWN
		if down && e.Repeat == 0 {
			sc := e.Keysym.Scancode
			if sc == sdl.SCANCODE_F11 || sc == sdl.SCANCODE_RETURN && e.Keysym.Mod&sdl.KMOD_ALT != 0 {
				if err := w.SetFullscreen(!w.fullscreen); err != nil {
					w.log.Warn(err.Error())
				}
			}
		}
		if w.in != nil && e.Repeat == 0 {
			w.in.KeyEvent(input.Key(e.Keysym.Scancode), down)
		}
	default:
		if w.in != nil {
			w.translateInput(ev)
		}
	}
}

func (w *Window) updateState() {
	s := Focused
	switch {
	case w.minimized:
		s = Minimized
	case w.presents.occluded:
		s = Occluded
	case !w.focused:
		s = Unfocused
	}
	if s != w.state {
		w.log.Debug("gfx: window state", "from", w.state, "to", s)
		w.state = s
		w.stateChanges++
		w.disturbed = true
		w.configurePacing()
	}
}

// policy returns the policy in force for the current state.
func (w *Window) policy() Policy {
	p := w.cfg.Policies[w.state]
	if p != DefaultPolicy {
		return p
	}
	switch w.state {
	case Occluded:
		return Throttle
	case Minimized:
		return Suspend
	}
	return Run
}

// Suspended reports whether the current state's policy is Suspend; part of
// engine.Suspender.
func (w *Window) Suspended() bool { return w.policy() == Suspend }

// WaitEvent sleeps until an SDL event arrives or timeout passes, handling
// the event; part of engine.Suspender.
func (w *Window) WaitEvent(timeout time.Duration) {
	if ev := sdl.WaitEventTimeout(int(timeout / time.Millisecond)); ev != nil {
		w.handle(ev)
	}
}

// EndTick ends the input tick; part of engine.TickEnder.
func (w *Window) EndTick() {
	if w.in != nil {
		w.in.EndTick()
	}
}

// Close deletes the GL context and closes the window and SDL. Close the
// renderer first: GL objects need the context to be deleted. Calling Close
// twice is safe.
func (w *Window) Close() error {
	w.pads.closeAll()
	if w.ctx != nil {
		sdl.GLDeleteContext(w.ctx)
		w.ctx = nil
	}
	if w.win != nil {
		w.win.Destroy()
		w.win = nil
	}
	sdl.Quit()
	return nil
}

// enableDebug routes KHR_debug messages to the logger.
func (w *Window) enableDebug() {
	var flags int32
	gl.GetIntegerv(gl.CONTEXT_FLAGS, &flags)
	if flags&gl.CONTEXT_FLAG_DEBUG_BIT == 0 {
		w.log.Warn("gfx: -gldebug: the driver gave no debug context")
		return
	}
	if !sdl.GLExtensionSupported("GL_KHR_debug") {
		w.log.Warn("gfx: -gldebug: the driver lacks GL_KHR_debug")
		return
	}
	log := w.log
	gl.Enable(gl.DEBUG_OUTPUT)
	gl.Enable(gl.DEBUG_OUTPUT_SYNCHRONOUS)
	gl.DebugMessageCallback(func(source, typ, id, severity uint32, length int32, msg string, _ unsafe.Pointer) {
		level := slog.LevelDebug
		switch severity {
		case gl.DEBUG_SEVERITY_HIGH:
			level = slog.LevelError
		case gl.DEBUG_SEVERITY_MEDIUM:
			level = slog.LevelWarn
		case gl.DEBUG_SEVERITY_LOW:
			level = slog.LevelInfo
		}
		log.Log(context.Background(), level, "gl: "+strings.TrimSpace(msg), "id", id, "type", fmt.Sprintf("0x%x", typ), "source", fmt.Sprintf("0x%x", source))
	}, nil)
}
