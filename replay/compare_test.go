package replay

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fixstep/fixstep/engine"
)

// TestCompareNamesTheFirstDifference: Compare names the first tick whose
// input differs, and the first state hash that differs under the same
// inputs, refuses recordings of other runs, and finds a recording the
// same as itself.
func TestCompareNamesTheFirstDifference(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, params string, ticks uint64, input func(n uint64) []byte, state func(n uint64) []byte) string {
		t.Helper()
		path := filepath.Join(dir, name)
		r, err := RecordSession(path, 60, 2, 2, Header{Params: params, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		for n := range ticks {
			if err := r.Confirmed(n, engine.NewInputs(input(n), 2, 0), state(n)); err != nil {
				t.Fatal(err)
			}
		}
		if err := r.Close(nil); err != nil {
			t.Fatal(err)
		}
		return path
	}
	in := func(n uint64) []byte { return []byte{byte(n / 7), 0, byte(n / 11), 1} }
	st := func(n uint64) []byte { return []byte{byte(n)} }
	a := write("a.fxr", "n=1", 300, in, st)
	b := write("b.fxr", "n=1", 300, func(n uint64) []byte {
		x := in(n)
		if n == 137 {
			x[3] = 0
		}
		return x
	}, st)
	c := write("c.fxr", "n=1", 300, in, func(n uint64) []byte {
		if n >= 180 {
			return []byte{0}
		}
		return st(n)
	})
	d := write("d.fxr", "n=2", 300, in, st)
	short := write("short.fxr", "n=1", 150, in, st)
	for _, k := range []struct {
		b, want string
	}{
		{b, "differ first at tick 137: player 2's input is 0c 01 in"},
		{c, "differ first after 180 ticks: the state hash is"},
		{d, "of different runs"},
		{filepath.Join(dir, "missing.fxr"), "no such file"},
	} {
		if same, err := Compare(a, k.b); err == nil || !strings.Contains(err.Error(), k.want) {
			t.Errorf("Compare(a.fxr, %s) = %q, %v; want %q", filepath.Base(k.b), same, err, k.want)
		}
	}
	if same, err := Compare(a, a); err != nil || same != "the same 300 ticks and 4 state hashes" {
		t.Errorf("Compare(a.fxr, a.fxr) = %q, %v", same, err)
	}
	if same, err := Compare(a, short); err != nil || !strings.HasPrefix(same, "the same for the 150 ticks both hold") {
		t.Errorf("Compare(a.fxr, short.fxr) = %q, %v", same, err)
	}
}
