//go:build cgo

package gfx

import (
	"image"
	"math"
	"regexp"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// renderScene draws the golden scene at a fixed state: solid and rotated
// rects, translucent overlap, text and a lit cube.
func renderScene(r *Renderer, w, h int) {
	r.BeginFrame(w, h, RGBA(0.1, 0.1, 0.15, 1))
	r.Rect(40, 60, 50, 50, 0, RGBA(0.9, 0.2, 0.2, 1))
	r.Rect(80, 60, 50, 30, math.Pi/6, RGBA(0.2, 0.5, 0.9, 0.6))
	r.DebugText(4, float32(h)-4, 1, []byte("fixstep 0.5"), White)
	cam := Camera3D{Eye: mgl32.Vec3{0, 1.5, 3}}
	model := Transform{Pos: mgl32.Vec3{0.9, 0, 0}, Rot: mgl32.QuatRotate(0.6, mgl32.Vec3{0, 1, 0}), Scale: mgl32.Vec3{0.8, 0.8, 0.8}}
	r.DrawCube(cam.Matrix(float32(w)/float32(h)), model.Mat4(), RGBA(0.3, 0.8, 0.4, 1))
	r.EndFrame()
}

func TestGoldenScene(t *testing.T) {
	openWindow(t, WindowConfig{Width: 160, Height: 120})
	var img *image.RGBA
	err := withRenderer(func(r *Renderer) error {
		renderScene(r, 160, 120)
		img = r.ReadPixels(160, 120)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "scene", img)
}

// TestGoldenInterpolation proves interpolation on screen: a box that moved
// from x=30 to x=130 between two ticks is drawn at 30, 80 and 130 for alpha
// 0, 0.5 and 1.
func TestGoldenInterpolation(t *testing.T) {
	openWindow(t, WindowConfig{Width: 160, Height: 40})
	var box Interpolated[Transform2D]
	box.Teleport(Transform2D{X: 30, Y: 20, SX: 20, SY: 20})
	box.Set(Transform2D{X: 130, Y: 20, SX: 20, SY: 20})
	for _, c := range []struct {
		alpha float64
		name  string
		x     float64
	}{{0, "interp_0", 30}, {0.5, "interp_50", 80}, {1, "interp_100", 130}} {
		var img *image.RGBA
		err := withRenderer(func(r *Renderer) error {
			r.BeginFrame(160, 40, Black)
			s := box.At(c.alpha)
			r.Rect(s.X, s.Y, s.SX, s.SY, s.Angle, White)
			r.EndFrame()
			img = r.ReadPixels(160, 40)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		// The box's center, from the pixels themselves.
		var sum, n float64
		for y := 0; y < 40; y++ {
			for x := 0; x < 160; x++ {
				if img.RGBAAt(x, y).R > 128 {
					sum += float64(x) + 0.5
					n++
				}
			}
		}
		if n != 400 || math.Abs(sum/n-c.x) > 0.01 {
			t.Errorf("alpha %v: box of %v pixels centered at x=%.2f, want 400 pixels at %v", c.alpha, n, sum/n, c.x)
		}
		checkGolden(t, c.name, img)
	}
}

func TestRendererLeaksNothing(t *testing.T) {
	openWindow(t, WindowConfig{Width: 64, Height: 64})
	var before, during, after int
	var err, closeErr error
	onMain(func() {
		before = LiveObjects()
		var r *Renderer
		if r, err = NewRenderer(testConfig()); err != nil {
			return
		}
		renderScene(r, 64, 64)
		during = LiveObjects()
		closeErr = r.Close()
		r.Close() // twice is safe
		after = LiveObjects()
	})
	if err != nil || closeErr != nil {
		t.Fatal(err, closeErr)
	}
	if during-before < 9 {
		t.Errorf("renderer made %d GL objects; the counter is not counting", during-before)
	}
	if after != before {
		t.Errorf("%d GL objects alive after Close, want %d", after, before)
	}
}

func TestShaderErrorsNameFileAndLine(t *testing.T) {
	openWindow(t, WindowConfig{Width: 64, Height: 64})
	var err error
	onMain(func() {
		_, err = NewProgram("ok.vert", "#version 330 core\nvoid main() { gl_Position = vec4(0); }\n",
			"broken.frag", "#version 330 core\nout vec4 c;\nvoid main() {\n  c = vec4(1) + undefinedThing;\n}\n")
	})
	if err == nil {
		t.Fatal("a broken shader compiled")
	}
	if !regexp.MustCompile(`broken\.frag:4: .*undefinedThing`).MatchString(err.Error()) {
		t.Errorf("error %q does not read broken.frag:4: ... undefinedThing", err)
	}
}

func TestRewriteLog(t *testing.T) {
	for in, want := range map[string]string{
		"0:12(3): error: syntax error":           "x.frag:12: error: syntax error",
		"0(7) : error C1008: undefined variable": "x.frag:7: error C1008: undefined variable",
		"ERROR: 0:5: 'foo' : undeclared":         "x.frag:5: 'foo' : undeclared",
		"something else":                         "x.frag: something else",
	} {
		if got := rewriteLog("x.frag", in); got != want {
			t.Errorf("rewriteLog(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRendererFrameAllocs(t *testing.T) {
	openWindow(t, WindowConfig{Width: 128, Height: 128})
	var allocs float64
	err := withRenderer(func(r *Renderer) error {
		tex, err := r.TextureFromImage(image.NewRGBA(image.Rect(0, 0, 8, 8)), Nearest)
		if err != nil {
			return err
		}
		sub := tex.Sub(2, 2, 4, 4)
		frame := func() {
			r.BeginFrame(128, 128, Black)
			for i := range 2000 {
				r.Rect(float32(i%128), float32(i/16), 4, 4, float32(i), White)
				r.Circle(float32(i%128), 3, 2, White)
				r.Draw(sub, Sprite{X: float32(i % 128), Y: 5, W: 4, H: 4})
			}
			r.DebugText(2, 120, 1, []byte("FPS 60.0"), White)
			r.DrawCube(mgl32.Ident4(), mgl32.Ident4(), White)
			r.EndFrame()
		}
		for range 5 {
			frame()
		}
		allocs = testing.AllocsPerRun(50, frame)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if allocs != 0 {
		t.Errorf("a renderer frame allocates %v times, want 0", allocs)
	}
}
