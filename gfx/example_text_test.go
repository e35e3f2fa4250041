//go:build cgo

package gfx_test

import (
	"fmt"

	"github.com/fixstep/fixstep/gfx"
)

// A HUD line rebuilt every frame in a reused buffer: no allocation once
// the buffer has grown to its longest line.
func ExampleTextBuffer() {
	var line gfx.TextBuffer
	for frame, fps := range []float64{59.94, 60.02, 143.856} {
		line.Reset().AppendString("frame ").AppendInt(int64(frame)).AppendString("  fps ").AppendFixed(fps, 1)
		fmt.Printf("%s\n", line.Bytes())
	}
	// Output:
	// frame 0  fps 59.9
	// frame 1  fps 60.0
	// frame 2  fps 143.9
}

// Text with the default font: a face made once at load time, then a title
// centered at the top of the window and a score in the bottom-right
// corner each frame, under the pixel camera. It runs on the thread that
// owns the GL context, inside a game's Draw; the title and the score batch
// with the sprites around them.
func ExampleRenderer_DrawText() {
	var face, big *gfx.Face // made at load time:
	load := func(r *gfx.Renderer) (err error) {
		if face, err = r.NewFace(gfx.FaceConfig{}); err != nil { // Go Regular, 16 px
			return err
		}
		big, err = r.NewFace(gfx.FaceConfig{Size: 40, Filter: gfx.Linear})
		return err
	}
	var score gfx.TextBuffer
	draw := func(r *gfx.Renderer, w, h int, points int64) {
		r.BeginFrame(w, h, gfx.Black)
		r.DrawText(big, float32(w)/2, float32(h)-8, "fixstep", gfx.White, gfx.AlignCenter|gfx.AlignTop)
		score.Reset().AppendString("score ").AppendInt(points)
		r.DrawTextBytes(face, float32(w)-8, 8, score.Bytes(), gfx.RGBA(1, 0.8, 0.2, 1), gfx.AlignRight|gfx.AlignBottom)
		tw, th := face.Measure("a box around\ntwo lines")
		r.Rect(100+tw/2, 100-th/2, tw+8, th+8, 0, gfx.RGBA(0, 0, 0, 0.5))
		r.DrawText(face, 100, 100, "a box around\ntwo lines", gfx.White, 0) // top left
		r.EndFrame()
	}
	_, _ = load, draw
}
