//go:build cgo

package gfx_test

import (
	"fmt"
	"os"
	"runtime"

	"github.com/fixstep/fixstep/gfx"
)

// Loading a PNG into a texture, and cutting it into a sprite sheet whose
// frames an Animation picks by tick. It opens a hidden window for its GL
// context (go test runs it under SDL's offscreen driver).
func ExampleRenderer_LoadTexture() {
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

	tex, err := r.LoadTexture(os.DirFS("testdata"), "sheet.png", gfx.Nearest)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer tex.Delete()
	w, h := tex.Size()
	fmt.Printf("sheet.png: %dx%d\n", w, h)

	sheet, err := gfx.NewSheet(tex, 16, 16)
	if err != nil {
		fmt.Println(err)
		return
	}
	cols, rows := sheet.Grid()
	fmt.Printf("%d frames, %dx%d\n", sheet.Len(), cols, rows)
	walk := gfx.Animation{First: 0, Count: 8, Ticks: 6} // 10 frames a second at 60 Hz
	for _, tick := range []int64{0, 5, 6, 47, 48} {
		fmt.Printf("tick %d: frame %d\n", tick, walk.Frame(tick))
	}

	// Frame 1 at twice its size in the middle: its disc, centered on the
	// frame's pixel (5, 8), lands on the window's pixel (26, 32).
	r.BeginFrame(64, 64, gfx.Black)
	r.Draw(sheet.Frame(walk.Frame(6)), gfx.Sprite{X: 32, Y: 32, W: 32, H: 32, Color: gfx.White})
	r.EndFrame()
	fmt.Println("pixel (26, 32):", r.ReadPixels(64, 64).RGBAAt(26, 32))
	// Output:
	// sheet.png: 64x32
	// 8 frames, 4x2
	// tick 0: frame 0
	// tick 5: frame 0
	// tick 6: frame 1
	// tick 47: frame 7
	// tick 48: frame 0
	// pixel (26, 32): {70 180 120 255}
}
