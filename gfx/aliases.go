package gfx

import "github.com/fixstep/fixstep/gfx/view"

// The cameras, transforms and layout the renderer draws with are package
// view's, a pure package a headless build can use; these are the same
// types under gfx's names, so a game that only draws needs one import.

// Camera2D is an orthographic camera for 2D scenes: view.Camera2D. Pass
// its Matrix to Renderer.SetCamera.
type Camera2D = view.Camera2D

// Camera3D is a perspective camera: view.Camera3D.
type Camera3D = view.Camera3D

// Shake is a seeded camera shake stepped in the fixed update: view.Shake.
type Shake = view.Shake

// PixelCamera returns a camera that maps one unit to one pixel of a w×h
// target, origin at the bottom left: for overlays and UI
// (view.PixelCamera).
func PixelCamera(w, h int) Camera2D { return view.PixelCamera(w, h) }

// Layout places a logical screen in a window's drawable, letterboxed:
// view.Layout. Window.Layout returns the window's; Scaler.BeginLayout
// renders into one.
type Layout = view.Layout

// FitLayout fits a logicalW×logicalH screen into a drawW×drawH drawable
// (view.FitLayout).
func FitLayout(logicalW, logicalH, drawW, drawH int, integer bool) Layout {
	return view.FitLayout(logicalW, logicalH, drawW, drawH, integer)
}

// Transform is a 3D position, rotation and scale: view.Transform.
type Transform = view.Transform

// Transform2D is a 2D position, rotation and scale: view.Transform2D.
type Transform2D = view.Transform2D

// Identity returns the transform at the origin, unrotated, of scale 1
// (view.Identity).
func Identity() Transform { return view.Identity() }

// Lerper is a state that can be interpolated: view.Lerper.
type Lerper[T any] = view.Lerper[T]

// Interpolated keeps an object's state at the last two fixed ticks, to
// draw it between them: view.Interpolated.
type Interpolated[T Lerper[T]] = view.Interpolated[T]

// Glide eases a rollback's or a snap's corrections out of what Draw shows:
// view.Glide.
type Glide = view.Glide

// Pose is a drawn position and angle, as Glide takes it: view.Pose.
type Pose = view.Pose
