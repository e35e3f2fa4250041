//go:build cgo

package gfx

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/go-gl/gl/v3.3-core/gl"
	"github.com/veandco/go-sdl2/sdl"

	"github.com/fixstep/fixstep/engine"
	"github.com/fixstep/fixstep/input"
)

// TestKeysAreSDLScancodes checks that every named input.Key has SDL's name
// for the scancode of the same number: the two numberings agree.
func TestKeysAreSDLScancodes(t *testing.T) {
	named := 0
	var bad []string
	onMain(func() {
		for k := input.Key(0); k < input.NumKeys; k++ {
			name := k.String()
			if strings.HasPrefix(name, "Key(") {
				continue
			}
			named++
			if sdlName := sdl.GetScancodeName(sdl.Scancode(k)); sdlName != name {
				bad = append(bad, name+" != SDL "+sdlName)
			}
		}
	})
	if named < 100 {
		t.Errorf("only %d named keys", named)
	}
	if len(bad) > 0 {
		t.Errorf("keys that differ from SDL's scancodes: %v", bad)
	}
}

// TestSDLEventsReachInput pushes synthetic events through SDL's queue under
// the offscreen driver and checks what the input state and window saw.
func TestSDLEventsReachInput(t *testing.T) {
	keys := &input.State{}
	w := openWindow(t, WindowConfig{Width: 64, Height: 64, Input: keys})
	var pollErr, quitErr error
	var pressed, down, released, mouse, lostReleased, repeatIgnored bool
	onMain(func() {
		key := func(sc sdl.Scancode, typ uint32, repeat uint8) {
			pushEvent(sdl.KeyboardEvent{Type: typ, State: map[uint32]uint8{sdl.KEYDOWN: sdl.PRESSED, sdl.KEYUP: sdl.RELEASED}[typ],
				Repeat: repeat, Keysym: sdl.Keysym{Scancode: sc}})
		}
		key(sdl.SCANCODE_SPACE, sdl.KEYDOWN, 0)
		key(sdl.SCANCODE_SPACE, sdl.KEYDOWN, 1) // auto-repeat: not a new press
		pushEvent(sdl.MouseButtonEvent{Type: sdl.MOUSEBUTTONDOWN, Button: sdl.BUTTON_LEFT, State: sdl.PRESSED})
		pollErr = w.Poll()
		pressed, down = keys.Pressed(input.KeySpace), keys.Down(input.KeySpace)
		repeatIgnored = keys.Transitions(input.KeySpace) == 1
		mouse = keys.MousePressed(input.MouseLeft)
		w.EndTick()

		key(sdl.SCANCODE_W, sdl.KEYDOWN, 0)
		w.Poll()
		w.EndTick()
		pushEvent(sdl.WindowEvent{Type: sdl.WINDOWEVENT, Event: sdl.WINDOWEVENT_FOCUS_LOST})
		w.Poll()
		lostReleased = !keys.Down(input.KeyW) && keys.Released(input.KeyW) && !keys.Down(input.KeySpace)
		released = keys.Released(input.KeySpace)

		pushEvent(sdl.QuitEvent{Type: sdl.QUIT})
		quitErr = w.Poll()
	})
	if pollErr != nil {
		t.Fatal(pollErr)
	}
	if !pressed || !down || !repeatIgnored || !mouse {
		t.Errorf("space pressed %v down %v (repeat ignored %v), mouse left pressed %v; want all true", pressed, down, repeatIgnored, mouse)
	}
	if !lostReleased || !released {
		t.Error("losing focus must release every held key, as release edges")
	}
	if w.State() != Unfocused {
		t.Errorf("state %v after focus loss, want unfocused", w.State())
	}
	if !errors.Is(quitErr, engine.ErrStopped) {
		t.Errorf("Poll after a quit event = %v, want engine.ErrStopped", quitErr)
	}
}

func TestMinimizedSuspends(t *testing.T) {
	w := openWindow(t, WindowConfig{Width: 64, Height: 64})
	var suspended, resumed bool
	var changes int
	onMain(func() {
		pushEvent(sdl.WindowEvent{Type: sdl.WINDOWEVENT, Event: sdl.WINDOWEVENT_MINIMIZED})
		w.Poll()
		suspended = w.Suspended() && w.State() == Minimized
		pushEvent(sdl.WindowEvent{Type: sdl.WINDOWEVENT, Event: sdl.WINDOWEVENT_RESTORED})
		w.Poll()
		resumed = !w.Suspended() && w.State() == Focused
		changes = w.StateChanges()
	})
	if !suspended || !resumed || changes != 2 {
		t.Errorf("minimize suspended %v, restore resumed %v, %d state changes; want true, true, 2", suspended, resumed, changes)
	}
}

func TestPresentTrackerOccludesAndRecovers(t *testing.T) {
	p := presentTracker{sum: 16_666_667, frames: 1}
	var changes []bool
	seq := []time.Duration{16_600_000, 16_700_000, 100e6, 100e6, 100e6, 100e6, 100e6, 100e6, 16_650_000, 33_400_000}
	for _, d := range seq {
		if p.observe(d) {
			changes = append(changes, p.occluded)
		}
	}
	// Occluded after the fifth long present, visible at the next normal one.
	if len(changes) != 2 || !changes[0] || changes[1] {
		t.Errorf("occlusion changes %v, want [true false]", changes)
	}
	// The period averages only single-period presents: (16.666667 + 16.6 +
	// 16.7 + 16.65) / 4 ms.
	if got := p.period(); got != 16_654_166 {
		t.Errorf("period %v, want 16.654166ms", got)
	}
}

func TestFullscreenToggleAndDebugContext(t *testing.T) {
	w := openWindow(t, WindowConfig{Width: 64, Height: 64, Debug: true})
	var on, off bool
	onMain(func() {
		pushEvent(sdl.KeyboardEvent{Type: sdl.KEYDOWN, State: sdl.PRESSED, Keysym: sdl.Keysym{Scancode: sdl.SCANCODE_F11}})
		w.Poll()
		on = w.Fullscreen()
		pushEvent(sdl.KeyboardEvent{Type: sdl.KEYDOWN, State: sdl.PRESSED, Keysym: sdl.Keysym{Scancode: sdl.SCANCODE_RETURN, Mod: sdl.KMOD_LALT}})
		w.Poll()
		off = !w.Fullscreen()
	})
	if !on || !off {
		t.Errorf("F11 fullscreen %v, Alt+Enter back %v; want both", on, off)
	}
}

// TestDebugMessagesReachTheLogger inserts a KHR_debug message and checks it
// arrives in the window's slog logger.
func TestDebugMessagesReachTheLogger(t *testing.T) {
	var buf bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	openWindow(t, WindowConfig{Width: 32, Height: 32, Debug: true, Logger: logger})
	onMain(func() {
		msg := "fixstep-debug-probe"
		gl.DebugMessageInsert(gl.DEBUG_SOURCE_APPLICATION, gl.DEBUG_TYPE_MARKER, 1, gl.DEBUG_SEVERITY_NOTIFICATION, int32(len(msg)), gl.Str(msg+"\x00"))
	})
	if !strings.Contains(buf.String(), "gl: fixstep-debug-probe") {
		t.Errorf("debug message not logged; log:\n%s", buf.String())
	}
}

func TestLoadGamepadMappings(t *testing.T) {
	openWindow(t, WindowConfig{Width: 32, Height: 32})
	dir := t.TempDir()
	good := dir + "/good.txt"
	bad := dir + "/bad.txt"
	line := "03000000de280000ff11000001000000,Test Pad,a:b0,b:b1,x:b2,y:b3,leftx:a0,lefty:a1,platform:Linux,"
	os.WriteFile(good, []byte("# gamecontrollerdb\n"+line+"\n"), 0o644)
	os.WriteFile(bad, []byte(line+"\nnot a mapping\n"), 0o644)
	var n int
	var errGood, errBad, errMissing error
	onMain(func() {
		n, errGood = LoadGamepadMappings(good)
		_, errBad = LoadGamepadMappings(bad)
		_, errMissing = LoadGamepadMappings(dir + "/none.txt")
	})
	if errGood != nil || n != 1 {
		t.Errorf("good file: %d mappings, %v", n, errGood)
	}
	if errBad == nil || !strings.Contains(errBad.Error(), "bad.txt:2: SDL rejected the mapping") {
		t.Errorf("bad file: %v", errBad)
	}
	if errMissing == nil {
		t.Error("missing file accepted")
	}
}

// TestLoadGamepadMappingsCaps refuses, whole and before SDL sees a line,
// a file of one mapping more than MaxGamepadMappings and a file larger
// than MaxGamepadMappingBytes; a file at both caps is read.
func TestLoadGamepadMappingsCaps(t *testing.T) {
	dir := t.TempDir()
	line := "03000000de280000ff11000001000000,Test Pad,a:b0,b:b1,x:b2,y:b3,leftx:a0,lefty:a1,platform:Linux,\n"
	many := dir + "/many.txt"
	os.WriteFile(many, []byte(strings.Repeat(line, MaxGamepadMappings+1)), 0o644)
	big := dir + "/big.txt"
	os.WriteFile(big, []byte(strings.Repeat("#", MaxGamepadMappingBytes)+"\n"), 0o644)
	var nMany, nBig int
	var errMany, errBig error
	onMain(func() {
		nMany, errMany = LoadGamepadMappings(many)
		nBig, errBig = LoadGamepadMappings(big)
	})
	want := fmt.Sprintf("gfx: %s: %d gamepad mappings, more than %d (MaxGamepadMappings); none added", many, MaxGamepadMappings+1, MaxGamepadMappings)
	if nMany != 0 || errMany == nil || errMany.Error() != want {
		t.Errorf("too many mappings: %d added, %v; want 0, %q", nMany, errMany, want)
	}
	want = fmt.Sprintf("gfx: %s: gamepad mappings file larger than %d bytes (MaxGamepadMappingBytes); none added", big, MaxGamepadMappingBytes)
	if nBig != 0 || errBig == nil || errBig.Error() != want {
		t.Errorf("too large a file: %d added, %v; want 0, %q", nBig, errBig, want)
	}
	// At the caps: the same mapping MaxGamepadMappings times (SDL updates
	// it in place, quickly), in a file of exactly MaxGamepadMappingBytes.
	openWindow(t, WindowConfig{Width: 32, Height: 32})
	full := strings.Repeat(line, MaxGamepadMappings)
	full += strings.Repeat("#", MaxGamepadMappingBytes-len(full)-1) + "\n"
	atCaps := dir + "/caps.txt"
	os.WriteFile(atCaps, []byte(full), 0o644)
	var n int
	var err error
	onMain(func() { n, err = LoadGamepadMappings(atCaps) })
	if n != MaxGamepadMappings || err != nil {
		t.Errorf("a file at both caps: %d added, %v; want %d", n, err, MaxGamepadMappings)
	}
}

// pushEvent pushes ev through SDL's queue. go-sdl2's PushEvent reads a
// whole SDL_Event (56 bytes) from the Go struct it is given, which is
// smaller: under the race detector, checkptr rightly stops that as a read
// past the allocation. The event is copied into storage with room to spare
// first, so the read stays inside one allocation and -race can run here.
func pushEvent[E any, P interface {
	*E
	sdl.Event
}](ev E) {
	p := &struct {
		ev  E
		pad [64]byte
	}{ev: ev}
	sdl.PushEvent(P(&p.ev))
}
