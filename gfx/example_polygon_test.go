//go:build cgo

package gfx_test

import (
	"fmt"
	"math"
	"runtime"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/fixstep/fixstep/gfx"
	"github.com/fixstep/fixstep/physics"
)

// A physics body whose shape is a Hull, drawn in a game's Draw between
// its last two ticks: its vertices, float64 in the body's frame, go into a
// reused array as float32 (physics.Vec2.F32, the one seam between the
// simulation and drawing), and the body's interpolated position and angle
// place and turn them. It opens a hidden window for its GL context (go
// test runs it under SDL's offscreen driver).
func ExampleRenderer_Polygon() {
	// A game's main goroutine is locked to the main thread already
	// (go-sdl2 does it in its init); an example runs on another goroutine,
	// so it locks the thread it runs on for the GL context's life.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()

	win, err := gfx.NewWindow(gfx.WindowConfig{Width: 64, Height: 64, Hidden: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer win.Close()
	r, err := gfx.NewRenderer(gfx.RendererConfig{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close()

	// A wedge, turning a quarter turn counterclockwise in one tick.
	hull, err := physics.NewHull(physics.Vec2{X: -2, Y: -1}, physics.Vec2{X: 2, Y: -1}, physics.Vec2{X: 0, Y: 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	body := &physics.Body{Kind: physics.Dynamic, Shape: physics.Polygon, Hull: hull,
		Prev: physics.Vec2{X: 3, Y: 4}, Pos: physics.Vec2{X: 5, Y: 4}, Angle: math.Pi / 2}

	var verts [physics.MaxHullVertices]mgl32.Vec2 // the game's, reused every frame
	draw := func(alpha float64) gfx.FrameStats {
		r.BeginFrame(64, 64, gfx.Black)
		r.SetCamera(gfx.Camera2D{X: 4, Y: 4, Width: 8, Height: 8}.Matrix()) // 8 pixels a unit
		x, y := body.Lerp(alpha).F32()
		n := body.Hull.Len()
		for i := range n {
			vx, vy := body.Hull.Vertex(i).F32()
			verts[i] = mgl32.Vec2{vx, vy}
		}
		r.Polygon(x, y, float32(body.LerpAngle(alpha)), verts[:n], gfx.RGBA(0.9, 0.6, 0.2, 1))
		return r.EndFrame()
	}

	// Halfway: at (4, 4), turned 45°; its apex, 2 units above the
	// centroid, points up and to the left.
	drawn := draw(0.5)
	img := r.ReadPixels(64, 64)
	fmt.Printf("%d polygon in %d draw call\n", drawn.Polygons, drawn.DrawCalls)
	fmt.Println("up and left:", img.RGBAAt(32-10, 32-10))  // toward the apex
	fmt.Println("up and right:", img.RGBAAt(32+10, 32-10)) // where it would be, turned clockwise
	// Output:
	// 1 polygon in 1 draw call
	// up and left: {230 153 51 255}
	// up and right: {0 0 0 255}
}
