package input

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Action is a game's own input meaning (Jump, Fire, MoveX), bound to keys,
// mouse buttons and gamepad controls by Bindings, so game code never names a
// key. Games number their actions from 0, below MaxActions.
type Action uint8

// MaxActions bounds Action values.
const MaxActions = 64

// Source is the kind of control a Binding reads.
type Source uint8

// Binding sources.
const (
	FromKey Source = iota + 1
	FromMouse
	FromPadButton
	FromPadAxis
)

// Binding is one control bound to an action.
type Binding struct {
	Source Source
	// Code is the Key, MouseButton, PadButton or PadAxis.
	Code uint16
	// Dir is the axis direction that counts for a FromPadAxis binding used
	// as a button: -1 or +1; 0 reads the axis both ways as a value.
	Dir int8
	// DeadZone is the part of an axis's travel near rest read as 0; Value
	// rescales the rest to 0..1. It must be in [0, 1): Bind refuses
	// anything else (NaN, infinities, negatives, 1 and more), which would
	// make Value NaN or infinite.
	DeadZone float32
}

// Check reports whether b can be bound: for a FromPadAxis binding, a dead
// zone in [0, 1). The error names the binding and the value.
func (b Binding) Check() error {
	if z := b.DeadZone; !(z >= 0 && z < 1) {
		return fmt.Errorf("input: binding %s: dead zone %v must be a number in [0, 1)", b.name(), z)
	}
	return nil
}

// Key binds k.
func KeyBinding(k Key) Binding { return Binding{Source: FromKey, Code: uint16(k)} }

// MouseBinding binds mouse button b.
func MouseBinding(b MouseButton) Binding { return Binding{Source: FromMouse, Code: uint16(b)} }

// PadButtonBinding binds gamepad button b on any pad.
func PadButtonBinding(b PadButton) Binding { return Binding{Source: FromPadButton, Code: uint16(b)} }

// PadAxisBinding binds gamepad axis a on any pad, in direction dir (-1, +1,
// or 0 for both), with a dead zone in [0, 1) (Bind panics on another;
// Binding.Check says so first, for a dead zone a player chose).
func PadAxisBinding(a PadAxis, dir int8, deadZone float32) Binding {
	return Binding{Source: FromPadAxis, Code: uint16(a), Dir: dir, DeadZone: deadZone}
}

// String writes the binding as ParseBindings reads it.
func (b Binding) String() string {
	switch b.Source {
	case FromKey:
		return "key:" + strings.ReplaceAll(Key(b.Code).String(), " ", "_")
	case FromMouse:
		return "mouse:" + mouseNames[MouseButton(b.Code)]
	case FromPadButton:
		return "pad:" + padButtonNames[PadButton(b.Code)]
	case FromPadAxis:
		s := "axis:" + padAxisNames[PadAxis(b.Code)]
		switch b.Dir {
		case -1:
			s += "-"
		case 1:
			s += "+"
		}
		if b.DeadZone != 0 {
			s += "/" + strconv.FormatFloat(float64(b.DeadZone), 'g', -1, 32)
		}
		return s
	}
	return "none"
}

// name is the binding as String writes it, without its dead zone: Check's
// errors name the bad value apart.
func (b Binding) name() string {
	z := b
	z.DeadZone = 0
	return z.String()
}

// Bindings maps actions to controls. Its zero value binds nothing.
type Bindings struct {
	binds [MaxActions][]Binding
}

// Bind adds controls to action a. An action at or above MaxActions, or a
// binding that Check refuses, is a caller bug: Bind panics, naming it, and
// binds nothing.
func (m *Bindings) Bind(a Action, bs ...Binding) {
	if a >= MaxActions {
		panic(fmt.Sprintf("input: Bind(%d): actions must be below %d", a, MaxActions))
	}
	for _, b := range bs {
		if err := b.Check(); err != nil {
			panic(err.Error())
		}
	}
	m.binds[a] = append(m.binds[a], bs...)
}

// Of returns the controls bound to a.
func (m *Bindings) Of(a Action) []Binding { return m.binds[a] }

// Actions reads a State through Bindings: in.Pressed(Jump). It is a small
// value; make it with NewActions and keep it.
type Actions struct {
	State    *State
	Bindings *Bindings
}

// NewActions returns the actions of s under m.
func NewActions(s *State, m *Bindings) Actions { return Actions{State: s, Bindings: m} }

// Down reports whether any control bound to a is held.
func (in Actions) Down(a Action) bool {
	for _, b := range in.Bindings.binds[a] {
		if in.button(b, isDown) {
			return true
		}
	}
	return false
}

// Pressed reports whether any control bound to a went down since the last
// update; like State.Pressed, exactly one update sees each press.
func (in Actions) Pressed(a Action) bool {
	for _, b := range in.Bindings.binds[a] {
		if in.button(b, wasPressed) {
			return true
		}
	}
	return false
}

// Released reports whether any control bound to a went up since the last
// update.
func (in Actions) Released(a Action) bool {
	for _, b := range in.Bindings.binds[a] {
		if in.button(b, wasReleased) {
			return true
		}
	}
	return false
}

// Value returns a's analog value: the strongest bound control, with digital
// controls reading 1 when down (or -1 for a key bound to an axis's negative
// direction, by a Dir of -1) and axes past their dead zone rescaled to 0..1
// of their remaining travel, signed for Dir 0.
func (in Actions) Value(a Action) float32 {
	var best float32
	for _, b := range in.Bindings.binds[a] {
		v := in.value(b)
		if abs(v) > abs(best) {
			best = v
		}
	}
	return best
}

func (in Actions) value(b Binding) float32 {
	s := in.State
	switch b.Source {
	case FromPadAxis:
		var best float32
		for i := range s.pads {
			p := &s.pads[i]
			if !p.Connected {
				continue
			}
			v := p.Axis(PadAxis(b.Code))
			switch {
			case b.Dir < 0 && v > 0, b.Dir > 0 && v < 0:
				v = 0
			}
			m := abs(v)
			if m <= b.DeadZone {
				continue
			}
			m = min((m-b.DeadZone)/(1-b.DeadZone), 1)
			if b.Dir == 0 && v < 0 {
				m = -m
			}
			if abs(m) > abs(best) {
				best = m
			}
		}
		return best
	default:
		if in.button(b, isDown) {
			if b.Dir < 0 {
				return -1
			}
			return 1
		}
	}
	return 0
}

// query is what Actions asks of a digital control.
type query uint8

const (
	isDown query = iota
	wasPressed
	wasReleased
)

func (q query) test(x *button) bool {
	switch q {
	case wasPressed:
		return x.presses > 0
	case wasReleased:
		return x.releases > 0
	}
	return x.down
}

// button asks q of the digital state behind b, on every pad for pad
// controls.
func (in Actions) button(b Binding, q query) bool {
	s := in.State
	switch b.Source {
	case FromKey:
		return b.Code < NumKeys && q.test(&s.keys[b.Code])
	case FromMouse:
		return b.Code < NumMouseButtons && q.test(&s.buttons[b.Code])
	case FromPadButton:
		for i := range s.pads {
			if s.pads[i].Connected && b.Code < uint16(NumPadButtons) && q.test(&s.pads[i].buttons[b.Code]) {
				return true
			}
		}
	case FromPadAxis:
		for i := range s.pads {
			if !s.pads[i].Connected || b.Code >= uint16(NumPadAxes) {
				continue
			}
			d := &s.pads[i].dirs[b.Code]
			if b.Dir <= 0 && q.test(&d[0]) || b.Dir >= 0 && q.test(&d[1]) {
				return true
			}
		}
	}
	return false
}

func abs(v float32) float32 { return float32(math.Abs(float64(v))) }

var mouseNames = map[MouseButton]string{MouseLeft: "Left", MouseMiddle: "Middle", MouseRight: "Right", MouseX1: "X1", MouseX2: "X2"}

var padButtonNames = map[PadButton]string{
	PadA: "A", PadB: "B", PadX: "X", PadY: "Y", PadBack: "Back", PadGuide: "Guide", PadStart: "Start",
	PadLeftStick: "LeftStick", PadRightStick: "RightStick", PadLeftShoulder: "LeftShoulder",
	PadRightShoulder: "RightShoulder", PadDpadUp: "DpadUp", PadDpadDown: "DpadDown",
	PadDpadLeft: "DpadLeft", PadDpadRight: "DpadRight",
}

var padAxisNames = map[PadAxis]string{
	PadLeftX: "LeftX", PadLeftY: "LeftY", PadRightX: "RightX", PadRightY: "RightY",
	PadTriggerLeft: "TriggerLeft", PadTriggerRight: "TriggerRight",
}

func lookup[K comparable](names map[K]string, s string) (K, bool) {
	for k, n := range names { //fixvet:ignore names are unique, even ignoring case: one matches, in any order
		if strings.EqualFold(n, s) {
			return k, true
		}
	}
	var zero K
	return zero, false
}

// ParseBinding reads one binding: key:Space, key:Left_Shift (underscores
// for spaces), mouse:Left, pad:A, axis:LeftX (both ways), axis:LeftX-,
// axis:LeftY+/0.25 (a direction and a dead zone).
func ParseBinding(s string) (Binding, error) {
	kind, name, ok := strings.Cut(s, ":")
	if !ok {
		return Binding{}, fmt.Errorf("binding %q: want kind:name (key:Space, mouse:Left, pad:A, axis:LeftX-)", s)
	}
	switch kind {
	case "key":
		k, ok := ParseKey(strings.ReplaceAll(name, "_", " "))
		if !ok {
			return Binding{}, fmt.Errorf("binding %q: unknown key %q", s, name)
		}
		return KeyBinding(k), nil
	case "mouse":
		b, ok := lookup(mouseNames, name)
		if !ok {
			return Binding{}, fmt.Errorf("binding %q: unknown mouse button %q (Left, Middle, Right, X1, X2)", s, name)
		}
		return MouseBinding(b), nil
	case "pad":
		b, ok := lookup(padButtonNames, name)
		if !ok {
			return Binding{}, fmt.Errorf("binding %q: unknown gamepad button %q", s, name)
		}
		return PadButtonBinding(b), nil
	case "axis":
		var dz float32
		if n, z, ok := strings.Cut(name, "/"); ok {
			// NaN and infinities parse; !(v >= 0 && v < 1) refuses them,
			// and a value that rounds up to 1 as a float32.
			v, err := strconv.ParseFloat(z, 32)
			if f := float32(v); err != nil || !(f >= 0 && f < 1) {
				return Binding{}, fmt.Errorf("binding %q: dead zone %q must be a number in [0, 1)", s, z)
			}
			name, dz = n, float32(v)
		}
		var dir int8
		switch {
		case strings.HasSuffix(name, "-"):
			name, dir = name[:len(name)-1], -1
		case strings.HasSuffix(name, "+"):
			name, dir = name[:len(name)-1], 1
		}
		a, ok := lookup(padAxisNames, name)
		if !ok {
			return Binding{}, fmt.Errorf("binding %q: unknown gamepad axis %q", s, name)
		}
		return PadAxisBinding(a, dir, dz), nil
	}
	return Binding{}, fmt.Errorf("binding %q: unknown kind %q (key, mouse, pad or axis)", s, kind)
}

// ParseBindings reads a bindings file: one action per line, its name, '='
// and its bindings separated by spaces or commas; '#' starts a comment.
//
//	jump  = key:Space pad:A
//	left  = key:Left key:A axis:LeftX-/0.2
//
// names maps the action names the file may use to the game's actions. An
// unknown action, an unknown control, or a control bound twice is an error
// that names the file, line and what is wrong.
func ParseBindings(r io.Reader, file string, names map[string]Action) (*Bindings, error) {
	m := &Bindings{}
	seen := map[Binding]string{} // binding -> "action at line N"
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		text, _, _ := strings.Cut(sc.Text(), "#")
		text = strings.TrimSpace(text)
		if text == "" {
			continue
		}
		name, rest, ok := strings.Cut(text, "=")
		if !ok {
			return nil, fmt.Errorf("%s:%d: want \"action = bindings\", got %q", file, line, text)
		}
		name = strings.TrimSpace(name)
		a, ok := names[name]
		if !ok {
			return nil, fmt.Errorf("%s:%d: unknown action %q", file, line, name)
		}
		for _, f := range strings.FieldsFunc(rest, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' }) {
			b, err := ParseBinding(f)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %v", file, line, err)
			}
			key := b
			key.DeadZone = 0
			if prev, dup := seen[key]; dup {
				return nil, fmt.Errorf("%s:%d: %s is already bound to %s", file, line, f, prev)
			}
			seen[key] = fmt.Sprintf("%s at line %d", name, line)
			m.Bind(a, b)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	return m, nil
}
