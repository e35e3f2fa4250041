package input

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// Recording input for replays. A Recorder takes what an update is about to
// see of a State, once per tick, and appends it to a byte stream; a Player
// puts the same into another State, tick by tick, so the replayed updates
// read exactly what the recorded ones read: every key's level, presses and
// releases, the mouse, text, and the gamepads.
//
// The stream stores, per tick, only what differs from the tick before
// (after EndTick): an idle tick is one byte. A tick is a flags byte saying
// which parts follow, then those parts:
//
//	keys:  count, then per key: key (uvarint), down, presses, releases
//	mouse: X, Y, PixelX, PixelY, DX, DY, WheelX, WheelY as float32
//	mouse buttons: as keys
//	text:  length (uvarint), bytes
//	pads:  count, then per pad: slot, connected, id (varint), buttons as
//	       keys, then axis count and (axis, float32) pairs

const (
	recKeys = 1 << iota
	recMouse
	recButtons
	recText
	recPads
)

// Recorder appends per-tick input to a byte stream. Its zero value is
// ready. Call Tick at the start of every update, before the game reads the
// state.
type Recorder struct {
	buf  []byte
	last State // what the previous tick saw, after its EndTick
}

// Tick records what the coming update will see of s.
func (r *Recorder) Tick(s *State) {
	b := r.buf
	at := len(b)
	b = append(b, 0)
	var flags byte

	n := 0
	for k := range s.keys {
		if s.keys[k] != r.last.keys[k] {
			n++
		}
	}
	if n > 0 {
		flags |= recKeys
		b = binary.AppendUvarint(b, uint64(n))
		for k := range s.keys {
			if s.keys[k] != r.last.keys[k] {
				b = appendButton(b, uint64(k), s.keys[k])
			}
		}
	}
	if s.mouse != r.last.mouse {
		flags |= recMouse
		m := s.mouse
		for _, f := range [8]float32{m.X, m.Y, m.PixelX, m.PixelY, m.DX, m.DY, m.WheelX, m.WheelY} {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(f))
		}
	}
	if s.buttons != r.last.buttons {
		flags |= recButtons
		b = appendButtons(b, s.buttons[:], r.last.buttons[:])
	}
	if s.textN > 0 {
		flags |= recText
		b = binary.AppendUvarint(b, uint64(s.textN))
		b = append(b, s.text[:s.textN]...)
	}
	n = 0
	for i := range s.pads {
		if !s.pads[i].same(&r.last.pads[i]) {
			n++
		}
	}
	if n > 0 {
		flags |= recPads
		b = append(b, byte(n))
		for i := range s.pads {
			p, q := &s.pads[i], &r.last.pads[i]
			if p.same(q) {
				continue
			}
			b = append(b, byte(i), boolByte(p.Connected))
			b = binary.AppendVarint(b, int64(p.ID))
			b = appendButtons(b, p.buttons[:], q.buttons[:])
			na := 0
			for a := range p.axes {
				if p.axes[a] != q.axes[a] || p.dirs[a] != q.dirs[a] {
					na++
				}
			}
			b = append(b, byte(na))
			for a := range p.axes {
				if p.axes[a] != q.axes[a] || p.dirs[a] != q.dirs[a] {
					b = append(b, byte(a))
					b = binary.LittleEndian.AppendUint32(b, math.Float32bits(p.axes[a]))
					for d := range 2 {
						x := p.dirs[a][d]
						b = append(b, boolByte(x.down), x.presses, x.releases)
					}
				}
			}
		}
	}
	b[at] = flags
	r.buf = b
	// What the next tick is compared with: this tick's state after EndTick.
	r.last = *s
	r.last.EndTick()
}

// Bytes returns the stream so far. It is valid until the next Tick.
func (r *Recorder) Bytes() []byte { return r.buf }

// same reports whether two pads answer every query alike.
func (p *Pad) same(q *Pad) bool {
	return p.Connected == q.Connected && p.ID == q.ID && p.buttons == q.buttons && p.axes == q.axes && p.dirs == q.dirs
}

func appendButton(b []byte, code uint64, x button) []byte {
	b = binary.AppendUvarint(b, code)
	return append(b, boolByte(x.down), x.presses, x.releases)
}

func appendButtons(b []byte, now, before []button) []byte {
	n := 0
	for i := range now {
		if now[i] != before[i] {
			n++
		}
	}
	b = append(b, byte(n))
	for i := range now {
		if now[i] != before[i] {
			b = appendButton(b, uint64(i), now[i])
		}
	}
	return b
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// ErrCorrupt is returned (wrapped) by Player.Tick for a stream that does
// not decode.
var ErrCorrupt = errors.New("input: corrupt recording")

// Player replays a recorded stream into a State. Call Tick at the start of
// every update, where the Recorder was called. Tick ends the previous
// tick's edges itself, so a replay needs no platform that calls EndTick.
type Player struct {
	data []byte
	pos  int
	tick uint64
}

// NewPlayer returns a player of a stream made by Recorder.
func NewPlayer(data []byte) *Player { return &Player{data: data} }

// Feed gives the player the next part of the stream (a replay chunk's
// input), once it is Done with the last: the ticks go on where they were.
// The player reads data until the next Feed; it does not copy it.
func (p *Player) Feed(data []byte) { p.data, p.pos = data, 0 }

// Done reports whether every recorded tick has been played.
func (p *Player) Done() bool { return p.pos >= len(p.data) }

// Tick puts the next recorded tick into s. At the end of the stream it
// leaves s unchanged and returns ErrEnd; a stream that does not
// decode is an error wrapping ErrCorrupt that names the tick.
func (p *Player) Tick(s *State) error {
	if p.Done() {
		return ErrEnd
	}
	// The previous tick's edges are over whether or not the loop called
	// EndTick (a replay may run on a platform that does not).
	s.EndTick()
	d := decoder{data: p.data, pos: p.pos}
	flags := d.byte()
	if flags&recKeys != 0 {
		n := d.uvarint()
		for i := uint64(0); i < n && d.err == nil; i++ {
			k := d.uvarint()
			x := d.button()
			if k >= NumKeys {
				d.fail("key %d out of range", k)
				break
			}
			s.keys[k] = x
			s.markDirty(Key(k))
		}
	}
	if flags&recMouse != 0 {
		var f [8]float32
		for i := range f {
			f[i] = d.float32()
		}
		s.mouse = Mouse{X: f[0], Y: f[1], PixelX: f[2], PixelY: f[3], DX: f[4], DY: f[5], WheelX: f[6], WheelY: f[7]}
	}
	if flags&recButtons != 0 {
		d.buttons(s.buttons[:])
	}
	if flags&recText != 0 {
		n := d.uvarint()
		t := d.bytes(n)
		if n > MaxText {
			d.fail("text of %d bytes", n)
		} else {
			s.textN = copy(s.text[:], t)
		}
	}
	if flags&recPads != 0 {
		n := int(d.byte())
		for range n {
			i := int(d.byte())
			if i >= MaxPads {
				d.fail("pad slot %d", i)
				break
			}
			pad := &s.pads[i]
			pad.Connected = d.byte() == 1
			pad.ID = int32(d.varint())
			d.buttons(pad.buttons[:])
			na := int(d.byte())
			for range na {
				a := int(d.byte())
				if a >= int(NumPadAxes) {
					d.fail("pad axis %d", a)
					break
				}
				pad.axes[a] = d.float32()
				for k := range 2 {
					pad.dirs[a][k] = d.button()
				}
			}
			pad.dirty = true
		}
	}
	if flags&^(recKeys|recMouse|recButtons|recText|recPads) != 0 {
		d.fail("unknown flags 0x%x", flags)
	}
	if d.err != nil {
		return fmt.Errorf("%w at tick %d (byte %d): %v", ErrCorrupt, p.tick, d.pos, d.err)
	}
	p.pos = d.pos
	p.tick++
	return nil
}

// ErrEnd is returned by Player.Tick after the last recorded tick.
var ErrEnd = errors.New("input: end of recording")

// decoder reads a stream, remembering the first error.
type decoder struct {
	data []byte
	pos  int
	err  error
}

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf(format, args...)
	}
}

func (d *decoder) byte() byte {
	if d.err != nil || d.pos >= len(d.data) {
		d.fail("truncated")
		return 0
	}
	d.pos++
	return d.data[d.pos-1]
}

func (d *decoder) bytes(n uint64) []byte {
	if d.err != nil || n > uint64(len(d.data)-d.pos) {
		d.fail("truncated")
		return nil
	}
	d.pos += int(n)
	return d.data[d.pos-int(n) : d.pos]
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.data[d.pos:])
	if n <= 0 {
		d.fail("bad varint")
		return 0
	}
	d.pos += n
	return v
}

func (d *decoder) varint() int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.data[d.pos:])
	if n <= 0 {
		d.fail("bad varint")
		return 0
	}
	d.pos += n
	return v
}

func (d *decoder) uint32() uint32 {
	if b := d.bytes(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (d *decoder) float32() float32 { return math.Float32frombits(d.uint32()) }

func (d *decoder) button() button {
	return button{down: d.byte() == 1, presses: d.byte(), releases: d.byte()}
}

func (d *decoder) buttons(dst []button) {
	n := int(d.byte())
	for range n {
		i := d.uvarint()
		x := d.button()
		if i >= uint64(len(dst)) {
			d.fail("button %d out of range", i)
			return
		}
		dst[i] = x
	}
}
