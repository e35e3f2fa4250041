package view_test

import (
	"fmt"
	"time"

	"github.com/fixstep/fixstep/engine"
	"github.com/fixstep/fixstep/gfx/view"
)

// A camera that eases after a target in the fixed update and stays inside
// a 100×50 world, drawn between ticks: pure numbers, the same on every
// build, with or without a window.
func ExampleCamera2D_Follow() {
	cam := view.Camera2D{X: 8, Y: 4.5, Width: 16, Height: 9}
	var drawn view.Interpolated[view.Camera2D]
	drawn.Teleport(cam)
	for range 3 { // three ticks
		cam.Follow(20, 30, 0.5) // a tenth would be gentler
		cam.Clamp(0, 0, 100, 50)
		drawn.Set(cam)
		fmt.Printf("tick: center (%v, %v)\n", cam.X, cam.Y)
	}
	mid := drawn.At(0.5) // a frame halfway between the last two ticks
	fmt.Printf("drawn at alpha 0.5: (%v, %v)\n", mid.X, mid.Y)
	// Output:
	// tick: center (14, 17.25)
	// tick: center (17, 23.625)
	// tick: center (18.5, 26.8125)
	// drawn at alpha 0.5: (17.75, 25.21875)
}

// FitLayout letterboxes a 320×180 logical screen into a 1000×700 window,
// and ToLogical maps the mouse into it.
func ExampleFitLayout() {
	l := view.FitLayout(320, 180, 1000, 700, true) // whole multiples only
	fmt.Printf("%dx%d at (%d, %d)\n", l.W, l.H, l.X, l.Y)
	x, y := l.ToLogical(500, 350)
	fmt.Println("the window's center is logical", x, y)
	// Output:
	// 960x540 at (20, 80)
	// the window's center is logical 160 90
}

// A body moving one unit a tick, drawn once a tick, 40 frames a second.
// Between the third and the fourth frame a rollback corrects it half a unit
// back: the game's Load calls Correct, and instead of popping back, the
// body goes on where its motion was taking it and glides onto its
// corrected course within Duration (100 ms: four frames).
func ExampleGlide() {
	var glide view.Glide // the zero value: 100 ms, no MaxGlide
	frame := engine.Frame{Elapsed: 25 * time.Millisecond, Ticks: 1}
	for i, x := range []float64{0, 1, 2, 2.5, 3.5, 4.5, 5.5, 6.5} {
		if i == 3 {
			glide.Correct() // from the game's Load, during the frame's update
		}
		glide.Frame(frame) // at the top of Draw
		// Where the game draws it, and its motion over the last tick.
		drawn := glide.At(0, view.Pose{X: x}, view.Pose{X: 1})
		fmt.Printf("simulation %v, drawn at %v\n", x, drawn.X)
	}
	// Output:
	// simulation 0, drawn at 0
	// simulation 1, drawn at 1
	// simulation 2, drawn at 2
	// simulation 2.5, drawn at 3
	// simulation 3.5, drawn at 3.78125
	// simulation 4.5, drawn at 4.625
	// simulation 5.5, drawn at 5.53125
	// simulation 6.5, drawn at 6.5
}
