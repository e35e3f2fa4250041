package gfx

import (
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/fixstep/fixstep/input"
)

// WindowState is what the player can see of the window. The loop's behaviour
// in each state is set by WindowConfig.Policies.
type WindowState int

// Window states.
const (
	// Focused: visible and receiving keyboard input.
	Focused WindowState = iota
	// Unfocused: visible, another window has the keyboard.
	Unfocused
	// Occluded: presents have stopped pacing (a compositor that throttles
	// a covered window), measured from present durations.
	Occluded
	// Minimized: minimized or hidden.
	Minimized
	numStates
)

var stateNames = [numStates]string{"focused", "unfocused", "occluded", "minimized"}

// String returns the state's name.
func (s WindowState) String() string {
	if s >= 0 && s < numStates {
		return stateNames[s]
	}
	return fmt.Sprintf("WindowState(%d)", int(s))
}

// Policy is what the loop does in a window state.
type Policy int

// Policies.
const (
	// DefaultPolicy is Run when focused or unfocused, Throttle when
	// occluded and Suspend when minimized.
	DefaultPolicy Policy = iota
	// Run renders and simulates normally.
	Run
	// Throttle keeps simulating but renders at ThrottleFPS.
	Throttle
	// Suspend neither renders nor simulates, sleeps until an event, and
	// owes no time on return: no catch-up burst.
	Suspend
)

// ThrottleFPS is the frame rate of the Throttle policy.
const ThrottleFPS = 10

// VsyncMode is the swap interval a window asks for.
type VsyncMode int

// Vsync modes.
const (
	// VsyncAdaptive asks for adaptive vsync (swap interval -1: tear rather
	// than stall on a late frame) and falls back to VsyncOn.
	VsyncAdaptive VsyncMode = iota
	// VsyncOn asks for swap interval 1.
	VsyncOn
	// VsyncOff asks for swap interval 0; frames are paced by FPSCap or the
	// display refresh rate.
	VsyncOff
)

// String returns the mode's name as the -vsync flag spells it.
func (m VsyncMode) String() string {
	switch m {
	case VsyncAdaptive:
		return "adaptive"
	case VsyncOn:
		return "on"
	case VsyncOff:
		return "off"
	}
	return fmt.Sprintf("VsyncMode(%d)", int(m))
}

// ParseVsync reads a mode name as String writes it.
func ParseVsync(s string) (VsyncMode, error) {
	for _, m := range []VsyncMode{VsyncAdaptive, VsyncOn, VsyncOff} {
		if s == m.String() {
			return m, nil
		}
	}
	return 0, fmt.Errorf("gfx: unknown vsync mode %q (want on, off or adaptive)", s)
}

// WindowConfig sets up a Window. Its zero value opens a 1280x720 resizable
// window titled "fixstep" with adaptive vsync, drawn in its own pixels.
type WindowConfig struct {
	// Title is the window title. Empty means "fixstep".
	Title string
	// Width and Height are the window size in window coordinates. Zero
	// means 1280x720.
	Width, Height int
	// NotResizable makes a window the player cannot resize by its border.
	// The zero value is resizable. Fullscreen (F11) still works.
	NotResizable bool
	// LogicalWidth and LogicalHeight, when set, are a fixed resolution the
	// game draws in, whatever the window's size: Window.Layout fits it into
	// the drawable with black bars where the aspects differ, and
	// Scaler.BeginLayout renders into that. The mouse is then reported to
	// Input in logical pixels, origin at the top left of the logical
	// screen: input.Mouse's X, Y, PixelX and PixelY all hold the logical
	// position (outside 0..LogicalWidth over a bar), and DX, DY the motion
	// in logical pixels. Zero (both) means none: the game draws in the
	// drawable's pixels.
	LogicalWidth, LogicalHeight int
	// IntegerScale scales the logical screen by whole numbers only, for
	// crisp pixel art, at the cost of wider bars (see FitLayout). It needs
	// a logical size.
	IntegerScale bool
	// Vsync is the swap interval to ask for. The zero value is
	// VsyncAdaptive.
	Vsync VsyncMode
	// FPSCap paces frames at this rate when vsync is off or not honoured.
	// Zero means the display's refresh rate (60 when unknown).
	FPSCap float64
	// Unpaced turns the pacer off: with vsync off or not honoured, frames
	// run as fast as they can. For benchmarks.
	Unpaced bool
	// Fullscreen starts in desktop fullscreen.
	Fullscreen bool
	// Hidden creates the window hidden (tests, tools).
	Hidden bool
	// Debug asks for a debug context and logs the driver's KHR_debug
	// messages to Logger.
	Debug bool
	// Logger receives debug messages and vsync reports. Nil means
	// slog.Default().
	Logger *slog.Logger
	// Policies sets the loop's behaviour per WindowState; the zero value of
	// each entry is DefaultPolicy.
	Policies [numStates]Policy
	// Input, when set, receives keyboard, mouse, text and gamepad events,
	// and the window calls its EndTick after each update.
	Input *input.State
}

// RendererConfig sets up a Renderer. Its zero value draws everything and
// streams as the driver allows best (StreamAuto).
type RendererConfig struct {
	// Streaming is how the sprites, their texture regions and the
	// polygons the CPU writes each frame reach the GPU. The zero value
	// is StreamAuto.
	Streaming Streaming
	// NoDraw leaves the draw calls out: a frame does all its CPU work
	// (queuing, uploading, state changes, the frame's counts) but asks the
	// GPU to draw nothing, so a benchmark measures what feeding the GPU
	// costs the CPU without the GPU's own work (on llvmpipe, the
	// rasterizer, which is the CPU too). Clears and presents still
	// happen. The zero value draws.
	NoDraw bool
}

// Streaming is how a Renderer hands the GPU what the CPU writes each
// frame: sprite instances, texture regions and polygon vertices. Each of
// the three goes into a stream buffer of four parts, written in turn;
// leaving a part sets a fence, and coming back to it waits for that fence,
// so the CPU never writes where the GPU still reads, and runs at most
// three parts ahead of it (a frame fits in a part, so at least two frames
// ahead). Every mode draws the same pixels.
type Streaming uint8

// Streaming modes.
const (
	// StreamAuto is StreamPersistent where the driver offers
	// ARB_buffer_storage (OpenGL 4.4, or the extension), else
	// StreamMapped.
	StreamAuto Streaming = iota
	// StreamPersistent maps each stream buffer once, for good and
	// coherently (glBufferStorage): Draw writes each sprite straight
	// into memory the GPU reads, with no GL call a sprite and none a
	// batch but the draw's own.
	StreamPersistent
	// StreamMapped maps the rest of a part when a batch starts and
	// unmaps it before its draw (glMapBufferRange, unsynchronized, the
	// range invalidated, flushed explicitly): OpenGL 3.3's way, three
	// more GL calls a batch.
	StreamMapped
	// StreamCopied writes into memory of the CPU's own and hands each
	// batch over with glBufferSubData, a second copy made by the driver:
	// for drivers whose mappings misbehave, and for comparison. A
	// mapping the driver refuses falls back to it.
	StreamCopied
	numStreaming
)

var streamingNames = [numStreaming]string{"auto", "persistent", "mapped", "copied"}

// String returns the mode's name as ParseStreaming reads it.
func (s Streaming) String() string {
	if s < numStreaming {
		return streamingNames[s]
	}
	return fmt.Sprintf("Streaming(%d)", int(s))
}

// ParseStreaming reads a mode's name: auto, persistent, mapped or copied.
func ParseStreaming(s string) (Streaming, error) {
	for m, name := range streamingNames {
		if s == name {
			return Streaming(m), nil
		}
	}
	return 0, fmt.Errorf("gfx: unknown streaming mode %q (want auto, persistent, mapped or copied)", s)
}

// Vsync is what a window asked for, got, and measured.
type Vsync struct {
	// Requested is the mode asked for.
	Requested VsyncMode
	// Interval is the swap interval the driver reports: -1, 0 or 1.
	Interval int
	// Blocks is true when presents were measured to wait for the display.
	// When false the window paces frames itself (Pacing).
	Blocks bool
	// Period is the measured present interval when Blocks, else the pacing
	// period.
	Period time.Duration
	// Refresh is the display refresh rate SDL reports, 0 if unknown. It is
	// an integer, so 59.94 Hz reads 59 or 60: Period is the measured truth.
	Refresh int
}

// Mode returns a short description: "adaptive", "on" or "off" as the
// driver reports the interval, with "(paced)" when presents did not block
// and the window paces frames itself. It does not allocate.
func (v Vsync) Mode() string {
	modes := [2][3]string{{"adaptive(paced)", "off(paced)", "on(paced)"}, {"adaptive", "off", "on"}}
	if v.Interval < -1 || v.Interval > 1 {
		return "unknown"
	}
	b := 0
	if v.Blocks {
		b = 1
	}
	return modes[b][v.Interval+1]
}

// ErrNoCgo is returned by NewWindow, NewRenderer and every other
// constructor of a GL object in a build without cgo (CGO_ENABLED=0): such a
// build, static, runs a game headless only (see Available).
var ErrNoCgo = errors.New("gfx: this build has no window (built with CGO_ENABLED=0)")

// ErrNoDisplay is returned (wrapped) by NewWindow when SDL finds no video
// device: no X11 or Wayland display and no offscreen driver.
var ErrNoDisplay = errors.New("gfx: no display")

// MaxGamepadMappings is the most mappings LoadGamepadMappings takes from
// one file: 10,000, a few times the SDL_GameControllerDB file for every
// platform. SDL adds a mapping after a search of those it has, so n
// mappings cost O(n²): on the test machine 2,500 took 0.06 s, 5,000
// 0.4 s, 10,000 2 s, and 100,000 3 minutes.
const MaxGamepadMappings = 10000

// MaxGamepadMappingBytes is the largest mappings file LoadGamepadMappings
// reads: 4 MiB, room for MaxGamepadMappings lines of about 400 bytes.
const MaxGamepadMappingBytes = 4 << 20

// DefaultMaxImageBytes is the most memory LoadTexture lets one image file
// cost when the renderer's limit is not set (SetMaxImageBytes): 512 MiB.
// An image's cost is what imagefile.Cost works out from the file's header
// before any pixel is decoded: what Go's decoder allocates for it (PNG,
// JPEG, or another format a program registers with package image; see
// package imagefile), plus the 4 bytes a pixel of its RGBA8 texture.
//
// 512 MiB admits any PNG or JPEG of 4096×4096 (the costliest, a
// progressive CMYK JPEG, about 450 MiB), an 8-bit RGBA PNG of up to
// 8192×8190 and a progressive 4:2:0 JPEG of up to about 5800×5800, and
// keeps a process that loads one image under 1 GB at its peak. A
// 16384×16384 file of any kind needs a larger limit.
const DefaultMaxImageBytes = 512 << 20
