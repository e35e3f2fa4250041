package save_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/fixstep/fixstep/internal/fnv"
	"github.com/fixstep/fixstep/physics"
	"github.com/fixstep/fixstep/save"
)

// every holds one of each kind save takes.
type every struct {
	B       bool
	I8      int8
	I16     int16
	I32     int32
	I64     int64
	I       int
	U8      uint8
	U16     uint16
	U32     uint32
	U64     uint64
	U       uint
	F32     float32
	F64     float64
	C64     complex64
	C128    complex128
	S       string
	Raw     []byte
	Arr     [3]physics.Vec2
	Nested  [][]int16
	Ptr     *inner
	NilPtr  *inner
	ID      physics.BodyID
	PCG     *rand.PCG
	Rand    *rand.Rand
	Chacha  rand.Source
	hidden  float64 // unexported fields are saved too
	Skipped func()  `save:"-"`
}

type inner struct {
	Name  string `save:"max=8"`
	Flags [2]bool
}

func filled() *every {
	pcg := rand.NewPCG(3, 4)
	pcg.Uint64()
	var seed [32]byte
	seed[0] = 9
	return &every{
		B: true, I8: -8, I16: -16, I32: -32, I64: math.MinInt64, I: math.MinInt,
		U8: 8, U16: 16, U32: 32, U64: math.MaxUint64, U: math.MaxUint,
		F32: float32(math.Float64frombits(0x7ff8_0000_0000_0001)), F64: math.Float64frombits(0x7ff0_0000_dead_beef), // NaNs with payloads
		C64: complex(float32(math.Copysign(0, -1)), 1.5), C128: complex(-2.25, math.Inf(-1)),
		S: "tank ☃", Raw: []byte{0, 1, 2, 255}, Arr: [3]physics.Vec2{{X: 1, Y: 2}, {X: -0.0}, {X: 5e-324}},
		Nested: [][]int16{{1, 2}, nil, {3}}, Ptr: &inner{Name: "crate", Flags: [2]bool{false, true}},
		PCG: pcg, Rand: rand.New(rand.NewPCG(5, 6)), Chacha: rand.NewChaCha8(seed), hidden: 0.1,
	}
}

// TestRoundTrip: every kind comes back bit for bit, into a zero value and
// into one that holds other values, and saves to the same bytes again.
func TestRoundTrip(t *testing.T) {
	c := save.MustFor[every]()
	v := filled()
	b := c.Append(nil, v)
	for _, into := range []*every{{}, filled(), {NilPtr: &inner{Name: "gone"}, Raw: make([]byte, 10)}} {
		if err := c.Load(b, into); err != nil {
			t.Fatal(err)
		}
		if again := c.Append(nil, into); !bytes.Equal(again, b) {
			t.Fatalf("a loaded value saves to other bytes: %s", c.Diff(b, again))
		}
		if math.Float64bits(into.F64) != 0x7ff0_0000_dead_beef || math.Float32bits(into.F32) != math.Float32bits(v.F32) {
			t.Errorf("NaN payloads %#x %#x, want %#x %#x", math.Float64bits(into.F64), math.Float32bits(into.F32), uint64(0x7ff0_0000_dead_beef), math.Float32bits(v.F32))
		}
		if !math.Signbit(float64(real(into.C64))) || into.hidden != 0.1 || into.NilPtr != nil || into.Ptr.Name != "crate" || into.ID != v.ID {
			t.Errorf("loaded %+v", into)
		}
		// The generators go on as the saved ones do.
		if a, b := into.PCG.Uint64(), v.PCG.Uint64(); a != b {
			t.Errorf("PCG draws %d, saved one %d", a, b)
		}
		if a, b := into.Rand.Uint64(), v.Rand.Uint64(); a != b {
			t.Errorf("rand.Rand draws %d, saved one %d", a, b)
		}
		if a, b := into.Chacha.Uint64(), v.Chacha.Uint64(); a != b {
			t.Errorf("ChaCha8 draws %d, saved one %d", a, b)
		}
		v = filled()
	}
	// The package functions take the same bytes.
	var w every
	if err := save.Load(b, &w); err != nil {
		t.Fatal(err)
	}
	if b2, err := save.Append(nil, &w); err != nil || !bytes.Equal(b2, b) {
		t.Errorf("save.Append: %v, same bytes %v", err, bytes.Equal(b2, b))
	}
}

// TestRefusesTypes: a map, func, chan, unsafe.Pointer, an interface other
// than rand.Source, a recursive type and a bad tag are refused, naming
// the field.
func TestRefusesTypes(t *testing.T) {
	type node struct{ Next *node }
	type deep struct{ Inner struct{ M map[int]int } }
	check := func(name string, err error, want string) {
		t.Helper()
		if !errors.Is(err, save.ErrType) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want ErrType naming %q", name, err, want)
		}
	}
	_, err := save.For[deep]()
	check("map", err, "save_test.deep.Inner.M: a map")
	_, err = save.For[struct{ F func() }]()
	check("func", err, ".F: a func")
	_, err = save.For[struct{ C []chan int }]()
	check("chan", err, ".C[]: a chan")
	_, err = save.For[struct{ P unsafe.Pointer }]()
	check("unsafe.Pointer", err, ".P: a unsafe.Pointer")
	_, err = save.For[struct{ A [2]any }]()
	check("any", err, ".A[]: an interface")
	_, err = save.For[node]()
	check("recursive", err, ".Next: the recursive type save_test.node")
	_, err = save.For[struct {
		S []int `save:"max=lots"`
	}]()
	check("tag", err, `.S: the tag save:"max=lots"`)
	if _, err := save.Append(nil, struct{}{}); !errors.Is(err, save.ErrType) {
		t.Errorf("Append of a non-pointer: %v, want ErrType", err)
	}
}

// reseal recomputes the checksum of a save a test changed, as a hostile
// peer would, so the checks behind it are what refuse it.
func reseal(b []byte) []byte {
	binary.LittleEndian.PutUint32(b[len(b)-4:], crc32.Checksum(b[:len(b)-4], crc32.MakeTable(crc32.Castagnoli)))
	return b
}

type small struct {
	On   bool
	P    *int32
	List []uint16 `save:"max=4"`
	Name string
}

// TestLoadRefuses: damaged, cut, extended, of another layout, a count
// above its limit or the bytes left, a bool or pointer byte out of range:
// each refused with ErrBadState naming the field, and the value unchanged.
func TestLoadRefuses(t *testing.T) {
	c := save.MustFor[small]()
	seven := int32(7)
	good := c.Append(nil, &small{On: true, P: &seven, List: []uint16{1, 2}, Name: "ab"})
	// header 14, On 1, P 1+4, List 4+2·2, Name 4+2, crc 4
	const on, list, name = 14, 20, 28
	change := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(good)) }
	for _, tc := range []struct {
		name string
		src  []byte
		want string
	}{
		{"damaged", change(func(b []byte) []byte { b[on+2]++; return b }), "checksum"},
		{"cut", good[:len(good)-1], "checksum"},
		{"empty", nil, "0 bytes"},
		{"magic", change(func(b []byte) []byte { b[0] = 'X'; return reseal(b) }), `begins "XXSV"`},
		{"version", change(func(b []byte) []byte { b[4] = 9; return reseal(b) }), "format version 9"},
		{"layout", save.MustFor[struct{ On bool }]().Append(nil, &struct{ On bool }{}), "another layout"},
		{"bool", change(func(b []byte) []byte { b[on] = 2; return reseal(b) }), "save_test.small.On: bool byte 2"},
		{"pointer", change(func(b []byte) []byte { b[on+1] = 3; return reseal(b) }), "small.P: pointer byte 3"},
		{"limit", change(func(b []byte) []byte { b[list] = 5; return reseal(b) }), "small.List: 5 elements, above the limit of 4"},
		{"bytes left", change(func(b []byte) []byte { b[name] = 200; return reseal(b) }), "small.Name: 200 bytes of at least 1 bytes each, in the 2 bytes left"},
		{"left over", reseal(append(bytes.Clone(good), 0)), "1 bytes left over"},
	} {
		v := small{List: []uint16{9}}
		err := c.Load(tc.src, &v)
		if !errors.Is(err, save.ErrBadState) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want ErrBadState with %q", tc.name, err, tc.want)
		}
		if v.On || v.P != nil || len(v.List) != 1 || v.List[0] != 9 || v.Name != "" {
			t.Errorf("%s: a refused Load changed the value: %+v", tc.name, v)
		}
	}
	var v small
	if err := c.Load(good, &v); err != nil || *v.P != 7 || v.Name != "ab" || len(v.List) != 2 {
		t.Errorf("good: %v, %+v", err, v)
	}
}

// TestAppendPanicsOverLimit: a slice longer than its limit is a save Load
// would refuse: Append panics naming the field.
func TestAppendPanicsOverLimit(t *testing.T) {
	defer func() {
		r, _ := recover().(string)
		if !strings.Contains(r, "save_test.small.List (a []uint16): 5 elements, above its limit of 4") {
			t.Errorf("panic %q, want one naming List and its limit", r)
		}
	}()
	save.MustFor[small]().Append(nil, &small{List: make([]uint16, 5)})
}

// TestDiff names the first field that differs, by its Go path and both
// values.
func TestDiff(t *testing.T) {
	g := newTankGame()
	a := g.Save(nil)
	if d := g.Diff(a, a); d != "" {
		t.Errorf("Diff of a state with itself: %q", d)
	}
	g.state.Tanks[2].Aim = 0.25
	b := g.Save(nil)
	g.state.Tanks[2].Aim = 0.5
	c := g.Save(nil)
	if d := g.Diff(b, c); d != "Tanks[2].Aim: 0.25 != 0.5" {
		t.Errorf("Diff %q, want Tanks[2].Aim: 0.25 != 0.5", d)
	}
	g.state.Bullets = append(g.state.Bullets, bullet{TTL: 3})
	if d := g.Diff(c, g.Save(nil)); d != "Bullets: 0 elements != 1" {
		t.Errorf("Diff %q, want Bullets: 0 elements != 1", d)
	}
	g.state.Bullets[0].Vel.Y = math.NaN()
	x := g.Save(nil)
	g.state.Bullets[0].Vel.Y = math.Float64frombits(math.Float64bits(math.NaN()) + 1)
	if d := g.Diff(x, g.Save(nil)); !strings.HasPrefix(d, "Bullets[0].Vel.Y: NaN (bytes 01") {
		t.Errorf("Diff %q, want Bullets[0].Vel.Y: NaN with its bytes", d)
	}
	g.state.World.Body(g.state.Tanks[1].Body).Vel.X = 3
	if d := g.Diff(c, g.Save(nil)); d != "World: body 5 (tag 1) Vel.X: 0 != 3" {
		t.Errorf("Diff %q, want the world's body 5 named", d)
	}
	g.state.Rand.Uint64()
	if d := save.Diff(c, g.Save(nil), (*tankState)(nil)); !strings.HasPrefix(d, "World: ") {
		t.Errorf("save.Diff %q, want the world first", d)
	}
	if d := g.Diff(c, []byte("junk")); !strings.HasPrefix(d, "b: save: bad saved state") {
		t.Errorf("Diff with junk: %q", d)
	}
}

// TestBodyIDsAfterRestore: BodyIDs saved beside the world name the same
// bodies after a Load, even once their slots were reused; and the game
// goes on as it would have, bit for bit.
func TestBodyIDsAfterRestore(t *testing.T) {
	g := newTankGame()
	for range 30 {
		g.step()
	}
	saved := g.Save(nil)
	var want []byte
	ref := newTankGame()
	if err := ref.Load(saved); err != nil {
		t.Fatal(err)
	}
	ref.rng = rand.New(ref.state.Rand)
	for range 60 {
		ref.step()
	}
	want = ref.Save(want)

	// Change the world: tank 1 destroyed, a crate added in its slot (a
	// new generation), and on.
	s := &g.state
	old := s.Tanks[1].Body
	if err := s.World.Remove(old); err != nil {
		t.Fatal(err)
	}
	s.World.Step(1.0 / 60)
	crate := mustAdd(&s.World, physics.Body{Shape: physics.Circle, Radius: 1, Tag: 99})
	if crate.Index() != old.Index() || s.World.Alive(old) {
		t.Fatalf("crate %v did not take tank 1's slot %v", crate, old)
	}
	for range 10 {
		g.step()
	}
	if err := g.Load(saved); err != nil {
		t.Fatal(err)
	}
	for i, tk := range s.Tanks {
		if !s.World.Alive(tk.Body) || s.World.Body(tk.Body).Tag != int32(i) {
			t.Fatalf("after Load, tank %d's %v is not its body", i, tk.Body)
		}
	}
	if s.World.Alive(crate) {
		t.Errorf("after Load, the crate's %v names a body", crate)
	}
	for range 60 {
		g.step()
	}
	if got := g.Save(nil); !bytes.Equal(got, want) {
		t.Errorf("after Load the game went elsewhere: %s", g.Diff(want, got))
	}
}

// TestZeroAllocs: a rollback's save and load allocate nothing.
func TestZeroAllocs(t *testing.T) {
	g := newTankGame()
	for range 100 {
		g.step()
	}
	if len(g.state.Bullets) == 0 {
		t.Fatal("no bullets in flight")
	}
	buf := g.Save(nil)
	if n := testing.AllocsPerRun(100, func() { buf = g.Save(buf[:0]) }); n != 0 {
		t.Errorf("Save: %v allocations, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() {
		if err := g.Load(buf); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("Load: %v allocations, want 0", n)
	}
	var err error
	if n := testing.AllocsPerRun(100, func() { buf, err = save.Append(buf[:0], &g.state) }); n != 0 || err != nil {
		t.Errorf("save.Append: %v allocations (%v), want 0", n, err)
	}
	v, b, c := filled(), []byte(nil), save.MustFor[every]()
	// ChaCha8's own AppendBinary allocates under the race detector (the
	// standard library's Marshal): a Source holding a PCG here.
	v.Chacha = rand.NewPCG(7, 8)
	b = c.Append(b, v)
	if n := testing.AllocsPerRun(100, func() {
		b = c.Append(b[:0], v)
		if err := save.Load(b, v); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("every kind: %v allocations, want 0", n)
	}
}

func BenchmarkTankSave(b *testing.B) {
	g := newTankGame()
	for range 100 {
		g.step()
	}
	buf := g.Save(nil)
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		buf = g.Save(buf[:0])
	}
}

func BenchmarkTankLoad(b *testing.B) {
	g := newTankGame()
	for range 100 {
		g.step()
	}
	buf := g.Save(nil)
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		if err := g.Load(buf); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSkippedFields: a field tagged save:"-" keeps its value in Load, and
// is zero in a slice element Load adds, even one in the capacity that
// held another element before.
func TestSkippedFields(t *testing.T) {
	type elem struct {
		N     int32
		Cache float64 `save:"-"`
	}
	type state struct {
		List  []elem
		Cache string `save:"-"`
	}
	c := save.MustFor[state]()
	b := c.Append(nil, &state{List: []elem{{N: 1, Cache: 5}, {N: 2, Cache: 6}}, Cache: "x"})
	v := state{List: make([]elem, 1, 4), Cache: "kept"}
	full := v.List[:2]
	full[1].Cache = 9 // a stale element in the capacity
	if err := c.Load(b, &v); err != nil {
		t.Fatal(err)
	}
	if v.Cache != "kept" || len(v.List) != 2 || v.List[0] != (elem{N: 1}) || v.List[1] != (elem{N: 2}) {
		t.Errorf("loaded %+v, want List [{1 0} {2 0}] and Cache kept", v)
	}
}

// TestLayoutNamesFields: a field renamed, retyped or given another limit
// is another layout, which Load refuses naming the type.
func TestLayoutNamesFields(t *testing.T) {
	type v1 struct {
		On    bool
		Score int32
		List  []int8 `save:"max=4"`
	}
	b := save.MustFor[v1]().Append(nil, &v1{})
	type renamed struct {
		On     bool
		Points int32
		List   []int8 `save:"max=4"`
	}
	type retyped struct {
		On    bool
		Score int64
		List  []int8 `save:"max=4"`
	}
	type limit struct {
		On    bool
		Score int32
		List  []int8 `save:"max=5"`
	}
	for _, err := range []error{
		save.Load(b, &renamed{}), save.Load(b, &retyped{}), save.Load(b, &limit{}),
	} {
		if !errors.Is(err, save.ErrBadState) || !strings.Contains(err.Error(), "another layout") || !strings.Contains(err.Error(), "save_test.") {
			t.Errorf("%v, want another layout named", err)
		}
	}
	if err := save.Load(b, &v1{}); err != nil {
		t.Error(err)
	}
}

// tanksOnly is the tank state without its world: what package save costs
// by itself (the world's Snapshot and Restore have their own benchmarks).
type tanksOnly struct {
	Tanks   [4]tank
	Bullets []bullet `save:"max=256"`
	Rand    *rand.PCG
	Tick    uint64
}

func benchTanks(b *testing.B, load bool) {
	g := newTankGame()
	for range 100 {
		g.step()
	}
	s := &g.state
	v := tanksOnly{Tanks: s.Tanks, Bullets: s.Bullets, Rand: s.Rand, Tick: s.Tick}
	c := save.MustFor[tanksOnly]()
	buf := c.Append(nil, &v)
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		if load {
			if err := c.Load(buf, &v); err != nil {
				b.Fatal(err)
			}
		} else {
			buf = c.Append(buf[:0], &v)
		}
	}
	b.ReportMetric(float64(len(v.Bullets)), "bullets")
}

func BenchmarkTanksOnlySave(b *testing.B) { benchTanks(b, false) }
func BenchmarkTanksOnlyLoad(b *testing.B) { benchTanks(b, true) }

// TestZeroCodec: the zero Codec works as MustFor's, and panics with For's
// error for a type that cannot be saved.
func TestZeroCodec(t *testing.T) {
	var c save.Codec[small]
	seven := int32(7)
	b := c.Append(nil, &small{P: &seven, Name: "z"})
	if !bytes.Equal(b, save.MustFor[small]().Append(nil, &small{P: &seven, Name: "z"})) {
		t.Error("the zero Codec saves other bytes than MustFor's")
	}
	var v small
	if err := c.Load(b, &v); err != nil || *v.P != 7 || v.Name != "z" || c.Diff(b, b) != "" {
		t.Errorf("zero Codec: %v, %+v", err, v)
	}
	defer func() {
		if r, _ := recover().(string); !strings.Contains(r, ".M: a map") {
			t.Errorf("panic %q, want For's error naming M", r)
		}
	}()
	var bad save.Codec[struct{ M map[int]int }]
	bad.Append(nil, &struct{ M map[int]int }{})
}

// TestIntWidth: int and uint save as 8 bytes on every build, so a save
// moves between 32- and 64-bit builds; a 32-bit build refuses a value
// that does not fit its int, naming it, and a 64-bit one takes it.
func TestIntWidth(t *testing.T) {
	type ints struct {
		I int
		U uint
	}
	c := save.MustFor[ints]()
	b := c.Append(nil, &ints{I: -5, U: 5})
	var v ints
	if err := c.Load(b, &v); err != nil || v != (ints{-5, 5}) {
		t.Fatalf("%v, %+v", err, v)
	}
	big := bytes.Clone(b)
	binary.LittleEndian.PutUint64(big[14:], uint64(1<<40)) // I
	err := c.Load(reseal(big), &v)
	if strconv.IntSize == 64 {
		if err != nil || int64(v.I) != 1<<40 {
			t.Errorf("64-bit: %v, I %d, want 1<<40", err, v.I)
		}
		return
	}
	if !errors.Is(err, save.ErrBadState) || !strings.Contains(err.Error(), "ints.I: int 1099511627776 does not fit this build's 32-bit int") {
		t.Errorf("32-bit: %v, want I refused", err)
	}
}

// goldenSave is the FNV-1a hash of golden()'s save: the format's bytes,
// the same on every CPU and build (checked under GOARCH=386, arm64 and
// s390x, big-endian). A change to the format changes it, and its version.
const goldenSave = 0x71d8d91205d195e3

func golden() *every {
	v := filled()
	v.I, v.U = -1<<31, 1<<32-1 // within every build's int and uint
	v.Rand, v.Chacha = nil, rand.NewPCG(11, 12)
	return v
}

// TestGoldenBytes: the same state saves to the same bytes everywhere.
func TestGoldenBytes(t *testing.T) {
	b := save.MustFor[every]().Append(nil, golden())
	if got := fnv.Bytes(fnv.Offset, b); got != goldenSave {
		t.Errorf("the save's hash %#x, want %#x (%d bytes: % x)", got, uint64(goldenSave), len(b), b)
	}
}

// TestPointersLoadInPlace: a world and a generator the state points to
// are loaded where they are, so a game's other references to them (its
// g.world, its *rand.Rand) see the loaded state.
func TestPointersLoadInPlace(t *testing.T) {
	type state struct {
		World *physics.World
		Rand  *rand.PCG
	}
	var world physics.World
	id := mustAdd(&world, physics.Body{Shape: physics.Circle, Radius: 1, Vel: physics.Vec2{X: 1}})
	pcg := rand.NewPCG(1, 2)
	rng := rand.New(pcg)
	s := state{World: &world, Rand: pcg}
	c := save.MustFor[state]()
	b := c.Append(nil, &s)
	want := []uint64{rng.Uint64(), rng.Uint64()}
	world.Step(1.0 / 60)
	if err := c.Load(b, &s); err != nil {
		t.Fatal(err)
	}
	if s.World != &world || s.Rand != pcg {
		t.Fatal("Load replaced a pointer the state held")
	}
	if got := []uint64{rng.Uint64(), rng.Uint64()}; got[0] != want[0] || got[1] != want[1] || world.Body(id).Pos.X != 0 {
		t.Errorf("after Load: draws %v, want %v; x %v, want 0", got, want, world.Body(id).Pos.X)
	}
}
