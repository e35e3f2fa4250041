package view

import (
	"math"
	"time"

	"github.com/fixstep/fixstep/engine"
)

// Pose is where a thing is drawn: a position in world units and an angle
// in radians (counterclockwise). Glide takes and returns the simulation's
// float64; convert to float32 after it.
type Pose struct {
	X, Y, Angle float64
}

// Glide eases corrections out of what Draw shows. When a rollback or a
// snap to a server's state moves a thing in the simulation, the next frame
// would draw it somewhere its own motion does not explain: a pop. Glide
// keeps, for each drawn thing, an offset from where it now is back to where
// its motion would have taken it, and shrinks the offset to zero over
// Duration, so the pop reads as a quick glide. Only drawing eases; the
// simulation never sees the offset.
//
// How it knows: the game calls Correct whenever its state was put back,
// which is every call of its engine.Saver Load (a netplay Session's or
// Client's rollback, a Client's snap to the server's state, a sync test's
// check: each one calls Load). Nothing else is eased: on a frame with no
// Correct before it, everything is drawn exactly where the game says,
// teleports included.
//
// Per frame, Draw calls Frame once, then At for each thing, keyed by a
// small int (a body's index), with where the game would draw it and its
// motion over the last tick (the current tick's pose less the previous
// one's). On a frame after Correct, a thing drawn in the previous frame is
// expected where it was drawn then plus the motion it had then times the
// ticks the frame advanced (Frame.Ticks plus the change in Frame.Alpha);
// the difference from where it is drawn now (the angle's the shorter way
// round) is added to what is left of its offset, which starts shrinking
// again from the sum. At frame time t after that correction the offset
// drawn is the sum times (1 − t/Duration)², and none from Duration on: quick
// at first, settling gently. A thing whose offset would be longer than
// MaxGlide is drawn where it is, at once. A change of motion the frame
// itself brought (a bounce, a turn) is eased too, if the frame follows a
// Correct: it cannot be told from a correction; it is as small as a tick's
// change of motion.
//
// A thing not drawn in the previous frame starts afresh: it is drawn as
// given, with no glide. Forget does the same for a teleport the game knows
// of, or a key given to another thing.
//
// The zero value is ready to use. Glide is used by the goroutine that
// draws. Memory is bounded by MaxKeys; At allocates only when a key higher
// than any before arrives, never in a steady state. The arithmetic is
// exact for the same inputs on one build (no clock, no map); it is
// drawing's, and need not be bit-identical across builds.
type Glide struct {
	// Duration is how long a correction takes to glide out, in frame time
	// (engine.Frame.Elapsed). The zero value means 100 ms.
	Duration time.Duration
	// MaxGlide is the longest offset, in world units, drawn as a glide; a
	// thing whose offset would be longer snaps. The zero value means no
	// limit.
	MaxGlide float64
	// MaxKeys bounds the keys: At draws a key outside [0, MaxKeys) as
	// given. The zero value means 4096.
	MaxKeys int

	slots     []glideSlot
	frame     uint64        // frames begun; a slot's frame is this when drawn
	elapsed   time.Duration // this frame's Elapsed
	advance   float64       // ticks the simulation advanced this frame
	alpha     float64       // the last frame's Alpha
	pending   bool          // Correct called since the last Frame
	corrected bool          // this frame follows a Correct
}

// glideSlot is one key's drawing history.
type glideSlot struct {
	frame  uint64        // Glide.frame when last drawn; 0 never
	at     Pose          // where the game last said it is
	motion Pose          // its motion per tick then
	off    Pose          // the offset at the last correction
	age    time.Duration // since the last correction, up to Duration
}

// Correct says the state drawn next was corrected: call it from the game's
// Load (engine.Saver), so every rollback and snap is eased. It takes effect
// at the next Frame.
func (g *Glide) Correct() { g.pending = true }

// Frame begins a frame: call it once at the top of Draw, before At, with
// the frame Draw was given.
func (g *Glide) Frame(f engine.Frame) {
	g.frame++
	g.elapsed = max(f.Elapsed, 0)
	g.advance = float64(f.Ticks) + f.Alpha - g.alpha
	g.alpha = f.Alpha
	g.corrected, g.pending = g.pending, false
}

// Forget draws key as given the next time, with no glide: for a teleport,
// a respawn, or a key given to another thing.
func (g *Glide) Forget(key int) {
	if key >= 0 && key < len(g.slots) {
		g.slots[key] = glideSlot{}
	}
}

// At returns where to draw the thing of this key: at, where the game would
// draw it this frame, plus what is left of a correction's glide. motion is
// the thing's motion over the last tick, the current tick's pose less the
// previous one's (physics.Body: Pos − Prev, Angle − PrevAngle); zero for a
// thing that does not move, or whose motion the game does not know (a
// correction then glides it from where it was drawn, standing still for a
// frame). A second call for a key in one frame returns what the first did,
// given the same at.
func (g *Glide) At(key int, at, motion Pose) Pose {
	maxKeys := g.MaxKeys
	if maxKeys <= 0 {
		maxKeys = 4096
	}
	if key < 0 || key >= maxKeys {
		return at
	}
	if key >= len(g.slots) {
		g.grow(key+1, maxKeys)
	}
	s := &g.slots[key]
	d := g.duration()
	switch {
	case s.frame == g.frame: // drawn already this frame
	case s.frame == 0 || s.frame+1 != g.frame: // new, or not drawn last frame
		*s = glideSlot{frame: g.frame, at: at, motion: motion, age: d}
		return at
	case g.corrected:
		s.age = min(s.age+g.elapsed, d)
		w := g.weight(s.age, d)
		// Where its motion would have drawn it, and the offset that draws
		// it there instead.
		e := Pose{
			X:     s.at.X + float64(s.motion.X*g.advance),
			Y:     s.at.Y + float64(s.motion.Y*g.advance),
			Angle: s.at.Angle + float64(math.Remainder(s.motion.Angle, 2*math.Pi)*g.advance),
		}
		o := Pose{
			X:     float64(s.off.X*w) + (e.X - at.X),
			Y:     float64(s.off.Y*w) + (e.Y - at.Y),
			Angle: float64(s.off.Angle*w) + math.Remainder(e.Angle-at.Angle, 2*math.Pi),
		}
		if m := g.MaxGlide; m > 0 && float64(o.X*o.X)+float64(o.Y*o.Y) > float64(m*m) {
			o = Pose{}
		}
		s.frame, s.at, s.motion, s.off, s.age = g.frame, at, motion, o, 0
	default:
		s.age = min(s.age+g.elapsed, d)
		s.frame, s.at, s.motion = g.frame, at, motion
	}
	w := g.weight(s.age, d)
	if w == 0 {
		return at
	}
	return Pose{X: at.X + float64(s.off.X*w), Y: at.Y + float64(s.off.Y*w), Angle: at.Angle + float64(s.off.Angle*w)}
}

// duration returns Duration or its default.
func (g *Glide) duration() time.Duration {
	if g.Duration > 0 {
		return g.Duration
	}
	return 100 * time.Millisecond
}

// weight returns how much of a correction is left after age: (1 − age/d)².
func (g *Glide) weight(age, d time.Duration) float64 {
	if age >= d {
		return 0
	}
	r := 1 - float64(age)/float64(d)
	return r * r
}

// grow makes room for n keys, at most maxKeys, at least doubling.
func (g *Glide) grow(n, maxKeys int) {
	c := min(max(n, 2*len(g.slots), 16), maxKeys)
	s := make([]glideSlot, c)
	copy(s, g.slots)
	g.slots = s
}
