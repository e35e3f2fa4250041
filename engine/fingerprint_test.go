package engine_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/fixstep/fixstep/engine"
)

// drifter is a game whose state is a position driven by every player's
// input; gain is its code's one constant.
type drifter struct {
	pos   float64
	gain  float64
	ticks int
	sound int // played sounds: outside the state
	fail  bool
}

func (d *drifter) Update(t engine.Tick) error {
	if d.fail && t.N == 5 {
		return errors.New("broken")
	}
	for p := range t.Input.Players() {
		d.pos += float64(d.gain*float64(int8(t.Input.Player(p)[0]))) * t.DtSeconds()
	}
	d.ticks++
	if !t.Rerun {
		d.sound++
	}
	return nil
}
func (d *drifter) Draw(engine.Frame)             {}
func (d *drifter) Input(t engine.Tick, b []byte) { b[0] = 100 } // the devices: never read by Fingerprint
func (d *drifter) Save(dst []byte) []byte {
	dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(d.pos))
	return binary.LittleEndian.AppendUint64(dst, uint64(d.ticks))
}
func (d *drifter) Load(src []byte) error {
	d.pos = math.Float64frombits(binary.LittleEndian.Uint64(src))
	d.ticks = int(binary.LittleEndian.Uint64(src[8:]))
	return nil
}

// TestFingerprint: the same code gives the same fingerprint, another
// constant another one, more players another one; the game's state is
// put back and no sound is played.
func TestFingerprint(t *testing.T) {
	cfg := engine.Config{TPS: 60, InputSize: 1}
	fp := func(cfg engine.Config, d *drifter) uint64 {
		t.Helper()
		before := d.Save(nil)
		h, err := engine.Fingerprint(cfg, d)
		if err != nil {
			t.Fatal(err)
		}
		if after := d.Save(nil); !bytes.Equal(before, after) {
			t.Errorf("the state was not put back: %x, was %x", after, before)
		}
		if d.sound != 0 {
			t.Errorf("%d sounds played: every tick must be a rerun", d.sound)
		}
		return h
	}
	a := fp(cfg, &drifter{gain: 0.5})
	if b := fp(cfg, &drifter{gain: 0.5}); a != b {
		t.Errorf("the same game: %016x, then %016x", a, b)
	}
	if b := fp(cfg, &drifter{gain: 0.5000001}); a == b {
		t.Errorf("another constant in the code, the same fingerprint %016x", a)
	}
	if b := fp(engine.Config{TPS: 60, InputSize: 1, Players: 2}, &drifter{gain: 0.5}); a == b {
		t.Errorf("two players, the same fingerprint %016x", a)
	}
	if b := fp(engine.Config{TPS: 30, InputSize: 1}, &drifter{gain: 0.5}); a == b {
		t.Errorf("another tick rate, the same fingerprint %016x", a)
	}
	d := &drifter{gain: 0.5, pos: 3, ticks: 7}
	fp(cfg, d)
	if d.pos != 3 || d.ticks != 7 {
		t.Errorf("state after: pos %v ticks %d, want 3 and 7", d.pos, d.ticks)
	}
	if _, err := engine.Fingerprint(cfg, &drifter{gain: 0.5, fail: true}); err == nil || !strings.Contains(err.Error(), "broken") {
		t.Errorf("a failing Update: %v", err)
	}
}
