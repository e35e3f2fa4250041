package physics_test

import (
	"fmt"
	"math"

	"github.com/fixstep/fixstep/physics"
)

// A box falls onto a floor and comes to rest on it: three seconds of
// 60 Hz ticks, the same dt every tick. It rests at 0.500, its half height
// above the floor's top (the tick before it lands, a speculative contact
// stops it at the floor), and sleeps. The world is the same bit for bit on every
// CPU, so the printed position is too.
func ExampleWorld() {
	w := physics.World{Gravity: physics.Vec2{X: 0, Y: -10}}
	// The floor's top is y = 0.
	if _, err := w.Add(physics.Body{Kind: physics.Static, Shape: physics.Box, Pos: physics.Vec2{X: 0, Y: -1}, HalfW: 10, HalfH: 1}); err != nil {
		fmt.Println(err)
		return
	}
	box, err := w.Add(physics.Body{Shape: physics.Box, Pos: physics.Vec2{X: 0, Y: 5}, HalfW: 0.5, HalfH: 0.5})
	if err != nil {
		fmt.Println(err)
		return
	}
	for range 180 {
		w.Step(1.0 / 60)
	}
	b := w.Body(box)
	fmt.Printf("y %.3f, resting %v, asleep %v\n", b.Pos.Y, b.Vel.Len() < 0.01, b.Asleep())
	// Output: y 0.500, resting true, asleep true
}

// A crate tipped by an eighth of a turn, as a game picks it under the
// mouse: QueryPoint tests the crate's shape at its angle, so a click in
// its bounds' corner, outside the crate, picks nothing. WorldPoint finds a
// point of the crate in the world (a handle to drag it by, a muzzle to
// fire from) the same on every build.
func ExampleWorld_QueryPoint() {
	var w physics.World
	crate, err := w.Add(physics.Body{Shape: physics.Box, HalfW: 1, HalfH: 1, Angle: math.Pi / 4})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("at (0.9, 0.9):", w.QueryPoint(physics.Vec2{X: 0.9, Y: 0.9}, 0, nil))
	fmt.Println("at (1.3, 0):", w.QueryPoint(physics.Vec2{X: 1.3, Y: 0}, 0, nil))
	corner := w.Body(crate).WorldPoint(physics.Vec2{X: 1, Y: 1})
	fmt.Printf("its top corner: (%.3f, %.3f)\n", corner.X, corner.Y)
	// Output:
	// at (0.9, 0.9): []
	// at (1.3, 0): [body 0]
	// its top corner: (0.000, 1.414)
}

// A top-down game has no gravity, so nothing but drag stops a pushed
// puck: LinearDamping 3 keeps 1/(1 + h·3) of its velocity each sub-step
// of h seconds. Pushed at 6 units/s, it coasts about 6/3 = 2 units and
// stops, then sleeps; an undamped one would glide on for ever. The same
// bits on every CPU, so the printed numbers are too.
func ExampleBody_linearDamping() {
	var w physics.World // no gravity: seen from above
	puck, err := w.Add(physics.Body{Shape: physics.Circle, Radius: 0.5, LinearDamping: 3})
	if err != nil {
		fmt.Println(err)
		return
	}
	w.ApplyImpulse(puck, physics.Vec2{X: 6}) // mass 1: 6 units/s
	for tick := 1; tick <= 240; tick++ {
		w.Step(1.0 / 60)
		if b := w.Body(puck); tick%60 == 0 {
			fmt.Printf("%d s: x %.3f, speed %.3f, asleep %v\n", tick/60, b.Pos.X, b.Vel.X, b.Asleep())
		}
	}
	// Output:
	// 1 s: x 1.899, speed 0.303, asleep false
	// 2 s: x 1.995, speed 0.015, asleep false
	// 3 s: x 1.996, speed 0.000, asleep true
	// 4 s: x 1.996, speed 0.000, asleep true
}
