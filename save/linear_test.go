package save_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/fixstep/fixstep/save"
)

// Types whose elements save nothing: a count in a save stands for as many
// of them as its limit allows, at no cost in bytes.
type (
	// none is a slice of empty structs at the highest limit: 22 bytes
	// hold 16,777,216 of them.
	none struct {
		S []struct{} `save:"max=16777216"`
	}
	// nested are slices of such slices: each 4-byte count of the outer
	// one is an inner slice of up to 65,536.
	nested struct {
		S [][]struct{} `save:"max=262144"`
	}
	deeper struct {
		S [][][]struct{} `save:"max=262144"`
	}
	// arrays of nothing: a zero-length array of strings, an array of
	// a million empty structs.
	arrays struct {
		A [][0]string         `save:"max=262144"`
		B [][1 << 20]struct{} `save:"max=262144"`
		C [4][]struct{ E [0]int }
	}
)

// hostile returns a save of T's layout with the value's bytes made of
// these uint32 counts, under a valid header and checksum, as a hostile
// peer would send it.
func hostile[T any](counts ...uint32) []byte {
	var zero T
	b := bytes.Clone(save.MustFor[T]().Append(nil, &zero)[:14])
	for _, c := range counts {
		b = binary.LittleEndian.AppendUint32(b, c)
	}
	return reseal(append(b, 0, 0, 0, 0))
}

// counts returns n counts of c after the counts in head.
func counts(n int, c uint32, head ...uint32) []uint32 {
	for range n {
		head = append(head, c)
	}
	return head
}

// TestLoadLinear: Load's work is linear in its input, whatever the type,
// empty elements and nested slices of them included: at most 2 node
// visits per byte here. (Before, the 22 bytes of none took 16,777,216
// visits, and 1 MB of nested 17 billion: minutes.) The elements a count
// stands for exist after Load, as many as the count says.
func TestLoadLinear(t *testing.T) {
	const perSlice = 1 << 16 // the inner slices' default limit
	n := (1<<20 - 22) / 4    // inner slices in 1 MB of nested
	check := func(name string, src []byte, v any, wantErr string) {
		t.Helper()
		visits, err := save.LoadVisits(src, v)
		if wantErr == "" && err != nil || wantErr != "" && (!errors.Is(err, save.ErrBadState) || !strings.Contains(err.Error(), wantErr)) {
			t.Errorf("%s: %v, want %q", name, err, wantErr)
		}
		if visits > 2*len(src)+64 { // fatal: the next case would take minutes
			t.Fatalf("%s: Load of %d bytes visited %d nodes, want at most %d", name, len(src), visits, 2*len(src)+64)
		}
	}
	var a none
	check("none", hostile[none](1<<24), &a, "")
	if len(a.S) != 1<<24 {
		t.Errorf("none: %d elements loaded, want %d", len(a.S), 1<<24)
	}
	var b nested
	check("nested", hostile[nested](counts(n, perSlice, uint32(n))...), &b, "")
	if len(b.S) != n || len(b.S[0]) != perSlice || len(b.S[n-1]) != perSlice {
		t.Errorf("nested: %d slices loaded, want %d of %d", len(b.S), n, perSlice)
	}
	// An outer count of more inner slices than the bytes hold: refused
	// before anything is made.
	check("nested, cut", hostile[nested](counts(n, perSlice, uint32(n+1))...), &nested{}, "elements of at least 4 bytes each")
	check("deeper", hostile[deeper](counts(4*(perSlice+1), perSlice, 4)...), &deeper{}, "")
	var c arrays
	check("arrays", hostile[arrays](1<<18, 1<<18, perSlice, perSlice, perSlice, perSlice), &c, "")
	if len(c.A) != 1<<18 || len(c.B) != 1<<18 || len(c.C[3]) != perSlice {
		t.Errorf("arrays: loaded lengths %d %d %d", len(c.A), len(c.B), len(c.C[3]))
	}
}

// TestEmptyElementsRoundTrip: slices of elements that save nothing keep
// their lengths, and save and load in place without allocating.
func TestEmptyElementsRoundTrip(t *testing.T) {
	c := save.MustFor[arrays]()
	v := arrays{A: make([][0]string, 3), B: make([][1 << 20]struct{}, 70), C: [4][]struct{ E [0]int }{nil, make([]struct{ E [0]int }, 5)}}
	b := c.Append(nil, &v)
	var got arrays
	if err := c.Load(b, &got); err != nil || len(got.A) != 3 || len(got.B) != 70 || len(got.C[0]) != 0 || len(got.C[1]) != 5 {
		t.Fatalf("%v: loaded lengths %d %d %d %d, want 3 70 0 5", err, len(got.A), len(got.B), len(got.C[0]), len(got.C[1]))
	}
	if n := testing.AllocsPerRun(20, func() { c.Load(b, &got); b = c.Append(b[:0], &got) }); n != 0 {
		t.Errorf("Load and Append in place: %v allocations, want 0", n)
	}
	if d := c.Diff(b, c.Append(nil, &arrays{B: make([][1 << 20]struct{}, 71)})); d != "A: 3 elements != 0" {
		t.Errorf("Diff %q", d)
	}
}

// TestRefusesSizedNothing: a slice of elements that take memory but save
// nothing is refused, naming the field: Load would make up to its limit of
// them from 4 bytes.
func TestRefusesSizedNothing(t *testing.T) {
	type cached struct {
		Cache [64]float64 `save:"-"`
	}
	_, err := save.For[struct{ L []cached }]()
	if !errors.Is(err, save.ErrType) || !strings.Contains(err.Error(), ".L: a slice of save_test.cached, which saves nothing of its elements (512 bytes each") {
		t.Errorf("For: %v, want ErrType naming L", err)
	}
	// A pointer to one costs a byte: allowed.
	if _, err := save.For[struct{ P []*cached }](); err != nil {
		t.Errorf("For of []*cached: %v", err)
	}
}

// BenchmarkLoadNested loads a 1 MB nested: 262,144 slices of 65,536 empty
// structs each (BENCHMARKS.md).
func BenchmarkLoadNested(b *testing.B) {
	n := (1<<20 - 22) / 4
	src := hostile[nested](counts(n, 1<<16, uint32(n))...)
	var v nested
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if err := save.Load(src, &v); err != nil {
			b.Fatal(err)
		}
	}
}
