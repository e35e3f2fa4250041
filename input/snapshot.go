package input

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// ErrBadState is wrapped by the errors State.Load returns for bytes that
// are not a saved State: check it with errors.Is.
var ErrBadState = errors.New("input: bad saved state")

// The saved State's layout: "FXIN", a version byte, then every field in
// order, little-endian (see Save). Its size is fixed.
const (
	stateMagic   = "FXIN"
	stateVersion = 1
	buttonBytes  = 3
	padBytes     = 1 + 4 + int(NumPadButtons)*buttonBytes + int(NumPadAxes)*4 + 1 + int(NumPadAxes)*2*buttonBytes
	// StateBytes is the size of a saved State.
	StateBytes = 5 + NumKeys*buttonBytes + 2 + maxDirty*2 + 8*4 +
		NumMouseButtons*buttonBytes + MaxPads*padBytes + 1 + MaxText
)

// Save appends the whole input state to dst, StateBytes of it: held keys
// and buttons, the edges not yet consumed by an update, the mouse, the
// gamepads and the typed text. Load puts it back. A rollback or a sync test
// saves it before each tick and loads it to run that tick again with the
// same input. With room in dst it allocates nothing.
func (s *State) Save(dst []byte) []byte {
	off := len(dst)
	if cap(dst)-off < StateBytes {
		dst = append(dst, make([]byte, StateBytes)...)[:off]
	}
	p := dst[off : off+StateBytes]
	copy(p, stateMagic)
	p[4] = stateVersion
	w := p[5:]
	for i := range s.keys {
		w = putButton(w, &s.keys[i])
	}
	le.PutUint16(w, uint16(min(s.nDirty, math.MaxUint16)))
	w = w[2:]
	for _, k := range s.dirty {
		le.PutUint16(w, uint16(k))
		w = w[2:]
	}
	for _, v := range [8]float32{s.mouse.X, s.mouse.Y, s.mouse.PixelX, s.mouse.PixelY, s.mouse.DX, s.mouse.DY, s.mouse.WheelX, s.mouse.WheelY} {
		le.PutUint32(w, math.Float32bits(v))
		w = w[4:]
	}
	for i := range s.buttons {
		w = putButton(w, &s.buttons[i])
	}
	for i := range s.pads {
		pad := &s.pads[i]
		w[0] = boolByte(pad.Connected)
		le.PutUint32(w[1:], uint32(pad.ID))
		w = w[5:]
		for j := range pad.buttons {
			w = putButton(w, &pad.buttons[j])
		}
		for _, v := range pad.axes {
			le.PutUint32(w, math.Float32bits(v))
			w = w[4:]
		}
		w[0] = boolByte(pad.dirty)
		w = w[1:]
		for j := range pad.dirs {
			w = putButton(w, &pad.dirs[j][0])
			w = putButton(w, &pad.dirs[j][1])
		}
	}
	w[0] = byte(s.textN)
	copy(w[1:], s.text[:])
	return dst[:off+StateBytes]
}

// Load replaces the state with one Save wrote. Bytes of another size,
// version or with a value out of range give an error wrapping ErrBadState
// and leave the state as it was.
func (s *State) Load(src []byte) error {
	if len(src) != StateBytes || string(src[:4]) != stateMagic {
		return fmt.Errorf("%w: %d bytes, want %d starting %q", ErrBadState, len(src), StateBytes, stateMagic)
	}
	if src[4] != stateVersion {
		return fmt.Errorf("%w: version %d; this build loads version %d", ErrBadState, src[4], stateVersion)
	}
	var t State
	r := src[5:]
	var err error
	for i := range t.keys {
		r = getButton(r, &t.keys[i], &err)
	}
	t.nDirty = int(le.Uint16(r))
	r = r[2:]
	for i := range t.dirty {
		t.dirty[i] = Key(le.Uint16(r))
		r = r[2:]
		if i < t.nDirty && t.dirty[i] >= NumKeys {
			return fmt.Errorf("%w: key %d", ErrBadState, t.dirty[i])
		}
	}
	m := [8]float32{}
	for i := range m {
		m[i] = math.Float32frombits(le.Uint32(r))
		r = r[4:]
	}
	t.mouse = Mouse{X: m[0], Y: m[1], PixelX: m[2], PixelY: m[3], DX: m[4], DY: m[5], WheelX: m[6], WheelY: m[7]}
	for i := range t.buttons {
		r = getButton(r, &t.buttons[i], &err)
	}
	for i := range t.pads {
		pad := &t.pads[i]
		pad.Connected = r[0] == 1
		pad.ID = int32(le.Uint32(r[1:]))
		r = r[5:]
		for j := range pad.buttons {
			r = getButton(r, &pad.buttons[j], &err)
		}
		for j := range pad.axes {
			pad.axes[j] = math.Float32frombits(le.Uint32(r))
			r = r[4:]
		}
		pad.dirty = r[0] == 1
		r = r[1:]
		for j := range pad.dirs {
			r = getButton(r, &pad.dirs[j][0], &err)
			r = getButton(r, &pad.dirs[j][1], &err)
		}
	}
	t.textN = int(r[0])
	copy(t.text[:], r[1:])
	switch {
	case err != nil:
		return err
	case t.textN > MaxText:
		return fmt.Errorf("%w: %d bytes of text, over %d", ErrBadState, t.textN, MaxText)
	}
	*s = t
	return nil
}

func putButton(w []byte, b *button) []byte {
	w[0], w[1], w[2] = boolByte(b.down), b.presses, b.releases
	return w[buttonBytes:]
}

func getButton(r []byte, b *button, err *error) []byte {
	if r[0] > 1 && *err == nil {
		*err = fmt.Errorf("%w: a button's level is %d", ErrBadState, r[0])
	}
	*b = button{down: r[0] == 1, presses: r[1], releases: r[2]}
	return r[buttonBytes:]
}

var le = binary.LittleEndian

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}
