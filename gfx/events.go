//go:build cgo

package gfx

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/veandco/go-sdl2/sdl"

	"github.com/fixstep/fixstep/input"
)

// translateInput turns one SDL event into input.State calls. Keyboard events
// are handled in Window.handle.
func (w *Window) translateInput(ev sdl.Event) {
	in := w.in
	switch e := ev.(type) {
	case *sdl.MouseMotionEvent:
		w.mouseMotion(e.X, e.Y, e.XRel, e.YRel)
	case *sdl.MouseButtonEvent:
		in.MouseButtonEvent(input.MouseButton(e.Button), e.Type == sdl.MOUSEBUTTONDOWN)
	case *sdl.MouseWheelEvent:
		dx, dy := e.PreciseX, e.PreciseY
		if e.Direction == sdl.MOUSEWHEEL_FLIPPED {
			dx, dy = -dx, -dy
		}
		in.WheelEvent(dx, dy)
	case *sdl.TextInputEvent:
		n := 0
		for n < len(e.Text) && e.Text[n] != 0 {
			n++
		}
		in.TextEvent(e.Text[:n])
	case *sdl.ControllerDeviceEvent:
		switch e.Type {
		case sdl.CONTROLLERDEVICEADDED:
			w.pads.open(int(e.Which), in, w)
		case sdl.CONTROLLERDEVICEREMOVED:
			w.pads.close(int32(e.Which), in)
		}
	case *sdl.ControllerButtonEvent:
		if slot := in.PadSlot(int32(e.Which)); slot >= 0 {
			in.PadButtonEvent(slot, input.PadButton(e.Button), e.State == sdl.PRESSED)
		}
	case *sdl.ControllerAxisEvent:
		if slot := in.PadSlot(int32(e.Which)); slot >= 0 {
			v := float32(e.Value) / 32767
			in.PadAxisEvent(slot, input.PadAxis(e.Axis), max(v, -1))
		}
	}
}

// mouseMotion reports a pointer at (x, y) in window coordinates, moved by
// (dx, dy), to the input state: in window coordinates and drawable pixels,
// or, with a logical size, in logical pixels through the layout.
func (w *Window) mouseMotion(x, y, dx, dy int32) {
	sx, sy := w.pixelScale()
	px, py := float32(x)*sx, float32(y)*sy
	if w.cfg.LogicalWidth == 0 {
		w.in.MouseMotion(float32(x), float32(y), px, py, float32(dx), float32(dy))
		return
	}
	lx, ly := w.layout.ToLogical(px, py)
	ls, lt := w.layout.Scale()
	w.in.MouseMotion(lx, ly, lx, ly, float32(dx)*sx*ls, float32(dy)*sy*lt)
}

// pixelScale returns drawable pixels per window coordinate.
func (w *Window) pixelScale() (float32, float32) {
	if w.winW == 0 || w.winH == 0 {
		return 1, 1
	}
	return float32(w.drawW) / float32(w.winW), float32(w.drawH) / float32(w.winH)
}

// padSet holds the open SDL game controllers, by input.State slot.
type padSet struct {
	ctrl [input.MaxPads]*sdl.GameController
}

func (p *padSet) open(index int, in *input.State, w *Window) {
	if !sdl.IsGameController(index) {
		return
	}
	slot := in.FreePadSlot()
	if slot < 0 {
		w.log.Warn("gfx: gamepad ignored: all slots taken", "slots", input.MaxPads)
		return
	}
	c := sdl.GameControllerOpen(index)
	if c == nil {
		w.log.Warn("gfx: open gamepad", "index", index, "err", sdl.GetError())
		return
	}
	id := int32(c.Joystick().InstanceID())
	if in.PadSlot(id) >= 0 { // already open (SDL sends ADDED for pads present at start)
		c.Close()
		return
	}
	p.ctrl[slot] = c
	in.PadAdded(slot, id)
}

func (p *padSet) close(id int32, in *input.State) {
	slot := in.PadSlot(id)
	if slot < 0 {
		return
	}
	in.PadRemoved(slot)
	if c := p.ctrl[slot]; c != nil {
		c.Close()
		p.ctrl[slot] = nil
	}
}

func (p *padSet) closeAll() {
	for i, c := range p.ctrl {
		if c != nil {
			c.Close()
			p.ctrl[i] = nil
		}
	}
}

// Rumble shakes gamepad slot for the given strengths (0..1) and
// milliseconds. It does nothing for an empty slot or a pad without rumble.
func (w *Window) Rumble(slot int, low, high float32, ms int) {
	if slot < 0 || slot >= input.MaxPads || w.pads.ctrl[slot] == nil || !w.pads.ctrl[slot].HasRumble() {
		return
	}
	w.pads.ctrl[slot].Rumble(uint16(low*0xffff), uint16(high*0xffff), uint32(ms))
}

// LoadGamepadMappings adds SDL game controller mappings from a file in the
// SDL_GameControllerDB format (gamecontrollerdb.txt), one mapping a line,
// and returns how many it added. A file larger than MaxGamepadMappingBytes
// or with more than MaxGamepadMappings mappings is refused whole, before
// any is added; lines that SDL rejects are errors naming the file and
// line, after the lines before them were added. Call it on the main
// thread, after NewWindow.
func LoadGamepadMappings(path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, fmt.Errorf("gfx: gamepad mappings: %w", err)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxGamepadMappingBytes+1))
	f.Close()
	if err != nil {
		return 0, fmt.Errorf("gfx: gamepad mappings: %w", err)
	}
	if len(data) > MaxGamepadMappingBytes {
		return 0, fmt.Errorf("gfx: %s: gamepad mappings file larger than %d bytes (MaxGamepadMappingBytes); none added", path, MaxGamepadMappingBytes)
	}
	mapping := func(line string) (string, bool) {
		s := strings.TrimSpace(line)
		return s, s != "" && !strings.HasPrefix(s, "#")
	}
	count := 0
	for line := range strings.Lines(string(data)) {
		if _, ok := mapping(line); ok {
			count++
		}
	}
	if count > MaxGamepadMappings {
		return 0, fmt.Errorf("gfx: %s: %d gamepad mappings, more than %d (MaxGamepadMappings); none added", path, count, MaxGamepadMappings)
	}
	n, lineNo := 0, 0
	for line := range strings.Lines(string(data)) {
		lineNo++
		s, ok := mapping(line)
		if !ok {
			continue
		}
		if sdl.GameControllerAddMapping(s) < 0 {
			return n, fmt.Errorf("gfx: %s:%d: SDL rejected the mapping: %v", path, lineNo, sdl.GetError())
		}
		n++
	}
	return n, nil
}
