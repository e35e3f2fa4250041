package view

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// Transform is a 3D position, rotation and scale.
type Transform struct {
	Pos   mgl32.Vec3
	Rot   mgl32.Quat
	Scale mgl32.Vec3
}

// Identity returns the transform at the origin, unrotated, of scale 1.
func Identity() Transform {
	return Transform{Rot: mgl32.QuatIdent(), Scale: mgl32.Vec3{1, 1, 1}}
}

// Lerp returns the transform a fraction alpha of the way from t to u:
// position and scale linearly, rotation along the shortest arc (slerp).
func (t Transform) Lerp(u Transform, alpha float32) Transform {
	return Transform{
		Pos:   lerp3(t.Pos, u.Pos, alpha),
		Rot:   mgl32.QuatSlerp(t.Rot, u.Rot, alpha),
		Scale: lerp3(t.Scale, u.Scale, alpha),
	}
}

// Mat4 returns the model matrix: scale, then rotate, then translate.
func (t Transform) Mat4() mgl32.Mat4 {
	m := t.Rot.Mat4()
	for c := 0; c < 3; c++ {
		for r := 0; r < 3; r++ {
			m[4*c+r] *= t.Scale[c]
		}
	}
	m[12], m[13], m[14] = t.Pos[0], t.Pos[1], t.Pos[2]
	return m
}

// Transform2D is a 2D position, rotation (radians, counterclockwise) and
// scale.
type Transform2D struct {
	X, Y   float32
	Angle  float32
	SX, SY float32
}

// Lerp returns the transform a fraction alpha of the way from t to u:
// position and scale linearly, the angle along the shortest arc, so a turn
// from 350° to 10° goes through 0°, not back through 180°.
func (t Transform2D) Lerp(u Transform2D, alpha float32) Transform2D {
	d := math.Remainder(float64(u.Angle-t.Angle), 2*math.Pi)
	return Transform2D{
		X:     t.X + (u.X-t.X)*alpha,
		Y:     t.Y + (u.Y-t.Y)*alpha,
		Angle: t.Angle + float32(d)*alpha,
		SX:    t.SX + (u.SX-t.SX)*alpha,
		SY:    t.SY + (u.SY-t.SY)*alpha,
	}
}

// Lerper is a state that can be interpolated: Transform, Transform2D.
type Lerper[T any] interface {
	Lerp(to T, alpha float32) T
}

// Interpolated keeps an object's state at the last two fixed ticks, so the
// renderer can draw it between them. Call Set once per tick with the new
// state (never once per frame: with two ticks in a frame, each must shift
// the pair), Teleport for jumps that must not streak, and At(alpha) to draw.
// The zero value holds two zero states.
type Interpolated[T Lerper[T]] struct {
	prev, cur T
}

// Set records the state at a new tick: the current state becomes the
// previous one.
func (i *Interpolated[T]) Set(s T) { i.prev, i.cur = i.cur, s }

// Teleport sets both states, so the jump is drawn at once, not swept.
func (i *Interpolated[T]) Teleport(s T) { i.prev, i.cur = s, s }

// Current returns the state at the last tick.
func (i *Interpolated[T]) Current() T { return i.cur }

// Previous returns the state at the tick before.
func (i *Interpolated[T]) Previous() T { return i.prev }

// At returns the state a fraction alpha (engine.Frame.Alpha) of the way
// from the previous tick to the current one.
func (i *Interpolated[T]) At(alpha float64) T { return i.prev.Lerp(i.cur, float32(alpha)) }

func lerp3(a, b mgl32.Vec3, t float32) mgl32.Vec3 {
	return mgl32.Vec3{a[0] + (b[0]-a[0])*t, a[1] + (b[1]-a[1])*t, a[2] + (b[2]-a[2])*t}
}
