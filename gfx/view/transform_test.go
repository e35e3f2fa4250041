package view

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// TestTransform2DShortestArc: a turn from 350° to 10° goes through 0°.
func TestTransform2DShortestArc(t *testing.T) {
	a := Transform2D{Angle: float32(350 * math.Pi / 180)}
	b := Transform2D{Angle: float32(10 * math.Pi / 180)}
	mid := a.Lerp(b, 0.5).Angle
	if d := math.Remainder(float64(mid), 2*math.Pi); math.Abs(d) > 1e-5 {
		t.Errorf("350° to 10° halfway = %v°, want 0°", mid*180/math.Pi)
	}
}

// TestTransformSlerpShortestArc: a rotation given with either quaternion
// sign turns the short way.
func TestTransformSlerpShortestArc(t *testing.T) {
	a := Identity()
	b := Identity()
	// The same 90° turn, given with the opposite quaternion sign.
	b.Rot = mgl32.QuatRotate(math.Pi/2, mgl32.Vec3{0, 0, 1}).Scale(-1)
	mid := a.Lerp(b, 0.5)
	want := mgl32.QuatRotate(math.Pi/4, mgl32.Vec3{0, 0, 1})
	if math.Abs(float64(mid.Rot.Dot(want))) < 0.9999 {
		t.Errorf("halfway rotation %v, want ±%v (45° about Z)", mid.Rot, want)
	}
}
