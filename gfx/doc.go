// Package gfx is fixstep's platform and renderer: an SDL2 window with an
// OpenGL 3.3 core context (Window), which is the engine.Platform a windowed
// game runs on, and a Renderer that draws sprites in instanced batches,
// filled convex polygons (a physics hull), lit meshes and text (TrueType
// and OpenType faces, and a bitmap font), with interpolated transforms
// (Interpolated), a debug overlay (Overlay), dynamic resolution and MSAA
// (Scaler) and screenshots.
//
// Textures come from the renderer (LoadTexture for PNG and JPEG files in
// any fs.FS, TextureFromImage for an image.Image), which packs them into
// shared atlas pages: sprites of different textures, regions of them
// (Texture.Sub), rects, circles and text, drawn in any order, go out as one
// instanced draw call per run of sprites on one page; Polygon's polygons
// go out as one draw call per run of polygons. Painter's order is always
// the order of the calls.
//
// Feeding the GPU costs the CPU little: Draw writes a sprite, 32 bytes
// (its texture region an index into a table the GPU holds), straight into
// memory the GPU reads, mapped once for good where the driver has
// ARB_buffer_storage and a range per batch on plain OpenGL 3.3
// (Streaming), with fences so the CPU never overwrites what the GPU still
// reads and runs at most two frames ahead; Polygon does the same with its
// vertices. FrameStats.GPUWait says how long a frame waited for the GPU.
//
// Window verifies vsync instead of trusting it: it measures whether
// presents wait for the display, and paces frames itself when they do not.
// It tracks the window's state (focused, unfocused, occluded, minimized)
// and applies a policy to each.
//
// Numbers: the simulation is float64 (physics.Vec2, engine's time as
// time.Duration), drawing is float32 (Sprite, Camera2D, mgl32) as the GPU
// takes it. Convert once, in Draw, after interpolating: physics.Vec2.F32.
// Screen positions (the mouse) are pixels, y down; Camera2D.ScreenToWorld
// turns them into world units, y up. A game that draws in a fixed logical
// resolution (WindowConfig.LogicalWidth and LogicalHeight) gets it
// letterboxed into any window (Layout, Scaler.BeginLayout), and the mouse
// in logical pixels. The cameras, transforms and Layout are package view's
// under gfx's names: view is pure Go, so code that moves a camera in the
// fixed update also builds without cgo; package imagefile, pure too,
// works out what LoadTexture's decoding costs.
//
// Every GL object is held by a typed handle (Buffer, VertexArray, Texture,
// Framebuffer, Program) whose owner deletes it; LiveObjects counts the
// ones alive, so tests can check that Close leaves none.
//
// SDL and GL calls must run on the main OS thread: go-sdl2 locks it in its
// init, so make the window, run the loop and close everything from main.
//
// # Without cgo
//
// Built with CGO_ENABLED=0, gfx exports the same API with neither SDL nor
// OpenGL behind it (Available is false): NewWindow, NewRenderer and the
// other constructors of GL objects return ErrNoCgo, and the plain values
// (WindowConfig, Color, Sprite, Sheet, Overlay, the cameras) are the same
// code as in the cgo build. A game's drawing code so compiles unchanged
// into a static binary, which package app runs headless only. The files
// that call SDL or GL are tagged cgo; nocgo.go stands in for them.
package gfx
