package input

// MaxPads is how many gamepads a State tracks at once.
const MaxPads = 4

// PadButton is a gamepad button, numbered as SDL's GameController API
// numbers them (the Xbox layout: A is the bottom face button).
type PadButton uint8

// Gamepad buttons.
const (
	PadA PadButton = iota
	PadB
	PadX
	PadY
	PadBack
	PadGuide
	PadStart
	PadLeftStick
	PadRightStick
	PadLeftShoulder
	PadRightShoulder
	PadDpadUp
	PadDpadDown
	PadDpadLeft
	PadDpadRight
	// NumPadButtons bounds PadButton values.
	NumPadButtons
)

// PadAxis is a gamepad axis, numbered as SDL's GameController API numbers
// them.
type PadAxis uint8

// Gamepad axes. Sticks run from -1 to 1 (up and left negative); triggers
// from 0 to 1.
const (
	PadLeftX PadAxis = iota
	PadLeftY
	PadRightX
	PadRightY
	PadTriggerLeft
	PadTriggerRight
	// NumPadAxes bounds PadAxis values.
	NumPadAxes
)

// AxisPress is how far an axis must move from rest to count as a press of
// its direction, for bindings that use a stick as buttons.
const AxisPress = 0.5

// Pad is one gamepad slot.
type Pad struct {
	// Connected is true while a gamepad is plugged into this slot.
	Connected bool
	// ID is the platform's identifier of the device (SDL's instance id).
	ID int32

	buttons [NumPadButtons]button
	axes    [NumPadAxes]float32
	dirty   bool // edges left to clear after a disconnect
	// dirs are the axes as buttons: [axis][0] negative, [axis][1] positive.
	dirs [NumPadAxes][2]button
}

// Down reports whether button b is held.
func (p *Pad) Down(b PadButton) bool { return b < NumPadButtons && p.buttons[b].down }

// Pressed reports whether button b went down since the last update.
func (p *Pad) Pressed(b PadButton) bool { return b < NumPadButtons && p.buttons[b].presses > 0 }

// Released reports whether button b went up since the last update.
func (p *Pad) Released(b PadButton) bool { return b < NumPadButtons && p.buttons[b].releases > 0 }

// Axis returns axis a's raw value, with no dead zone.
func (p *Pad) Axis(a PadAxis) float32 {
	if a >= NumPadAxes {
		return 0
	}
	return p.axes[a]
}

func (p *Pad) endTick() {
	p.dirty = false
	for i := range p.buttons {
		p.buttons[i].endTick()
	}
	for i := range p.dirs {
		p.dirs[i][0].endTick()
		p.dirs[i][1].endTick()
	}
}

// PadAdded connects gamepad slot i to the device id.
func (s *State) PadAdded(i int, id int32) {
	if i >= 0 && i < MaxPads {
		s.pads[i].Connected, s.pads[i].ID = true, id
	}
}

// PadRemoved disconnects slot i, releasing everything held on it.
func (s *State) PadRemoved(i int) {
	if i < 0 || i >= MaxPads {
		return
	}
	p := &s.pads[i]
	for b := range p.buttons {
		p.buttons[b].set(false)
	}
	for a := range p.axes {
		s.PadAxisEvent(i, PadAxis(a), 0)
	}
	p.Connected = false
	p.dirty = true
}

// PadButtonEvent records that button b of slot i went down or up.
func (s *State) PadButtonEvent(i int, b PadButton, down bool) {
	if i >= 0 && i < MaxPads && b < NumPadButtons {
		s.pads[i].buttons[b].set(down)
	}
}

// PadAxisEvent records axis a of slot i at v (-1..1, triggers 0..1).
func (s *State) PadAxisEvent(i int, a PadAxis, v float32) {
	if i < 0 || i >= MaxPads || a >= NumPadAxes {
		return
	}
	p := &s.pads[i]
	p.axes[a] = v
	p.dirs[a][0].set(v <= -AxisPress)
	p.dirs[a][1].set(v >= AxisPress)
}

// PadSlot returns the slot of the connected device id, or -1.
func (s *State) PadSlot(id int32) int {
	for i := range s.pads {
		if s.pads[i].Connected && s.pads[i].ID == id {
			return i
		}
	}
	return -1
}

// FreePadSlot returns the first unconnected slot, or -1 when all are taken.
func (s *State) FreePadSlot() int {
	for i := range s.pads {
		if !s.pads[i].Connected {
			return i
		}
	}
	return -1
}
