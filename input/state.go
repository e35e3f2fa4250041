package input

// button is one digital input: its level plus the edges seen since the last
// tick that consumed them (the Handmade "ended down + transition count").
type button struct {
	down              bool
	presses, releases uint8
}

// set changes the level and reports whether this is the button's first
// edge since the last endTick.
func (b *button) set(down bool) (first bool) {
	if down == b.down {
		return false
	}
	first = b.presses == 0 && b.releases == 0
	b.down = down
	if down {
		b.presses = min(b.presses+1, 255)
	} else {
		b.releases = min(b.releases+1, 255)
	}
	return first
}

func (b *button) endTick() { b.presses, b.releases = 0, 0 }

// MouseButton is a mouse button, numbered as SDL numbers them.
type MouseButton uint8

// Mouse buttons.
const (
	MouseLeft   MouseButton = 1
	MouseMiddle MouseButton = 2
	MouseRight  MouseButton = 3
	MouseX1     MouseButton = 4
	MouseX2     MouseButton = 5
)

// NumMouseButtons bounds MouseButton values.
const NumMouseButtons = 8

// Mouse is the pointer's state.
type Mouse struct {
	// X and Y are the position in window coordinates (what the OS calls
	// points); PixelX and PixelY the same position in drawable pixels, which
	// differ on high-DPI displays. A window with a logical resolution
	// (gfx.WindowConfig.LogicalWidth) reports all four, and DX and DY, in
	// logical pixels instead.
	X, Y, PixelX, PixelY float32
	// DX and DY are the relative motion since the last tick, in window
	// coordinates; WheelX and WheelY the wheel motion since the last tick.
	DX, DY, WheelX, WheelY float32
}

const maxDirty = 32

// MaxText is how many bytes of typed text one tick keeps.
const MaxText = 64

// State is the input a game reads in its fixed update: keyboard, mouse, text
// and gamepads. The platform feeds it events as they arrive; the loop calls
// EndTick after each update. That makes every edge per tick, never per
// frame:
//
//   - Pressed(k) is true in exactly one update per physical press: the first
//     update that runs after the press, even when the frame that saw it runs
//     no update, and even when the key was pressed and released inside one
//     frame (a tap is never lost).
//   - Released(k) likewise; Down(k) is the level; Transitions(k) counts the
//     edges, for two taps inside one tick.
//   - With N updates in a frame, edges go to the first; the rest see levels.
//
// State is fixed-size arrays: no maps, and no allocation per event or tick.
// Its zero value is ready: no keys down, no gamepads. It is not safe for
// concurrent use; the loop's goroutine owns it.
type State struct {
	keys [NumKeys]button
	// dirty lists the keys with edges since the last EndTick, so EndTick
	// clears a few keys instead of all NumKeys; past maxDirty it clears all.
	dirty   [maxDirty]Key
	nDirty  int
	mouse   Mouse
	buttons [NumMouseButtons]button
	pads    [MaxPads]Pad
	text    [MaxText]byte
	textN   int
}

// Down reports whether k is held.
func (s *State) Down(k Key) bool { return k < NumKeys && s.keys[k].down }

// Pressed reports whether k went down since the last update.
func (s *State) Pressed(k Key) bool { return k < NumKeys && s.keys[k].presses > 0 }

// Released reports whether k went up since the last update.
func (s *State) Released(k Key) bool { return k < NumKeys && s.keys[k].releases > 0 }

// Transitions returns how many times k changed state since the last update:
// a tap is 2, two taps 4.
func (s *State) Transitions(k Key) int {
	if k >= NumKeys {
		return 0
	}
	return int(s.keys[k].presses) + int(s.keys[k].releases)
}

// Mouse returns the pointer's state.
func (s *State) Mouse() Mouse { return s.mouse }

// MouseDown reports whether mouse button b is held.
func (s *State) MouseDown(b MouseButton) bool { return b < NumMouseButtons && s.buttons[b].down }

// MousePressed reports whether mouse button b went down since the last update.
func (s *State) MousePressed(b MouseButton) bool {
	return b < NumMouseButtons && s.buttons[b].presses > 0
}

// MouseReleased reports whether mouse button b went up since the last update.
func (s *State) MouseReleased(b MouseButton) bool {
	return b < NumMouseButtons && s.buttons[b].releases > 0
}

// Text returns the UTF-8 text typed since the last update (at most MaxText
// bytes). The slice is valid until the next EndTick.
func (s *State) Text() []byte { return s.text[:s.textN] }

// Pad returns gamepad slot i (0 <= i < MaxPads).
func (s *State) Pad(i int) *Pad { return &s.pads[i] }

// EndTick marks the end of an update: the edges it saw are consumed, and
// relative motion, wheel and text start again from zero. The loop calls it
// after every update (engine.TickEnder); a frame that runs no update leaves
// the edges for the next one.
func (s *State) EndTick() {
	if s.nDirty > maxDirty {
		for i := range s.keys {
			s.keys[i].endTick()
		}
	} else {
		for _, k := range s.dirty[:s.nDirty] {
			s.keys[k].endTick()
		}
	}
	s.nDirty = 0
	for i := range s.buttons {
		s.buttons[i].endTick()
	}
	for i := range s.pads {
		if s.pads[i].Connected || s.pads[i].dirty {
			s.pads[i].endTick()
		}
	}
	s.mouse.DX, s.mouse.DY, s.mouse.WheelX, s.mouse.WheelY = 0, 0, 0, 0
	s.textN = 0
}

// Platform side: the adapter that reads OS events calls these.

// KeyEvent records that k went down or up. Key repeats must not be passed.
func (s *State) KeyEvent(k Key, down bool) {
	if k < NumKeys && s.keys[k].set(down) {
		s.markDirty(k)
	}
}

func (s *State) markDirty(k Key) {
	if s.nDirty < maxDirty {
		s.dirty[s.nDirty] = k
	}
	s.nDirty++
}

// MouseMotion records the pointer at (x, y) in window coordinates, (px, py)
// in drawable pixels, having moved by (dx, dy).
func (s *State) MouseMotion(x, y, px, py, dx, dy float32) {
	s.mouse.X, s.mouse.Y, s.mouse.PixelX, s.mouse.PixelY = x, y, px, py
	s.mouse.DX += dx
	s.mouse.DY += dy
}

// MouseButtonEvent records that mouse button b went down or up.
func (s *State) MouseButtonEvent(b MouseButton, down bool) {
	if b < NumMouseButtons {
		s.buttons[b].set(down)
	}
}

// WheelEvent records wheel motion.
func (s *State) WheelEvent(dx, dy float32) {
	s.mouse.WheelX += dx
	s.mouse.WheelY += dy
}

// TextEvent records typed UTF-8 text; what does not fit in MaxText bytes
// this tick is dropped at a character boundary.
func (s *State) TextEvent(text []byte) {
	if s.textN+len(text) <= MaxText {
		s.textN += copy(s.text[s.textN:], text)
	}
}

// ReleaseAll releases every key and button that is down, as release edges.
// The platform calls it when the window loses focus, so that no key stays
// stuck down while another window gets its release.
func (s *State) ReleaseAll() {
	for i := range s.keys {
		if s.keys[i].set(false) {
			s.markDirty(Key(i))
		}
	}
	for i := range s.buttons {
		s.buttons[i].set(false)
	}
}
