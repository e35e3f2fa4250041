// Package save saves and loads a game's state: the plain structs, arrays
// and slices that its Update changes, with the physics world, BodyIDs and
// random generator among them, for rollback, -synctest, a late joiner and
// the state hash. A game declares its state as one struct and gets its
// Save, Load and Diff in three lines:
//
//	type state struct {
//		World   physics.World // saved with Snapshot and Restore: put it first
//		Tanks   [4]tank       // tank: a BodyID, floats, ints, bools
//		Bullets []bullet      `save:"max=256"`
//		Rand    *rand.PCG
//	}
//
//	var codec = save.MustFor[state]()
//
//	func (g *game) Save(dst []byte) []byte  { return codec.Append(dst, &g.state) }
//	func (g *game) Load(src []byte) error   { return codec.Load(src, &g.state) }
//	func (g *game) Diff(a, b []byte) string { return codec.Diff(a, b) }
//
// Load loads into what the state points to, in place: a world kept
// elsewhere joins the state as a pointer set once (World *physics.World =
// &g.world), and a *rand.Rand made over the state's *rand.PCG draws from
// the loaded generator.
//
// What it saves. Every field in order, exported or not: bools, integers,
// floats and complexes by their bits (a NaN's payload and a zero's sign
// kept), strings, arrays, slices, pointers (nil or the value they point
// to), structs. A type with AppendBinary and UnmarshalBinary saves
// through them (physics.BodyID, *rand.PCG, *rand.ChaCha8, time.Time); a
// type with Snapshot and Restore saves whole through them (physics.World,
// as a value or a pointer); a rand.Source (inside a *rand.Rand) saves the
// *rand.PCG or *rand.ChaCha8 it holds. A field tagged save:"-" is left
// out: what Update does not change, drawing state, caches.
//
// What it refuses. A map (its order differs from run to run), a func,
// chan, unsafe.Pointer or uintptr, an interface other than rand.Source,
// a recursive type, and a slice of elements that take memory but save
// nothing (every field tagged save:"-"): For's error names the field
// ("main.state.Lookup: a map ...") and MustFor panics with it, when the
// program starts. Two pointers to one value are loaded as two values.
//
// Bounded. Each slice holds at most DefaultMax elements (65,536), a
// string or binary form as many bytes, unless its field's tag says
// save:"max=N" (N at most MaxLimit; an array's or pointer's tag applies
// to its elements' slices and strings, a slice's elements have the
// default). Append panics beyond the limit: a save that Load would refuse
// is a bug found where it is made. Load trusts no count: each is checked
// against its limit and against the bytes left before anything is
// allocated. Its work is linear in its input: every element it visits
// takes a byte of it at least, but for elements of zero size (struct{},
// a zero-length array), which save nothing and cost no work, so a slice
// of them is its count alone, however long (FuzzLoad counts the work per
// byte; a 1 MB [][]struct{} loads in about 50 ms).
//
// The format. A header (magic, version, a 64-bit hash of the type's
// shape: its fields' names, kinds, lengths and limits), the fields in
// order, little-endian, and a CRC-32C of it all. The bytes are the same
// on every CPU and build for the same state, so two saves can be
// compared and hashed; a save from another version of the struct is
// refused, naming the type. Load checks every byte before it writes any
// (a snapshot's own Restore checks it in its field's place, which is why
// the World goes first), and fails with an error wrapping ErrBadState
// that names the field and the number at fault.
//
// Allocation. Append allocates nothing when dst has room; Load nothing
// when the slices have the capacity and the pointers are set (loading
// into the state the saves were made from, as a rollback does), and a
// string only when it changed. A Codec is built once per type (MustFor in
// a package-level variable); the functions Append, Load and Diff take any
// pointer and cache the plan of its type, for code that holds an any.
//
// BodyIDs are saved as they are: a physics.World's snapshot keeps every
// slot's generation, so an ID saved beside the world names the same body
// in the restored world (see physics.BodyID).
package save
