// Package determinism defines Analyzer, the check behind cmd/fixvet: it
// reports what makes a fixstep game's simulation give other bits on another
// build, CPU or run, in the code that simulates.
//
// # What it reports
//
//   - A float product added to or subtracted from (x*y + z, z - x*y,
//     z += x*y, x/2 + z since x/2 compiles to x*0.5, and through what holds
//     a product earlier in the function: t := x*y; t + z, or b.vx *= k;
//     b.x += b.vx), float32, float64 or a type parameter that may be one:
//     the Go compiler may fuse it into one multiply-add, rounded once, on
//     arm64, ppc64le, s390x, riscv64 and amd64 v3. Its suggested
//     fix rounds the product, float64(x*y) + z: an explicit conversion is
//     the Go specification's one guarantee against fusion. It also reports
//     a product that reaches an addition through a call the compiler may
//     inline: one
//     returned (return x * s, return vec{v.x * s, v.y * s}) and one passed
//     to a function of the package that adds that parameter. A product of
//     two constants (folded by the compiler) and one already converted are
//     not reported, nor is integer arithmetic.
//   - A math function whose result differs by build (Sin, Cos, Tan, Atan2,
//     Exp, Log, Pow, Hypot and the rest: their Go code fuses, s390x has
//     assembly of its own, amd64's Exp and Log pick code at run time), with
//     the portable function of package detmath where there is one. The
//     exact ones are allowed: Sqrt, Abs, Floor, Ceil, Trunc, Round,
//     RoundToEven, Mod, Remainder, Min, Max, Dim, Copysign, FMA, Frexp,
//     Ldexp, Modf, Nextafter, Pow10 and the bit conversions and tests.
//   - A complex product or quotient (x*y, x/y, z *= y, z /= y, complex64
//     or complex128): Go computes its real part as
//     re(x)*re(y) - im(x)*im(y), which arm64 and amd64 v3 fuse each its
//     own way (three bit patterns with amd64 v1), product alone; a
//     conversion does not stop it, so the fix is real and imaginary
//     parts computed as floats with rounded products. And the functions
//     of math/cmplx but Conj, Inf, NaN, IsInf and IsNaN.
//   - Ranging over a map (or over maps.Keys, maps.Values, maps.All, or
//     slices.Collect of one): the order is random on every range. So is
//     reflect.Value's MapRange, and its MapKeys unless the function sorts
//     the keys (sort.Slice, sort.SliceStable, slices.SortFunc or
//     slices.SortStableFunc of the variable they are assigned to), and
//     sync.Map's Range.
//   - hash/maphash: its functions and a Hash's methods, whose seeds are
//     random on every run.
//   - The clock: time.Now, time.Since, time.Until.
//   - The global random source: the top-level functions of math/rand and
//     math/rand/v2 (rand.Float64, rand.IntN, rand.Shuffle...) and of
//     crypto/rand. A *rand.Rand the game seeds and owns is fine, so
//     rand.New and the source constructors are allowed.
//   - go statements and select statements: the scheduler picks the order.
//
// # What simulates
//
// Only code that simulates is checked. Within the package analyzed, that is
// the bodies (with their function literals) of:
//
//   - the game's tick: a method Update(engine.Tick) error, and a method
//     Input(engine.Tick, []byte) on a type that has such an Update;
//   - a bot: a function, method or function literal of app.Options.Bot's
//     signature, func(uint64, engine.Tick, []byte), since a bot's input
//     decides the world of a -bot run that builds compare;
//   - on a type that has such an Update, its Start(int) error (app.Starter,
//     which builds the world), Save([]byte) []byte and Load([]byte) error
//     (engine.Saver: their bytes are the state hash);
//   - contact callbacks: BeginContact(*physics.Contact) and
//     EndContact(physics.BodyID, physics.BodyID);
//   - set-up and any other code that changes a physics world: a function
//     that calls a World method that changes it (Add, Remove, Step,
//     Teleport, ApplyImpulse, ApplyImpulseAt, ApplyAngularImpulse,
//     ApplyTorque, Wake, Restore, Reserve), writes a physics.Body
//     composite literal, or assigns to a field of a physics.Body or World
//     (other than World.Workers, the pool that steps it: no part of it);
//   - in a command (package main), a function that returns the game (a
//     type with such an Update, or a pointer to one): its constructor;
//   - a function whose doc comment holds a line //fixvet:sim, and every
//     function of a package one of whose files has a //fixvet:sim line
//     before its package clause;
//   - every function those reach through the package's call graph, built
//     from the syntax and types: static calls and references to functions
//     and methods (so method values and functions passed as values are
//     followed), and calls through an interface to every method of the
//     package with that name whose type implements the interface.
//
// A function of another package of the same module that simulating code
// calls is followed through analysis facts: its findings are reported at
// the call, naming their own lines, unless its package reported them
// itself. Not followed: functions stored in variables or fields and called
// later from elsewhere, calls through interfaces into other packages,
// package-level variable initializers, and products stored through a
// pointer or an index (*p = x*y, a[i] = x*y) and added later in the same
// function (the compiler may fuse those too: round a product where it is
// computed). Other modules
// (the engine, the standard library) are not checked: the engine checks its
// own.
//
// The flag -allfuncs checks every function, as if each package were marked:
// the engine compares that with its arm64 disassembly (docs/determinism.md).
//
// Not simulating, so never reported: Draw, Begin, Open and whatever is
// reached only from them, functions that only read a world, and _test.go
// files.
//
// # Accepting a finding
//
// A comment //fixvet:ignore REASON on a finding's line or on the line above
// accepts it; the reason is required (a directive without one is itself
// reported).
package determinism
