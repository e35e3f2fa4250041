package save_test

import (
	"bytes"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/fixstep/fixstep/save"
)

// fuzzed holds what the tank state does not: nested slices, strings,
// pointers, bools, a rand.Rand, a 32-bit-wide int.
type fuzzed struct {
	Names  []string `save:"max=16"`
	Grid   [][]bool `save:"max=8"`
	Ptr    *[4]int32
	Rng    *rand.Rand
	Counts []uint `save:"max=300"`
}

// hollow holds what saves nothing per element: slices of empty structs,
// nested, and of zero-length arrays, whose counts cost no bytes.
type hollow struct {
	Flags  []struct{} `save:"max=16777216"`
	Nested [][]struct{}
	Arrays [][0]int32
}

// FuzzLoad: Load never panics, on any bytes, into a tank state, a fuzzed
// one or a hollow one; what it accepts saves back to the same bytes (one
// state, one encoding); it allocates in proportion to the input (each
// count is checked against the bytes left), never beyond; and its work,
// the nodes it visits (counted, not timed), is at most 4 per byte.
func FuzzLoad(f *testing.F) {
	g := newTankGame()
	f.Add(g.Save(nil))
	for range 120 {
		g.step()
	}
	f.Add(g.Save(nil))
	fz := save.MustFor[fuzzed]()
	f.Add(fz.Append(nil, &fuzzed{Names: []string{"a", "bc"}, Grid: [][]bool{{true}, {}, {false, true}}, Ptr: &[4]int32{1, 2, 3, 4},
		Rng: rand.New(rand.NewPCG(1, 2)), Counts: []uint{math.MaxUint, 3}}))
	f.Add(fz.Append(nil, &fuzzed{}))
	hc := save.MustFor[hollow]()
	f.Add(hc.Append(nil, &hollow{Flags: make([]struct{}, 3), Nested: [][]struct{}{nil, make([]struct{}, 2)}, Arrays: make([][0]int32, 5)}))
	tankHead, fzHead, hHead := tankCodec.Append(nil, &tankState{})[:14], fz.Append(nil, &fuzzed{})[:14], hc.Append(nil, &hollow{})[:14]
	f.Fuzz(func(t *testing.T, src []byte) {
		// The bytes as they come, and under a valid header and checksum
		// as a hostile peer would send them: the checks behind the
		// checksum are what refuse those.
		var tank, other, hol []byte
		if len(src) >= 18 {
			tank = reseal(append(bytes.Clone(tankHead), src[14:]...))
			other = reseal(append(bytes.Clone(fzHead), src[14:]...))
			hol = reseal(append(bytes.Clone(hHead), src[14:]...))
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		var ts [2]tankState
		var vs [2]fuzzed
		var hs hollow
		var visits [5]int
		var errs [5]error
		visits[0], errs[0] = save.LoadVisits(src, &ts[0])
		visits[1], errs[1] = save.LoadVisits(src, &vs[0])
		visits[2], errs[2] = save.LoadVisits(tank, &ts[1])
		visits[3], errs[3] = save.LoadVisits(other, &vs[1])
		visits[4], errs[4] = save.LoadVisits(hol, &hs)
		runtime.ReadMemStats(&after)
		// The world's Restore takes at most about twice len(src); ours a
		// slice header or a pointee per 4 or 1 bytes at worst: five loads.
		if n := after.TotalAlloc - before.TotalAlloc; n > 5*uint64(64*len(src)+1<<16) {
			t.Errorf("five Loads of %d bytes allocated %d", len(src), n)
		}
		for i, v := range visits {
			if v > 4*len(src)+64 {
				t.Errorf("Load %d of %d bytes visited %d nodes, want at most 4 a byte", i, len(src), v)
			}
		}
		canonical(t, tankCodec, src, &ts[0], errs[0])
		canonical(t, fz, src, &vs[0], errs[1])
		canonical(t, tankCodec, tank, &ts[1], errs[2])
		canonical(t, fz, other, &vs[1], errs[3])
		canonical(t, hc, hol, &hs, errs[4])
	})
}

// canonical checks that a state Load accepted from src saves back to the
// same bytes: one state, one encoding.
func canonical[T any](t *testing.T, c *save.Codec[T], src []byte, v *T, err error) {
	if err == nil {
		if again := c.Append(nil, v); !bytes.Equal(again, src) {
			t.Errorf("an accepted %T saves to other bytes: %s", v, c.Diff(src, again))
		}
	}
}
