package physics

import (
	"strings"
	"testing"
)

// TestBodyIDAfterRestore: IDs kept from before a snapshot name the same
// bodies in the world restored from it, though their slots were reused
// meanwhile, and an ID of a body added after it names none; an ID's
// binary form comes back as the same ID.
func TestBodyIDAfterRestore(t *testing.T) {
	var w World
	a := mustAdd(t, &w, Body{Shape: Circle, Radius: 1, Tag: 1})
	b := mustAdd(t, &w, Body{Shape: Circle, Radius: 1, Pos: Vec2{5, 0}, Tag: 2})
	snap := w.Snapshot(nil)
	if err := w.Remove(a); err != nil {
		t.Fatal(err)
	}
	w.Step(1.0 / 60)
	c := mustAdd(t, &w, Body{Shape: Box, HalfW: 1, HalfH: 1, Tag: 3})
	if c.Index() != a.Index() || c == a || w.Alive(a) {
		t.Fatalf("%v did not reuse %v's slot", c, a)
	}
	if err := w.Restore(snap); err != nil {
		t.Fatal(err)
	}
	if !w.Alive(a) || w.Body(a).Tag != 1 || !w.Alive(b) || w.Body(b).Tag != 2 || w.Alive(c) {
		t.Errorf("after Restore: alive %v %v %v, want a and b, not c", w.Alive(a), w.Alive(b), w.Alive(c))
	}
	for _, id := range []BodyID{{}, a, c, {1 << 31, 7}} {
		bin, err := id.AppendBinary([]byte{42})
		var back BodyID
		if err != nil || len(bin) != 1+bodyIDBytes || back.UnmarshalBinary(bin[1:]) != nil || back != id {
			t.Errorf("%v: binary % x (%v), back %v", id, bin, err, back)
		}
	}
	var id BodyID
	if err := id.UnmarshalBinary(make([]byte, 7)); err == nil || !strings.Contains(err.Error(), "7 bytes: want 8") {
		t.Errorf("UnmarshalBinary of 7 bytes: %v", err)
	}
}
