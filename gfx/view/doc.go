// Package view is the math of how a game is seen, apart from drawing it:
// 2D and 3D cameras (Camera2D, Camera3D, PixelCamera), a camera that
// follows, stays inside the world and shakes (Follow, Clamp, Shake),
// transforms drawn between fixed ticks (Transform, Transform2D,
// Interpolated), the easing of a rollback's or a snap's correction out of
// what is drawn (Glide, Pose), and the letterboxing of a fixed logical
// resolution into any window (Layout).
//
// It is pure Go (no cgo, no SDL, no GL): the fixed update of a headless
// server, a replay or a test moves and shakes its camera with the same
// code as the game on screen, and gets the same numbers. Package gfx
// draws with these types under the same names (gfx.Camera2D is
// view.Camera2D): Renderer.SetCamera takes a camera's Matrix, and
// Window.Layout returns a Layout.
//
// Drawing is float32, as the GPU is; the simulation's float64 meets it in
// one conversion place in the game's draw. Follow and Shake round every
// product (no fused multiply-add), so a camera moved in the fixed update
// is the same on every CPU.
package view
