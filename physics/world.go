// Package physics is fixstep's deterministic fixed-step world: circles,
// boxes and convex polygons of up to 8 vertices (NewHull) that turn, or
// stay upright (Body.FixedRotation), under gravity, with restitution,
// friction, rolling resistance (Body.AngularDamping), drag
// (Body.LinearDamping), a
// hierarchical spatial hash broad phase (movers rebuilt every step, statics
// in a grid of their own), sub-stepping against static bodies so fast
// small bodies do not tunnel through thin walls, sleeping, collision
// layers, ray, box and sweep queries, and contact events that carry the
// normal, the point, the depth and the impulse.
//
// # Untrusted numbers
//
// A world contains what a game, a level file or a peer gives it. Add
// refuses a number that is not finite or out of its limit (MaxCoordinate,
// MaxSpeed, MaxAngularSpeed, MinSize..MaxSize, MinMass..MaxMass,
// MaxInertia, MaxDamping, MaxFriction; a polygon's Hull from NewHull),
// naming the field, and a dynamic body that would make the world's
// heaviest more than MaxMassRatio (100) times its lightest, naming both
// masses (see Mass ratio below); Step panics on a dt or a setting out of range, a caller bug; a
// body the game makes non-finite between steps is taken out before it
// touches anything (Faults, FaultListener); Restore refuses a snapshot
// holding any of these, or settings above Step's limits; the queries
// ignore non-finite input; a step solves at most MaxContactsPerBody contacts per body
// (Overloads). The broad phase stays near-linear whatever the layout: a
// giant among small bodies, bodies a billion units apart, thousands of
// statics, fast bodies sub-stepped among them. Remove is O(1), and IDs
// never wrap into a live body's or the zero ID.
//
// A World is stepped only by the engine's fixed tick, with the same dt every
// time, so the same inputs give a bit-identical world whatever the frame
// rate. Every body keeps its position at the previous tick and the current
// one for the renderer to interpolate.
//
// # Determinism
//
// The world is the same bit for bit on every build and CPU: amd64
// (GOAMD64=v1 or v3), 386, arm64, s390x, debugger builds. Every product
// that is added to is rounded explicitly (float64(x*y) + z), so no
// compiler fuses it into a multiply-add, and the only math functions used
// are exact ones (Sqrt, Floor, Abs): see package detmath. Vec2's Scale,
// Mul, Dot and Len round for you. tools/worldhash checks golden hashes on
// all those builds (make cross). Snapshot and Restore save and load the
// whole world, for rollback, sync tests and save files: a world restores
// its own snapshots unchecked (a rollback's case), any other bytes
// checked, as untrusted input; Diff names the first body and field in
// which two snapshots differ.
//
// Bodies are a slice of structs, not a pointer graph. What allocates, and
// when:
//   - Add, when the world holds more body slots than ever before (a slot is
//     reused after Remove, so a game that adds and removes bullets stays at
//     its high-water mark); its lists and grids grow with it.
//   - Step, when a tick finds more contacts than any tick before (a
//     pile-up), or when the grids meet more occupied cells than before.
//   - Snapshot, only into a dst too small or new (a buffer's first
//     snapshot makes the weak pointer by which Restore knows it: one small
//     allocation); Restore, to a snapshot's size;
//     queries, only into a dst too small; Diff, always (it is a report).
//   - Nothing else: Remove, Body, Contacts, Teleport, the events and the
//     casts allocate nothing, ever.
//
// Capacity is kept at the high-water mark and never shrinks. Reserve(n)
// sizes everything a world of n body slots needs at once, its contacts
// included (MaxContactsPerBody a slot), so that after one call nothing
// grows while the game runs: a shooter adding and removing 300 bodies a
// tick reads 0 allocations for ten minutes (TestChurnAfterReserve).
//
// # Workers
//
// World.Workers steps a world on a pool of goroutines (NewWorkers), the
// caller included, to the same bits as one goroutine steps it: a step is
// cut into stages of blocks, and every worker takes blocks in turn. The
// blocks come from the world, never from the workers: bodies 128 at a
// time, the broad phase's grid entries and the movers 64 at a time, a
// colour's constraints 32 at a time. A block writes only what its own
// items own. The pairs each block finds are joined in block order by the
// caller, so the contacts, and their order, are those one goroutine
// finds; the constraints are coloured (see Rotation) in that order, and
// no two of a colour move one body, so each body's velocity sums its
// impulses in the same order on any pool. What the workers share: each
// mover's checks and start of the step, the pair search and narrow phase
// (and each contact's recording and warm start), the soft step's gravity,
// moves, warm starts, soft and relax passes (a colour at a time; the
// constraints that found no colour on the caller, in their order), the
// impulses kept, and the bodies' velocities, angles and positions.
// What stays on the caller: the grid's build, the join and the colouring,
// restitution, faults, sleeping and islands, the statics' last push,
// events, and in a world in which nothing turns the whole solver. A
// world of fewer movers than the pool's MinBodies (1,000) steps on the
// caller alone, as does a stage of fewer than 64 items; a step allocates
// nothing and starts no goroutine, and the caller can finish every block
// alone, so a pool of more workers than cores costs time, never another
// world.
//
// Units are yours (metres or pixels, seconds, mass 1 by default); angles
// are radians, counter-clockwise, and a body's moment of inertia is its
// shape's for its mass unless Body.Inertia says otherwise.
//
// # The solver
//
// Each tick of an upright world (see Rotation for a turning one): gravity; contacts found at the current positions; a velocity
// solve by sequential impulses (Catto's method, as in Box2D and Chipmunk2D):
// for every contact an accumulated normal impulse clamped to push only, and
// an accumulated friction impulse clamped to the Coulomb cone, over
// Iterations passes, warm-started with the impulses the same contact had at
// the last tick, matched by its feature key (the pair and, for two boxes,
// the face); then positions move (in sub-steps against statics for fast
// bodies); then PositionIterations passes of non-linear Gauss-Seidel
// position correction take overlap beyond the slop out of the positions
// directly, never out of the velocities, so resting contacts gain no
// energy and nothing jitters; a last pass projects dynamic bodies out of
// static ones, so no body ends a tick deeper in a static than the slop.
// NGS over split impulses: it needs no second velocity state and costs one
// narrow-phase test per contact and pass; over speculative contacts: it
// never makes a body stop short of a surface it did not reach.
//
// The numbers: slop 0.005 units of overlap left alone (resting contacts
// keep touching, so warm starting and events see them); position
// correction 0.2 of the rest per pass, at most 0.2 units; restitution only
// when bodies meet faster than 1 unit/s (so a resting box does not keep
// bouncing on its own weight); a body sleeps after 0.5 s below 0.05
// units/s (its speed, and its spin times its outer radius), with
// everything it touches, and wakes when something awake touches it, when
// it is teleported, given an impulse or a velocity.
//
// # Mass ratio
//
// The solver holds a heavy body up on a light one up to MaxMassRatio,
// 100 to 1, the heaviest dynamic body of a world to its lightest, and Add
// refuses a body beyond it (ErrMassRatio). At 100 to 1 a unit box under
// a gravity of 9.8 sinks into the box under it by at most 0.020 units
// upright and 0.008 turning (2 % and 0.8 % of its size), on the ground or
// on a pile; at 1,000 to 1 by up to 0.47 upright and 0.08 turning; at
// 3,000 to 1 it sinks in whole, and at 10,000 to 1 the two swap places
// (turning, on a pile, the heavy box falls through the pile and the
// ground). A contact's depth grows with the load over the lighter body's
// mass, and sequential passes carry a load many times the weight of what
// holds it only slowly. TestMassRatioHeld holds the first figures.
//
// # Rotation
//
// A pair in which a body can turn (or spins) is found by separating axes
// (for boxes and polygons, at any angle) and its reference face clipped
// against the incident one, as Box2D does: up to two points, each with a
// depth and a feature id (reference face, which body it is on, incident
// vertex or the side that clipped it) that stays the same from tick to
// tick, so each point is warm-started with its own last impulses.
//
// A world in which any body can turn (or a kinematic body spins) is
// solved by the soft step (Catto's, as in Box2D v3; our own code), all
// its pairs alike: Substeps sub-steps a tick (5), each of which adds
// gravity, applies every contact's accumulated impulses again, solves each
// contact once with a soft push out of overlap, moves and turns the
// bodies, and solves each contact once more without the push (relaxing),
// which takes back the velocity the push added wherever an impulse holds
// the pair together. A point's separation is measured
// in every pass from where the two bodies have moved and turned since the
// tick began, without the narrow phase. A pair is a contact while its gap
// is under the slop plus what the pair could close within the tick (the
// grid pads each body by its travel and its spin's reach), so a falling
// body is stopped at what it meets instead of being found deep inside it
// a tick later and pushed out (a column of 10,000 boxes dropped together
// lands without throwing any), and neighbours at rest a few millimetres
// apart cost no contact. The push is a spring at 5/24 of the sub-step
// rate (62.5 Hz at 5 sub-steps of a 60 Hz tick; twice as stiff against a
// kinematic body), overdamped (ratio 10), never faster than 3 units/s;
// contacts with a static body are rigid instead, their overlap projected
// out at the tick's end, as in the upright world. The two normal rows of
// a two-point contact are solved together (a 2×2 linear complementarity
// problem, Catto's block solver): one after the other turns a box that
// meets a wall flat; their friction is one row at the points' mid-arms
// (both points lie on the contact's face, where a push along it turns a
// body alike). The passes take the contacts by colour (greedy graph
// colouring, as Box2D v3 does): no two of a colour share a moving body.
// Sub-stepping is what lets a tall pyramid stand with one pass a
// sub-step, and more sub-steps make contacts stiffer: Box2D v3's 100-row
// pyramid settles here 0.18 below its height (0.30 with Substeps 4, Box2D
// v3's own count, at four fifths of the passes' cost), in Box2D v3 0.73
// (BENCHMARKS.md). A world in which nothing can turn keeps the upright
// solver above: one row per pair, the axis-aligned narrow phase, so it
// costs what it did before rotation.
//
// A turning pair of boxes or polygons that has barely moved since the
// narrow phase last ran for it (neither body turned by more than 0.36°,
// the pair's relative pose moved by less than a fifth of the slop, the
// shapes as they were) reuses that manifold, each point's separation
// moved by how far its two anchors have moved along the normal: contact
// recycling, after Box2D v3's. A heap at rest then skips most of its
// narrow phase (the 100-row pyramid 85 % of its pairs a tick) and its
// contacts do not flicker between one and two points. Circles are always
// tested afresh. A snapshot keeps the manifolds, so a restored world
// recycles exactly as the original would.
//
// Angles are kept in [-π, π); a body's cosine and sine are computed from
// its angle's bits with detmath.SinCos when the angle changes. Within a
// tick the soft step turns bodies by a normalised small-angle rotation a
// sub-step; the angle gains the sum of the sub-steps' turns, and its
// rotation is made exact at the tick's end, so a snapshot, which stores
// angles only, restores the same world. Sub-steps against statics move
// fast bodies without turning them. A game turns its own points the same
// way: Body.WorldPoint and WorldVector (a muzzle, a heading) and their
// inverses LocalPoint and LocalVector, never math.Sin in Update.
//
// RayCast and QueryPoint test a body's shape at its angle; QueryAABB its
// bounds. Cast sweeps without turning; between turned shapes it advances
// conservatively by their separating-axis distance.
//
//fixvet:sim
package physics

import (
	"fmt"
	"math"
	"slices"

	"github.com/fixstep/fixstep/detmath"
)

// Vec2 is a 2D vector.
type Vec2 struct{ X, Y float64 }

// Add returns v+w.
func (v Vec2) Add(w Vec2) Vec2 { return Vec2{v.X + w.X, v.Y + w.Y} }

// Sub returns v-w.
func (v Vec2) Sub(w Vec2) Vec2 { return Vec2{v.X - w.X, v.Y - w.Y} }

// Scale returns v·s.
//
// Its products are rounded (float64(v.X*s)), so v.Add(w.Scale(s)) cannot be
// fused into a multiply-add on any build: see Determinism in the package doc.
func (v Vec2) Scale(s float64) Vec2 { return Vec2{float64(v.X * s), float64(v.Y * s)} }

// Mul returns v scaled per axis, (v.X·sx, v.Y·sy), its products rounded
// like Scale's.
func (v Vec2) Mul(sx, sy float64) Vec2 { return Vec2{float64(v.X * sx), float64(v.Y * sy)} }

// Dot returns v·w.
func (v Vec2) Dot(w Vec2) float64 { return detmath.Dot(v.X, v.Y, w.X, w.Y) }

// Len returns |v|.
func (v Vec2) Len() float64 { return detmath.Hypot(v.X, v.Y) }

// F32 returns v's components as float32: the one seam between the
// simulation, which is float64 for determinism and range, and drawing,
// which is float32 as the GPU takes it. Convert in Draw, once per body,
// after Body.Lerp: r.Rect(x, y, ...) with x, y := b.Lerp(f.Alpha).F32().
func (v Vec2) F32() (x, y float32) { return float32(v.X), float32(v.Y) }

// Kind says how a body moves.
type Kind uint8

// Body kinds.
const (
	// Dynamic bodies fall, collide and bounce.
	Dynamic Kind = iota
	// Kinematic bodies move at their velocity and push dynamic bodies, but
	// nothing pushes them. Set Body.Sweep to have Step stop one at the
	// static and kinematic bodies in its way, or ask World.Cast where it
	// would meet one.
	Kinematic
	// Static bodies never move: walls and floors.
	Static
)

// Shape is a body's collision shape.
type Shape uint8

// Shapes.
const (
	// Circle of radius Body.Radius.
	Circle Shape = iota
	// Box is a box of half extents Body.HalfW, Body.HalfH, turned by
	// Body.Angle (axis-aligned at angle 0).
	Box
	// Polygon is the convex polygon Body.Hull (see NewHull), turned by
	// Body.Angle.
	Polygon
)

// BodyID names a body in its world: its slot and the slot's generation,
// which changes when the body is removed, so an ID kept after Remove never
// names the body that takes the slot next. The zero BodyID names no body.
//
// A world's snapshot keeps every slot's generation, so an ID names the
// same body in the world World.Restore makes of it as in the world
// Snapshot was taken of: a game saves its IDs as they are (package save
// does, through AppendBinary and UnmarshalBinary) and uses them after a
// rollback or a join without looking them up again. An ID loaded from
// untrusted bytes may name no body: check World.Alive before World.Body.
type BodyID struct {
	index, gen uint32
}

// bodyIDBytes is the size of a BodyID's binary form.
const bodyIDBytes = 8

// AppendBinary appends the ID's binary form to b: its slot and its
// generation, 4 bytes each, little-endian. It never fails, and allocates
// nothing when b has room (encoding.BinaryAppender).
func (id BodyID) AppendBinary(b []byte) ([]byte, error) {
	return le.AppendUint32(le.AppendUint32(b, id.index), id.gen), nil
}

// UnmarshalBinary sets the ID from the form AppendBinary writes: exactly
// 8 bytes, or an error (encoding.BinaryUnmarshaler). Any 8 bytes make an
// ID, which may name no body in a given world (World.Alive).
func (id *BodyID) UnmarshalBinary(b []byte) error {
	if len(b) != bodyIDBytes {
		return fmt.Errorf("physics: a BodyID of %d bytes: want %d", len(b), bodyIDBytes)
	}
	id.index, id.gen = le.Uint32(b), le.Uint32(b[4:])
	return nil
}

// Index returns the body's slot: its index in World.Bodies.
func (id BodyID) Index() int { return int(id.index) }

// String reads "body 12" (or "body 12/3" after the slot's reuse).
func (id BodyID) String() string {
	if id.gen <= 1 {
		return fmt.Sprintf("body %d", id.index)
	}
	return fmt.Sprintf("body %d/%d", id.index, id.gen)
}

// Body is one rigid body. Set its fields before World.Add; afterwards change
// it through World.Body between steps (or in a contact callback).
type Body struct {
	Kind  Kind
	Shape Shape
	// Pos is the position at the current tick, Prev at the tick before;
	// draw at Lerp(alpha).
	Pos, Prev Vec2
	// Vel is the velocity. Setting it on a sleeping body wakes it.
	Vel Vec2
	// Angle is the body's rotation in radians, counter-clockwise, at the
	// current tick, PrevAngle at the tick before: draw at LerpAngle(alpha).
	// Step keeps Angle in [-π, π). AngVel is the angular velocity in
	// radians per second, counter-clockwise; setting it on a sleeping body
	// wakes it.
	Angle, PrevAngle, AngVel float64
	// Radius for circles; HalfW, HalfH for boxes; Hull for polygons (Add
	// clears it on other shapes). Bodies may share one Hull: it never
	// changes.
	Radius, HalfW, HalfH float64
	Hull                 *Hull
	// Mass of a dynamic body; zero means 1. Kinematic and static bodies
	// have infinite mass. Add reads it, and refuses one beyond
	// MaxMassRatio of the world's other dynamic bodies. Step reads it
	// again at its start, as Inertia, the size and FixedRotation: a change
	// between steps takes effect at the next (the impulses applied before
	// it see the old mass); keep such a change within MaxMassRatio too,
	// which only Add checks.
	Mass float64
	// Inertia is a dynamic body's moment of inertia about its centre
	// (mass × units²); zero means the shape's own for its mass (a circle's
	// m·r²/2, a box's m·(w²+h²)/12 of its full sides, a polygon's by its
	// area). FixedRotation keeps the body at its Angle, as if its inertia
	// were infinite: a platformer's player stays upright; it may be
	// switched between steps.
	Inertia       float64
	FixedRotation bool
	// AngularDamping slows the body's spin by the factor 1/(1 + h·d) each
	// sub-step of h seconds, per second: a ball rolling on a floor stops
	// (rolling resistance). Zero means none; at most MaxDamping.
	AngularDamping float64
	// LinearDamping slows a dynamic body's motion the same way: its
	// velocity by the factor 1/(1 + h·d) each sub-step of h seconds (each
	// tick in a world in which nothing turns), after gravity: a top-down
	// game's tank or puck coasts to a stop on the ground (air or ground
	// drag). Zero means none, and leaves the velocity's bits untouched;
	// at most MaxDamping.
	LinearDamping float64
	// Restitution is bounciness in [0, 1]; Friction the Coulomb
	// coefficient. A contact uses the larger restitution and the geometric
	// mean of the frictions.
	Restitution, Friction float64
	// Layer is the set of layers (bits) the body is in; zero means layer 1.
	// Mask is the set it collides with; zero means all. Two bodies collide
	// when each one's layer is in the other's mask.
	Layer, Mask uint32
	// Disabled takes the body out of the simulation without removing it:
	// it neither moves nor collides nor answers queries until enabled.
	Disabled bool
	// Sweep makes a kinematic body stop at the static and kinematic bodies
	// in its way instead of passing through them (a paddle between walls):
	// Step sweeps it along its velocity (World.Cast) and takes the part of
	// the velocity into what it met away.
	Sweep bool
	// Tag is the game's own number for the body (an entity index).
	Tag int32

	invMass float64
	invI    float64 // inverse moment of inertia; zero for FixedRotation and non-dynamic bodies
	// rc, rs are cos and sin of rotAngle, the angle they were computed for:
	// syncRotation refreshes them when Angle changes.
	rc, rs, rotAngle float64
	gen              uint32  // the slot's generation
	slot             int32   // the body's index in World.statics or World.movers
	removed          bool    // the slot is free (or freed at the end of this step)
	asleep           bool    // sleeping: not integrated, not solved against sleepers
	still            float64 // seconds spent slow, towards sleep
}

// Lerp returns the body's position a fraction alpha of the way from the
// previous tick to the current one.
func (b *Body) Lerp(alpha float64) Vec2 {
	return Vec2{b.Prev.X + float64((b.Pos.X-b.Prev.X)*alpha), b.Prev.Y + float64((b.Pos.Y-b.Prev.Y)*alpha)}
}

// LerpAngle returns the body's angle a fraction alpha of the way from the
// previous tick's to the current one, along the shorter arc: a body that
// turned from 3.1 to -3.1 radians passes through π, not through 0. Draw
// may use it; the result is not wrapped.
func (b *Body) LerpAngle(alpha float64) float64 {
	d := b.Angle - b.PrevAngle
	if d > math.Pi || d < -math.Pi {
		d = wrapAngle(d)
	}
	return b.PrevAngle + float64(d*alpha)
}

// WorldPoint returns the world position of the point at local in the
// body's frame (relative to Pos, before Angle turns it): a cannon's
// muzzle, a car's wheel. It turns by detmath.SinCos, so a game's Update
// may use it and stay the same on every build, as math.Sin would not.
func (b *Body) WorldPoint(local Vec2) Vec2 { return b.Pos.Add(b.WorldVector(local)) }

// LocalPoint returns where the world point p lies in the body's frame:
// WorldPoint's inverse, up to rounding.
func (b *Body) LocalPoint(p Vec2) Vec2 { return b.LocalVector(p.Sub(b.Pos)) }

// WorldVector returns the direction v, given in the body's frame, turned
// by the body's Angle: where a ship's nose points is WorldVector(Vec2{0,
// 1}). The same on every build, as WorldPoint.
func (b *Body) WorldVector(v Vec2) Vec2 {
	c, s := b.rotation()
	return rotate(c, s, v)
}

// LocalVector returns the world direction v in the body's frame:
// WorldVector's inverse, up to rounding (a car's sideways slip is
// LocalVector(Vel).X).
func (b *Body) LocalVector(v Vec2) Vec2 {
	c, s := b.rotation()
	return unrotate(c, s, v)
}

// rotation returns the cosine and sine of the body's Angle, from its
// cache; a Body the world has not seen yet has none.
func (b *Body) rotation() (c, s float64) {
	if b.syncRotation(); b.rc == 0 && b.rs == 0 {
		b.resync()
	}
	return b.rc, b.rs
}

// Removed reports whether the slot holds no body: skip it when drawing
// World.Bodies.
func (b *Body) Removed() bool { return b.removed }

// Asleep reports whether the body sleeps: it rests, and costs nothing.
func (b *Body) Asleep() bool { return b.asleep }

// active reports whether the body takes part in the simulation.
func (b *Body) active() bool { return !b.removed && !b.Disabled }

// layers returns the body's layer and mask with their defaults.
func (b *Body) layers() (layer, mask uint32) {
	layer, mask = b.Layer, b.Mask
	if layer == 0 {
		layer = 1
	}
	if mask == 0 {
		mask = ^uint32(0)
	}
	return layer, mask
}

// collides reports whether a and b's layers let them collide.
func collides(a, b *Body) bool {
	la, ma := a.layers()
	lb, mb := b.layers()
	return la&mb != 0 && lb&ma != 0
}

// bounds returns the body's AABB at its rotation.
func (b *Body) bounds() (lo, hi Vec2) {
	switch {
	case b.Shape == Circle:
		r := Vec2{b.Radius, b.Radius}
		return b.Pos.Sub(r), b.Pos.Add(r)
	case b.Shape == Box && b.upright():
		h := Vec2{b.HalfW, b.HalfH}
		return b.Pos.Sub(h), b.Pos.Add(h)
	case b.Shape == Box:
		c, s := math.Abs(b.rc), math.Abs(b.rs)
		h := Vec2{float64(c*b.HalfW) + float64(s*b.HalfH), float64(s*b.HalfW) + float64(c*b.HalfH)}
		return b.Pos.Sub(h), b.Pos.Add(h)
	}
	lo, hi = Vec2{math.Inf(1), math.Inf(1)}, Vec2{math.Inf(-1), math.Inf(-1)}
	for _, v := range b.Hull.verts[:b.Hull.n] {
		v = rotate(b.rc, b.rs, v)
		lo = Vec2{min(lo.X, v.X), min(lo.Y, v.Y)}
		hi = Vec2{max(hi.X, v.X), max(hi.Y, v.Y)}
	}
	return b.Pos.Add(lo), b.Pos.Add(hi)
}

// extent is the body's smallest half size: how far it may move in one
// sub-step without skipping over anything.
func (b *Body) extent() float64 {
	switch b.Shape {
	case Circle:
		return b.Radius
	case Box:
		return min(b.HalfW, b.HalfH)
	}
	return b.Hull.inner
}

// ContactListener receives contact events at the end of World.Step, after
// the solver, in a deterministic order (the begins in the order the pairs
// were found, then the ends). A pair's
// BeginContact comes on the first tick the two touch, with the contact as
// solved (its normal, points, depth and impulse; the pointer is valid
// during the call); its EndContact on the first tick they do not.
//
// Changing the world in a callback is safe: Add, Remove, Teleport, setting
// velocities. A body added joins at the next step. A body removed is gone
// at once for Body and Alive; the events of this step that name it still
// come, and none after: its contacts end silently.
type ContactListener interface {
	BeginContact(c *Contact)
	EndContact(a, b BodyID)
}

// DefaultIterations is the velocity passes per tick of a World whose
// Iterations is zero; DefaultPositionIterations the position passes.
const (
	DefaultIterations         = 8
	DefaultPositionIterations = 3
)

// Sleep defaults: a body sleeps after DefaultSleepTime seconds below
// DefaultSleepSpeed units per second.
const (
	DefaultSleepTime  = 0.5
	DefaultSleepSpeed = 0.05
)

// World is a fixed-step 2D world. The zero value is an empty world with no
// gravity, ready to use; a World is not safe for concurrent use.
type World struct {
	// Gravity accelerates dynamic bodies.
	Gravity Vec2
	// MoveSteps caps the steps a fast body's move through the statics is
	// cut into each tick (the continuous collision against tunnelling);
	// zero means 64. A body moves at most half its smallest extent a
	// step, so it cannot tunnel through a static body below
	// MoveSteps·extent/2 per tick. At most MaxMoveSteps. (It was called
	// MaxSubsteps beside Substeps, which is the solver's: another thing.)
	MoveSteps int
	// Listener, when set, receives contact begin and end events.
	Listener ContactListener
	// Iterations is how many velocity passes each tick of an upright
	// world (no body can turn) makes over its contacts; zero means
	// DefaultIterations (8). PositionIterations is the position passes;
	// zero means DefaultPositionIterations (3). At most MaxIterations
	// and MaxPositionIterations. A turning world uses Substeps instead.
	Iterations, PositionIterations int
	// Substeps is how many sub-steps a tick of a turning world is solved
	// in (see Rotation in the package doc); zero means DefaultSubsteps
	// (5). The solve costs in proportion to them, and contacts are as
	// stiff as they allow, so more let a heap rest higher (a contact rests
	// as deep as its load over its stiffness: twice the sub-steps, a
	// quarter of the depth). 4, Box2D v3's count, costs a fifth less and
	// still stands a 20-row pyramid; fewer make tall heaps sag. At most
	// MaxSubsteps. A world
	// in which no body can turn uses Iterations and PositionIterations
	// instead.
	Substeps int
	// SleepTime is how long a body must stay slower than SleepSpeed to
	// sleep, in seconds; zero means DefaultSleepTime, negative never.
	// SleepSpeed zero means DefaultSleepSpeed.
	SleepTime, SleepSpeed float64
	// Workers, when set, steps the world on a pool of goroutines
	// besides the caller (see Workers in the package doc): the same
	// world, bit for bit, with any pool or none. It is no part of the
	// world: Snapshot, Restore, Hash and Diff ignore it, and Restore
	// keeps it. Nil means the caller alone.
	Workers *Workers

	bodies  []Body
	free    []uint32 // free slots, reused by Add
	freeing []uint32 // slots removed during this step, freed at its end
	statics []int32  // static bodies; Body.slot is the index here
	movers  []int32  // dynamic and kinematic bodies; Body.slot is the index here

	grid                grid         // the movers, rebuilt every step
	staticGrid          grid         // the statics, rebuilt when they change
	staticsDirty        bool         // a static was added, removed or moved
	stale               bool         // contacts may name removed bodies: purge them
	faults, overloads   uint64       // bodies taken out, steps over the contact limit
	limit               int          // this step's contact limit
	over                bool         // this step reached it
	contacts            []Contact    // this tick's, in the order found
	previous            []Contact    // last tick's
	turn, prevTurn      []pointState // the turning contacts' points, this tick's and last tick's (Contact.tp)
	keep, prevKeep      []kept       // ... and their kept manifolds (Contact.tp)
	prevTable, curTable pairTable    // pair key → index in previous, contacts
	cursor              int          // lastOf's guess: the index in previous after its last find
	island              []int32      // union-find parents, by body index
	rest                []float64    // an island root's least rested time
	turning             bool         // this tick a body can turn: the soft step solves it
	dt                  float64      // this tick's
	sb                  []solverBody // the soft step's bodies, by body index
	sm                  []solverMass // ... and their masses
	active              []int32      // the soft step's moving bodies
	cons                []constraint // the soft step's contacts
	spare               []constraint // colour's: the constraints in their new order
	tint                []uint8      // colour's: each constraint's colour
	to                  []int32      // colour's: where each constraint goes
	used                []uint64     // colour's: the colours each body has
	ticks               uint64
	stepping            bool
	lightest, heaviest  float64 // bounds of the live dynamic bodies' masses (checkMassRatio)
	massesKnown         bool    // they hold for the bodies: false after a Restore
	cold                bool    // no warm starting (tests measure what it is worth)
	seen                []uint8 // Restore's scratch: which list names each slot
	work                uint64  // pairs tested, contacts solved (a pass each), sub-steps against statics: tests bound a step's cost by it

	// The last snapshot Snapshot wrote in each of the last ownBuffers
	// buffers it wrote in, which Restore takes unchecked; how many
	// snapshots it has written; how many Restore took so (restoredOwn)
	// and checked.
	own                          [ownBuffers]ownSnapshot
	owned                        uint64
	restoredOwn, restoredChecked uint64

	// The step's blocks (parallel.go): the pool it holds, each worker's
	// scratch, and what the blocks of each stage share.
	pool     *Workers
	scratch  []scratch
	checking bool         // contain's blocks check everything (before the step), or the motion
	checks   []blockCount // contain's blocks: bodies out of their limits, a body that turns
	counts   []blockCount // begin's blocks: active bodies, a kinematic body that sweeps
	actives  []int32      // begin's blocks' active bodies, each block's from its first mover's index
	sweeping bool         // an active kinematic body sweeps: the bodies are placed in order
	sv       softStep     // the soft step's numbers
	coloured bool         // the constraints are in colour order, spans set
	alone    bool         // findSerial found this step's contacts
	// bounceAll says a contact findSerial found may bounce.
	bounceAll    bool
	spans        [colours + 2]int32 // where each colour's constraints begin; the overflow's end last
	span0, span1 int32              // the colour being solved
	findState
}

// Limits of a body's numbers. Add refuses a body outside them, with an
// error naming the field; Step takes out a body that leaves them (the game
// wrote NaN into it, or teleported it beyond MaxCoordinate) and reports it
// (World.Faults, FaultListener), so one bad body never changes another.
// They keep every product the solver forms finite and every grid cell
// exact.
const (
	// MaxCoordinate bounds |Pos.X| and |Pos.Y|.
	MaxCoordinate = 1e9
	// MaxSpeed bounds |Vel.X| and |Vel.Y|; Step clamps a velocity the
	// solver makes faster.
	MaxSpeed = 1e6
	// MinSize and MaxSize bound Radius, HalfW and HalfH.
	MinSize, MaxSize = 1e-4, 1e6
	// MinMass and MaxMass bound a dynamic body's Mass (zero means 1).
	// Within them, the world's heaviest dynamic body weighs at most
	// MaxMassRatio (100) times its lightest: Add refuses a body beyond.
	MinMass, MaxMass = 1e-6, 1e9
	// MaxFriction bounds Friction; Restitution is in [0, 1].
	MaxFriction = 100
	// MaxAngularSpeed bounds |AngVel| (radians per second); Step clamps
	// a spin the solver makes faster. |Angle| is bounded by MaxCoordinate.
	MaxAngularSpeed = 1e5
	// MaxInertia bounds Inertia; MaxDamping bounds AngularDamping and
	// LinearDamping.
	MaxInertia = 1e21
	MaxDamping = 1e3
	// MaxContactsPerBody bounds a step's contacts at this many per body
	// slot: beyond, pairs are not solved that step (World.Overloads,
	// FaultListener), so bodies piled on one point slow a step down
	// instead of exhausting memory.
	MaxContactsPerBody = 16
)

// Add puts a body in the world and returns its ID. Prev is set to Pos. It
// reuses the slot of a removed body, with a new generation. A body with a
// number that is not finite or outside its limit (MaxCoordinate, MaxSpeed,
// MinSize..MaxSize, MinMass..MaxMass, MaxFriction, restitution in [0, 1])
// is refused with an error naming the field; a dynamic body more than
// MaxMassRatio times heavier than the world's lightest, or lighter than
// its heaviest over MaxMassRatio, with an error wrapping ErrMassRatio that
// names both masses and their ratio. To check it Add goes over the
// world's moving bodies only when a mass falls outside the bounds it keeps
// (a body near the limit, or after the lightest or heaviest was removed),
// and at its first call after a Restore.
func (w *World) Add(b Body) (BodyID, error) {
	if err := b.check(); err != nil {
		return BodyID{}, err
	}
	if b.Kind == Dynamic {
		if err := w.checkMassRatio(cmpOr(b.Mass, 1)); err != nil {
			return BodyID{}, err
		}
	}
	b.removed, b.asleep, b.still = false, false, 0
	if b.Shape != Polygon {
		b.Hull = nil
	}
	b.setMass()
	b.Prev, b.PrevAngle = b.Pos, b.Angle
	var i uint32
	if k := len(w.free); k > 0 {
		i = w.free[k-1]
		w.free = w.free[:k-1]
		b.gen = w.bodies[i].gen + 1
		w.bodies[i] = b
	} else {
		i = uint32(len(w.bodies))
		b.gen = 1
		w.bodies = append(w.bodies, b)
		w.island = append(w.island, 0)
		w.rest = append(w.rest, 0)
	}
	w.growContacts()
	w.index(int32(i))
	return BodyID{i, b.gen}, nil
}

// Reserve sizes everything a world of up to bodies body slots needs, so
// that from then on Add and Step allocate nothing, whatever happens in the
// world: the bodies and their lists, the grids, and room for the most
// contacts a step may hold (MaxContactsPerBody a slot) with their pair
// tables. Without it the world grows as it goes, each slice to its
// high-water mark and no further, so a step allocates only when the world
// reaches a size it never had (more bodies, or more contacts in a pile-up
// than ever before). It never shrinks anything. It sizes the scratch of
// each worker of the pool set on the world (Workers) when it is called:
// set the pool first.
func (w *World) Reserve(bodies int) {
	bodies = min(max(bodies, 0), MaxSnapshotBodies)
	contacts := MaxContactsPerBody * bodies
	w.bodies = room(w.bodies, bodies)
	w.island = room(w.island, bodies)
	w.rest = room(w.rest, bodies)
	w.free = room(w.free, bodies)
	w.freeing = room(w.freeing, bodies)
	w.movers = room(w.movers, bodies)
	w.statics = room(w.statics, bodies)
	w.fitScratch()
	for k := range w.scratch {
		w.scratch[k].near = room(w.scratch[k].near, bodies)
		w.scratch[k].nearby = room(w.scratch[k].nearby, bodies)
	}
	w.fitFound(contacts, 2*blocks(bodies, entryBlock), contacts)
	w.finds = room(w.finds, 2*blocks(bodies, entryBlock))
	w.checks = room(w.checks, blocks(bodies, bodyBlock))
	w.counts = room(w.counts, blocks(bodies, bodyBlock))
	w.actives = room(w.actives, bodies)
	w.seen = room(w.seen, bodies)
	w.sb = room(w.sb, bodies)
	w.sm = room(w.sm, bodies)
	w.active = room(w.active, bodies)
	w.cons = room(w.cons, contacts)
	w.spare = room(w.spare, contacts)
	w.tint = room(w.tint, contacts)
	w.to = room(w.to, contacts)
	w.used = room(w.used, bodies)
	w.contacts = room(w.contacts, contacts)
	w.previous = room(w.previous, contacts)
	w.turn = room(w.turn, contacts)
	w.prevTurn = room(w.prevTurn, contacts)
	w.keep = room(w.keep, contacts)
	w.prevKeep = room(w.prevKeep, contacts)
	w.prevTable.reset(contacts)
	w.curTable.reset(contacts)
	w.grid.reserve(bodies)
	w.staticGrid.reserve(bodies)
}

// check reports the first field of b that is not finite or out of its
// range, or nil.
func (b *Body) check() error {
	inside := func(v, lo, hi float64) bool { return v >= lo && v <= hi } // false for NaN
	switch {
	case b.Shape > Polygon:
		return fmt.Errorf("physics: unknown shape %d", b.Shape)
	case b.Kind > Static:
		return fmt.Errorf("physics: unknown kind %d", b.Kind)
	case b.Shape == Circle && !inside(b.Radius, MinSize, MaxSize):
		return fmt.Errorf("physics: circle radius %v: want %v to %v", b.Radius, MinSize, MaxSize)
	case b.Shape == Box && !(inside(b.HalfW, MinSize, MaxSize) && inside(b.HalfH, MinSize, MaxSize)):
		return fmt.Errorf("physics: box half extents %v x %v: want %v to %v each", b.HalfW, b.HalfH, MinSize, MaxSize)
	case !inside(b.Pos.X, -MaxCoordinate, MaxCoordinate) || !inside(b.Pos.Y, -MaxCoordinate, MaxCoordinate):
		return fmt.Errorf("physics: position %v: want finite coordinates within ±%v", b.Pos, float64(MaxCoordinate))
	case !inside(b.Vel.X, -MaxSpeed, MaxSpeed) || !inside(b.Vel.Y, -MaxSpeed, MaxSpeed):
		return fmt.Errorf("physics: velocity %v: want finite components within ±%v", b.Vel, float64(MaxSpeed))
	case b.Mass != 0 && !inside(b.Mass, MinMass, MaxMass):
		return fmt.Errorf("physics: mass %v: want %v to %v (or zero for 1)", b.Mass, MinMass, MaxMass)
	case !inside(b.Restitution, 0, 1):
		return fmt.Errorf("physics: restitution %v: want 0 to 1", b.Restitution)
	case !inside(b.Friction, 0, MaxFriction):
		return fmt.Errorf("physics: friction %v: want 0 to %v", b.Friction, float64(MaxFriction))
	case !inside(b.LinearDamping, 0, MaxDamping):
		return fmt.Errorf("physics: linear damping %v: want 0 to %v", b.LinearDamping, float64(MaxDamping))
	case b.Shape == Polygon && (b.Hull == nil || b.Hull.n < 3):
		// A Hull's fields are its own: one with vertices came from NewHull
		// (or a snapshot Restore checked), so its vertex count is enough.
		return fmt.Errorf("physics: a polygon with no hull: make one with NewHull")
	}
	if b.Angle == 0 && b.PrevAngle == 0 && b.AngVel == 0 && b.Inertia == 0 && b.AngularDamping == 0 {
		return nil // upright, the common case (NaN is not 0)
	}
	switch {
	case !inside(b.Angle, -MaxCoordinate, MaxCoordinate) || !inside(b.PrevAngle, -MaxCoordinate, MaxCoordinate):
		return fmt.Errorf("physics: angle %v (previous %v): want finite within ±%v", b.Angle, b.PrevAngle, float64(MaxCoordinate))
	case !inside(b.AngVel, -MaxAngularSpeed, MaxAngularSpeed):
		return fmt.Errorf("physics: angular velocity %v: want finite within ±%v", b.AngVel, float64(MaxAngularSpeed))
	case b.Inertia != 0 && !inside(b.Inertia, MinMass, MaxInertia):
		return fmt.Errorf("physics: inertia %v: want %v to %v (or zero for the shape's)", b.Inertia, MinMass, float64(MaxInertia))
	case !inside(b.AngularDamping, 0, MaxDamping):
		return fmt.Errorf("physics: angular damping %v: want 0 to %v", b.AngularDamping, float64(MaxDamping))
	}
	return nil
}

// checkMotion is check for the numbers a step changes (position,
// velocity, angle, spin), the rest checked before the step: the first of
// them out of its limits, as check reports it, or nil.
func (b *Body) checkMotion() error {
	inside := func(v, lo, hi float64) bool { return v >= lo && v <= hi } // false for NaN
	switch {
	case !inside(b.Pos.X, -MaxCoordinate, MaxCoordinate) || !inside(b.Pos.Y, -MaxCoordinate, MaxCoordinate):
		return fmt.Errorf("physics: position %v: want finite coordinates within ±%v", b.Pos, float64(MaxCoordinate))
	case !inside(b.Vel.X, -MaxSpeed, MaxSpeed) || !inside(b.Vel.Y, -MaxSpeed, MaxSpeed):
		return fmt.Errorf("physics: velocity %v: want finite components within ±%v", b.Vel, float64(MaxSpeed))
	case b.Angle == 0 && b.AngVel == 0:
		return nil
	case !inside(b.Angle, -MaxCoordinate, MaxCoordinate) || !inside(b.PrevAngle, -MaxCoordinate, MaxCoordinate):
		return fmt.Errorf("physics: angle %v (previous %v): want finite within ±%v", b.Angle, b.PrevAngle, float64(MaxCoordinate))
	case !inside(b.AngVel, -MaxAngularSpeed, MaxAngularSpeed):
		return fmt.Errorf("physics: angular velocity %v: want finite within ±%v", b.AngVel, float64(MaxAngularSpeed))
	}
	return nil
}

// setMass derives the body's inverse mass and inverse inertia from its
// kind, shape and settings, and its rotation from its angle.
func (b *Body) setMass() {
	b.invMass, b.invI = b.inverses()
	b.resync()
}

// inverses returns the inverse mass and inverse inertia that the body's
// kind, Mass, Inertia, shape and FixedRotation give it: zero for a body
// that is not dynamic, and zero inertia for a FixedRotation one.
func (b *Body) inverses() (invMass, invI float64) {
	if b.Kind != Dynamic {
		return 0, 0
	}
	m := cmpOr(b.Mass, 1)
	if b.FixedRotation {
		return 1 / m, 0
	}
	return 1 / m, 1 / cmpOr(b.Inertia, float64(m*b.inertiaPerMass()))
}

// room returns s with capacity for n elements at least, its length and
// contents unchanged.
func room[S ~[]E, E any](s S, n int) S { return slices.Grow(s, max(n-len(s), 0)) }

// roomForContacts keeps room for a resting pile's contacts and near pairs
// (up to about six per body slot), so a settling world does not grow them,
// nor the pair tables sized from them, while it runs; and, as Restore calls
// it once it has replaced the bodies, it makes the next Add count the
// dynamic bodies' masses again (see checkMassRatio).
func (w *World) roomForContacts() {
	w.massesKnown = false
	w.growContacts()
}

// growContacts is roomForContacts for Add, which keeps the masses' bounds.
func (w *World) growContacts() {
	want := 6 * len(w.bodies)
	w.contacts = room(w.contacts, want)
	w.previous = room(w.previous, want)
	w.turn = room(w.turn, want)
	w.prevTurn = room(w.prevTurn, want)
	w.keep = room(w.keep, want)
	w.prevKeep = room(w.prevKeep, want)
}

// index lists body i with the statics or the movers.
func (w *World) index(i int32) {
	b := &w.bodies[i]
	if b.Kind == Static {
		b.slot = int32(len(w.statics))
		w.statics = append(w.statics, i)
		w.staticsDirty = true
	} else {
		b.slot = int32(len(w.movers))
		w.movers = append(w.movers, i)
	}
}

// unindex takes body i out of the statics or the movers in O(1): the last
// one takes its place.
func (w *World) unindex(i int32) {
	b := &w.bodies[i]
	list := &w.movers
	if b.Kind == Static {
		list = &w.statics
		w.staticsDirty = true
	}
	l := *list
	last := l[len(l)-1]
	l[b.slot] = last
	w.bodies[last].slot = b.slot
	*list = l[:len(l)-1]
}

func cmpOr(v, def float64) float64 {
	if v == 0 {
		return def
	}
	return v
}

// Remove takes a body out of the world, in constant time. Its ID is stale
// from then on: Alive reports false, Body panics, Remove returns an error,
// and the slot's next body gets another ID (a slot whose generation has
// run out is never used again, so no ID comes back). Its contacts end
// without EndContact events.
func (w *World) Remove(id BodyID) error {
	if !w.Alive(id) {
		return fmt.Errorf("physics: Remove(%v): no such body (removed already, or never added)", id)
	}
	w.remove(id.index)
	return nil
}

func (w *World) remove(i uint32) {
	w.bodies[i].removed = true
	w.unindex(int32(i))
	w.stale = true
	if w.stepping {
		w.freeing = append(w.freeing, i)
	} else {
		w.release(i)
	}
}

// release frees slot i for reuse, unless its generation has run out. The
// slot keeps only its generation: a removed body leaves nothing behind in
// a snapshot.
func (w *World) release(i uint32) {
	gen := w.bodies[i].gen
	w.bodies[i] = Body{gen: gen, removed: true}
	if gen < math.MaxUint32 {
		w.free = append(w.free, i)
	}
}

// purge drops the contacts of removed bodies, in one pass.
func (w *World) purge() {
	if !w.stale {
		return
	}
	w.stale = false
	w.contacts = slices.DeleteFunc(w.contacts, func(c Contact) bool {
		return w.bodies[c.ia].removed || w.bodies[c.ib].removed
	})
}

// Alive reports whether id names a body in the world.
func (w *World) Alive(id BodyID) bool {
	return id.gen != 0 && int(id.index) < len(w.bodies) && w.bodies[id.index].gen == id.gen && !w.bodies[id.index].removed
}

// Len returns the number of slots in Bodies, removed ones included.
func (w *World) Len() int { return len(w.bodies) }

// Body returns the body id names; the pointer is valid until the next Add.
// A stale id (its body removed) is a bug in the caller: Body panics with
// the id. Move a static body only with Teleport, which refreshes its cached
// bounds.
func (w *World) Body(id BodyID) *Body {
	if !w.Alive(id) {
		panic(fmt.Sprintf("physics: Body(%v): no such body (removed, or never added): check Alive", id))
	}
	return &w.bodies[id.index]
}

// ID returns the ID of the body in slot i of Bodies.
func (w *World) ID(i int) BodyID { return BodyID{uint32(i), w.bodies[i].gen} }

// Bodies returns every slot, indexed by BodyID.Index, for drawing; skip the
// ones whose Removed is true. The slice is valid until the next Add.
func (w *World) Bodies() []Body { return w.bodies }

// Teleport moves a body to pos at once: both its previous and current
// positions, so the renderer does not draw a streak across the jump, and
// its previous angle to its Angle (set Angle first to turn it at once). It
// wakes the body. Move or resize a static body only with Teleport (or
// call it after changing its size), which refreshes the statics' grid. A
// pos that is not finite or beyond MaxCoordinate takes the body out at
// the next Step, as a fault.
func (w *World) Teleport(id BodyID, pos Vec2) {
	b := w.Body(id)
	b.Pos, b.Prev = pos, pos
	b.PrevAngle = b.Angle
	b.syncRotation()
	b.asleep, b.still = false, 0
	if b.Kind == Static {
		w.staticsDirty = true
	}
}

// ApplyImpulse changes a dynamic body's velocity by impulse/mass, and
// wakes it.
func (w *World) ApplyImpulse(id BodyID, impulse Vec2) {
	b := w.Body(id)
	b.Vel = b.Vel.Add(impulse.Scale(b.invMass))
	b.asleep, b.still = false, 0
}

// ApplyAngularImpulse changes a dynamic body's angular velocity by
// impulse/inertia (mass × units² / s), and wakes it. A FixedRotation body
// does not turn.
func (w *World) ApplyAngularImpulse(id BodyID, impulse float64) {
	b := w.Body(id)
	b.AngVel += float64(impulse * b.invI)
	b.asleep, b.still = false, 0
}

// ApplyImpulseAt applies impulse at the world point p: the body's velocity
// changes by impulse/mass and its angular velocity by (p − Pos)×impulse
// over its inertia. It wakes the body.
func (w *World) ApplyImpulseAt(id BodyID, impulse, p Vec2) {
	b := w.Body(id)
	b.Vel = b.Vel.Add(impulse.Scale(b.invMass))
	b.AngVel += float64(cross(p.Sub(b.Pos), impulse) * b.invI)
	b.asleep, b.still = false, 0
}

// ApplyTorque turns a dynamic body for one tick of dt seconds: its
// angular velocity changes by torque·dt/inertia. Call it before Step
// with the step's dt, each tick the torque acts. It wakes the body.
func (w *World) ApplyTorque(id BodyID, torque, dt float64) {
	w.ApplyAngularImpulse(id, float64(torque*dt))
}

// Wake wakes a sleeping body (and, at the next step, what it touches).
func (w *World) Wake(id BodyID) {
	b := w.Body(id)
	b.asleep, b.still = false, 0
}

// Ticks returns how many steps the world has taken.
func (w *World) Ticks() uint64 { return w.ticks }

// Limits of the World's settings, which Step checks, and Restore checks
// in a snapshot. A step costs in proportion to its passes, so each limit
// is as high as a real game needs and no higher: one flipped bit of a
// snapshot, or a typo, must not make every later step tens of times
// slower. A step of 2,000 bodies at each ceiling against the defaults
// (BenchmarkSettingsCeiling, on a shared 2-core Xeon, so ±30 %):
// Substeps 16 about 2x the default 5's (512, which the old limit of 1000
// let through, 30x); Iterations 32 2x the default 8's; PositionIterations
// 16 1.3x the default 3's; both at their ceilings 3x (1000 each, the old
// limit, 140x). MoveSteps costs only bodies fast enough to reach it, in
// proportion: 256 against the default 64 is 4.5x for a world in which
// every body is that fast (the old 4096, 64x).
const (
	// MaxDt bounds Step's dt: a tick of at most a second.
	MaxDt = 1.0
	// MaxIterations bounds Iterations: four times the default velocity
	// passes (Box2D v2's own default is the same 8).
	MaxIterations = 32
	// MaxPositionIterations bounds PositionIterations: five times the
	// default; each pass tests every contact's narrow phase again.
	MaxPositionIterations = 16
	// MaxSubsteps bounds Substeps: three times the default 5 and
	// four times Box2D v3's recommended 4; a heap stands stiffer with
	// more, at about twice the step's cost at this ceiling.
	MaxSubsteps = 16
	// MaxMoveSteps bounds MoveSteps, four times its default of 64: a
	// body of extent e cannot tunnel below 128·e per tick (7,680·e per
	// second at 60 Hz). Faster things are bullets for World.Cast.
	MaxMoveSteps = 256
)

// Step advances the world by dt seconds: one fixed tick. Call it from the
// game's Update with tick.DtSeconds(), never with a frame time.
//
// A dt that is not in (0, MaxDt], or a setting out of its range (Gravity
// not finite within ±MaxSpeed, Iterations above MaxIterations,
// PositionIterations above MaxPositionIterations, Substeps above
// MaxSubsteps, MoveSteps above MaxMoveSteps, SleepTime or
// SleepSpeed NaN), is a bug in the caller: Step panics naming it, before changing anything. A body whose
// numbers are not finite or out of their limits (see MaxCoordinate),
// because the game wrote them so, is taken out of the world before it
// touches anything (World.Faults counts it, a FaultListener hears it): it
// never changes another body.
func (w *World) Step(dt float64) {
	if err := w.checkStep(dt); err != nil {
		panic(err.Error())
	}
	w.ticks++
	w.purge()
	w.stepping = true
	w.previous, w.contacts = w.contacts, w.previous[:0]
	w.prevTurn, w.turn = w.turn, w.prevTurn[:0]
	w.prevKeep, w.keep = w.keep, w.prevKeep[:0]
	w.dt = dt
	if w.startWorkers() {
		defer w.stopWorkers() // a listener's panic must not leave the workers spinning
	}
	w.turning = w.contain(stepStart)
	w.begin()
	w.detect()
	if w.turning {
		w.solveSoft(dt)
	} else {
		w.solveVelocities(dt)
		w.integrate(dt)
		w.solvePositions()
	}
	w.contain("during the step")
	w.stopWorkers()
	w.purge() // a body taken out raises no event: its contacts end silently, as Remove's do
	w.sleep(dt)
	w.notify()
	w.stepping = false
	for _, i := range w.freeing {
		w.release(i)
	}
	w.freeing = w.freeing[:0]
	w.purge()
}

// begin starts the step for every mover, in blocks (beginBlock): its
// previous position and angle, its rotation and inverse masses as the
// game left them, in an upright world gravity; in a turning world its
// solver body. Then it lists the active bodies (awake, enabled), in the
// movers' order.
func (w *World) begin() {
	if w.turning {
		_, w.sv.h = w.substeps(w.dt)
		w.sb = resize(w.sb, len(w.bodies))
		w.sm = resize(w.sm, len(w.bodies))
		for _, i := range w.statics {
			w.sb[i] = solverBody{qc: 1}
			w.sm[i] = solverMass{keep: 1, glide: 1}
		}
		w.actives = resize(w.actives, len(w.movers))
	}
	n := blocks(len(w.movers), bodyBlock)
	w.counts = resize(w.counts, n)
	w.parallel(stageBegin, n, len(w.movers))
	w.active, w.sweeping = w.active[:0], false
	if !w.turning {
		return
	}
	for i, c := range w.counts {
		lo := i * bodyBlock
		w.active = append(w.active, w.actives[lo:lo+int(c.n)]...)
		w.sweeping = w.sweeping || c.flag
	}
}

// blockCount is what a block counted, and whether it saw what it looks
// for.
type blockCount struct {
	n    int32
	flag bool
}

// beginBlock starts the step for block i of the movers (see begin): it
// lists its active ones in actives, from the block's first index on, and
// flags a kinematic body that sweeps.
func (w *World) beginBlock(i int) {
	lo, hi := span(i, bodyBlock, len(w.movers))
	dt, h := w.dt, w.sv.h
	c := blockCount{}
	for _, k := range w.movers[lo:hi] {
		b := &w.bodies[k]
		b.Prev, b.PrevAngle = b.Pos, b.Angle
		b.syncRotation() // the game may have turned it
		if b.Kind == Dynamic {
			// The game may have changed its Mass, Inertia, size or
			// FixedRotation; and a restored snapshot's inverses, which
			// Restore checks only for range, are derived again here,
			// the same bits as Add's.
			b.invMass, b.invI = b.inverses()
		}
		if b.FixedRotation && b.Kind == Dynamic {
			b.AngVel = 0
		}
		if b.asleep && (b.Vel != (Vec2{}) || b.AngVel != 0) {
			b.asleep, b.still = false, 0 // the game set a velocity
		}
		if !w.turning {
			// Gravity once a tick in an upright world; the soft step adds
			// it in each sub-step.
			if b.Kind == Dynamic && !b.asleep && !b.Disabled {
				b.Vel = b.Vel.Add(w.Gravity.Scale(dt))
				if b.LinearDamping > 0 { // zero: not even a multiply by 1
					b.Vel = b.Vel.Scale(1 / (1 + float64(dt*b.LinearDamping)))
				}
			}
			continue
		}
		w.sb[k] = solverBody{v: b.Vel, w: b.AngVel, qc: 1}
		m := &w.sm[k]
		*m = solverMass{im: b.invMass, ii: b.invI, keep: 1, glide: 1}
		if b.AngularDamping > 0 {
			m.keep = 1 / (1 + float64(h*b.AngularDamping))
		}
		if b.LinearDamping > 0 {
			m.glide = 1 / (1 + float64(h*b.LinearDamping))
		}
		if !b.asleep && !b.Disabled {
			w.actives[lo+int(c.n)] = k
			c.n++
			c.flag = c.flag || b.Kind == Kinematic && b.Sweep
		}
	}
	w.counts[i] = c
}

// checkStep reports a dt or a setting out of range.
func (w *World) checkStep(dt float64) error {
	g := w.Gravity
	switch {
	case !(dt > 0 && dt <= MaxDt):
		return fmt.Errorf("physics: Step(%v): dt must be in (0, %v] seconds", dt, MaxDt)
	case !(math.Abs(g.X) <= MaxSpeed && math.Abs(g.Y) <= MaxSpeed):
		return fmt.Errorf("physics: World.Gravity = %v: want finite components within ±%v", g, float64(MaxSpeed))
	case w.Iterations > MaxIterations:
		return fmt.Errorf("physics: World.Iterations = %d: want at most %d", w.Iterations, MaxIterations)
	case w.PositionIterations > MaxPositionIterations:
		return fmt.Errorf("physics: World.PositionIterations = %d: want at most %d", w.PositionIterations, MaxPositionIterations)
	case w.Substeps > MaxSubsteps:
		return fmt.Errorf("physics: World.Substeps = %d: want at most %d", w.Substeps, MaxSubsteps)
	case w.MoveSteps > MaxMoveSteps:
		return fmt.Errorf("physics: World.MoveSteps = %d: want at most %d", w.MoveSteps, MaxMoveSteps)
	case w.SleepTime != w.SleepTime || w.SleepSpeed != w.SleepSpeed:
		return fmt.Errorf("physics: World.SleepTime = %v, SleepSpeed = %v: want numbers, not NaN", w.SleepTime, w.SleepSpeed)
	}
	return nil
}

// stepStart is what contain reports a body the game made bad as found.
const stepStart = "before the step"

// contain takes out every moving body whose numbers are not finite or out
// of their limits, clamps speeds to MaxSpeed, and reports whether a body
// left turns. Before the step it finds what the game wrote; after, what
// the solver made of absurd numbers. The movers are checked in blocks
// (checkBlock); only when one is out are they taken out, one after the
// other (containSerial).
func (w *World) contain(when string) (turning bool) {
	w.checking = when == stepStart
	n := blocks(len(w.movers), bodyBlock)
	w.checks = resize(w.checks, n)
	w.parallel(stageCheck, n, len(w.movers))
	bad := false
	for _, c := range w.checks {
		bad = bad || c.n > 0
		turning = turning || c.flag
	}
	if bad {
		return w.containSerial(when)
	}
	return turning
}

// checkBlock clamps block i of the movers' speeds, counts those out of
// their limits, and flags one that turns.
func (w *World) checkBlock(i int) {
	lo, hi := span(i, bodyBlock, len(w.movers))
	c := blockCount{}
	for _, k := range w.movers[lo:hi] {
		b := &w.bodies[k]
		if w.checkBody(b, w.checking) != nil {
			c.n++
			continue
		}
		c.flag = c.flag || b.turns()
	}
	w.checks[i] = c
}

// checkBody clamps body b's speeds to their limits and reports what of it
// is out of its limits: all of it before the step, the numbers the step
// changes after (checkMotion).
func (w *World) checkBody(b *Body, before bool) error {
	// A speed the solver made too high is clamped (plain comparisons:
	// the builtin min and max order NaNs and zeros, at a price).
	if finite(b.Vel) {
		b.Vel = Vec2{clamp(b.Vel.X, MaxSpeed), clamp(b.Vel.Y, MaxSpeed)}
	}
	if b.AngVel-b.AngVel == 0 {
		b.AngVel = clamp(b.AngVel, MaxAngularSpeed)
	}
	if before {
		return b.check()
	}
	return b.checkMotion() // the step changes only these
}

// turns reports whether the body turns this tick (the step's first pass
// makes invI and AngVel agree with FixedRotation): the world is solved by
// the soft step.
func (b *Body) turns() bool {
	return b.Kind == Dynamic && !b.FixedRotation || b.Kind == Kinematic && b.AngVel != 0
}

// containSerial is contain one body after the other, taking out those out
// of their limits (the last mover takes a faulty one's place).
func (w *World) containSerial(when string) (turning bool) {
	before := when == stepStart
	for k := 0; k < len(w.movers); k++ {
		i := w.movers[k]
		b := &w.bodies[i]
		if err := w.checkBody(b, before); err != nil {
			w.fault(i, when, err)
			k-- // the last mover took its place
			continue
		}
		turning = turning || b.turns()
	}
	return turning
}

// clamp returns v within ±lim; v is finite.
func clamp(v, lim float64) float64 {
	if v > lim {
		return lim
	}
	if v < -lim {
		return -lim
	}
	return v
}

// fault takes body i out of the world and reports why.
func (w *World) fault(i int32, when string, err error) {
	w.faults++
	id := w.ID(int(i))
	before := w.bodies[i]
	w.remove(uint32(i))
	if l, ok := w.Listener.(FaultListener); ok {
		l.BodyFault(id, &before, fmt.Sprintf("%s: %v", when, err))
	}
}

// refreshStatics rebuilds the statics' grid after a change, first taking
// out a static body teleported out of its limits.
func (w *World) refreshStatics() {
	if !w.staticsDirty {
		return
	}
	for k := 0; k < len(w.statics); k++ {
		if err := w.bodies[w.statics[k]].check(); err != nil {
			w.fault(w.statics[k], "a static body", err)
			k--
		}
	}
	w.staticsDirty = false // after the faults, which mark it again
	w.staticGrid.build(w.bodies, w.statics, margin/2, 0)
}

// FaultListener is an optional ContactListener interface for what Step
// refuses to simulate, so a game can log it or put things right.
type FaultListener interface {
	// BodyFault runs when Step takes a body out of the world because a
	// number of it is not finite or out of its limits: b is the body as
	// it was, why names the field. The body is removed (id is stale).
	BodyFault(id BodyID, b *Body, why string)
	// ContactOverload runs when a step finds more pairs near enough to
	// touch than MaxContactsPerBody per body: the rest are not solved
	// this step.
	ContactOverload(limit int)
}

// Faults returns how many bodies Step has taken out because their numbers
// were not finite or out of their limits.
func (w *World) Faults() uint64 { return w.faults }

// Overloads returns how many steps found more contacts than the world's
// limit (MaxContactsPerBody per body) and left the rest unsolved.
func (w *World) Overloads() uint64 { return w.overloads }

// integrate moves the upright world's bodies over dt, fast dynamic ones
// in sub-steps short enough that they cannot pass through a static body,
// meeting statics at each.
func (w *World) integrate(dt float64) {
	w.refreshStatics()
	maxSub := w.maxSubsteps()
	for _, i := range w.movers {
		b := &w.bodies[i]
		if b.asleep || b.Disabled {
			continue
		}
		travel := b.Vel.Len() * dt
		n := 1
		if e := b.extent(); travel > e/2 {
			n = min(int(math.Ceil(travel/(e/2))), maxSub)
		}
		if b.Kind == Kinematic && b.Sweep && w.sweepKinematic(i, b, dt) {
			continue
		}
		if n == 1 || b.Kind != Dynamic {
			b.Pos = b.Pos.Add(b.Vel.Scale(dt))
			continue
		}
		w.throughStatics(b, b.Vel.Scale(dt), n, b.Vel.Scale(dt/float64(n)), 0, &w.scratch[0])
	}
}

// maxSubsteps is the continuous collision's cap on a body's sub-steps.
func (w *World) maxSubsteps() int {
	if w.MoveSteps <= 0 {
		return 64
	}
	return w.MoveSteps
}

// throughStatics moves dynamic body b by d in n sub-steps of step each,
// meeting the statics anywhere along the way (found once for all its
// sub-steps, into s.near) at each, those it overlaps by more than deep.
// It writes only b and s: the step's workers move bodies at once.
func (w *World) throughStatics(b *Body, d Vec2, n int, step Vec2, deep float64, s *scratch) {
	lo, hi := b.bounds()
	lo = Vec2{lo.X + min(d.X, 0) - margin, lo.Y + min(d.Y, 0) - margin}
	hi = Vec2{hi.X + max(d.X, 0) + margin, hi.Y + max(d.Y, 0) + margin}
	s.near = w.staticGrid.query(lo, hi, s.near[:0])
	for range n {
		b.Pos = b.Pos.Add(step)
		w.meetStatics(b, deep, s)
	}
}

// sweepKinematic moves kinematic body i as far along its velocity as the
// bodies in its way let it, and reports whether it met one.
func (w *World) sweepKinematic(i int32, b *Body, dt float64) bool {
	d := b.Vel.Scale(dt)
	l := d.Len()
	if l == 0 {
		return false
	}
	h, ok := w.Cast(w.ID(int(i)), d)
	if !ok {
		return false
	}
	t := max(h.Fraction-slop/2/l, 0) // stop just short of touching
	b.Pos = b.Pos.Add(d.Scale(t))
	if vn := b.Vel.Dot(h.Normal); vn < 0 {
		b.Vel = b.Vel.Sub(h.Normal.Scale(vn))
	}
	return true
}

// meetStatics stops a fast body at the statics near its path (s.near)
// that it reached in a sub-step: out of them, and no longer moving into
// them (with restitution), as the contact solver would have had it seen
// them.
func (w *World) meetStatics(b *Body, deep float64, s *scratch) {
	s.work += uint64(len(s.near))
	lo, hi := b.bounds()
	for _, k := range s.near {
		s := &w.bodies[w.statics[k]]
		slo, shi := s.bounds()
		if lo.X > shi.X || slo.X > hi.X || lo.Y > shi.Y || slo.Y > hi.Y || s.Disabled || !collides(b, s) {
			continue
		}
		if c, ok := collide(s, b); ok && c.depth > deep {
			b.Pos = b.Pos.Add(c.n.Scale(c.depth))
			if vn := b.Vel.Dot(c.n); vn < 0 {
				e := max(b.Restitution, s.Restitution)
				b.Vel = b.Vel.Sub(c.n.Scale((1 + e) * vn))
			}
		}
	}
}
