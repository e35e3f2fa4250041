//go:build cgo

package gfx

import (
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// Golden images are compared per channel with goldenTolerance, and at most
// goldenOutliers of the pixels may differ by more: rasterizers differ by a
// unit or two in blending and by a pixel at triangle edges.
const (
	goldenTolerance = 8
	goldenOutliers  = 0.005
)

// checkGolden compares img with testdata/name.png. With -update it rewrites
// the file instead. On a mismatch it writes the actual image to
// testdata/failed/name.png and says where.
func checkGolden(t *testing.T, name string, img *image.RGBA) {
	t.Helper()
	path := filepath.Join("testdata", name+".png")
	if *update {
		if err := writePNG(path, img); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", path)
		return
	}
	want, err := readPNG(path)
	if err != nil {
		t.Fatalf("golden image: %v (run go test ./gfx -update to create it)", err)
	}
	if msg := diffImages(want, img); msg != "" {
		failed := filepath.Join("testdata", "failed", name+".png")
		if err := writePNG(failed, img); err != nil {
			t.Errorf("writing %s: %v", failed, err)
		}
		t.Errorf("%s: %s; actual image written to %s", path, msg, failed)
	}
}

func diffImages(want image.Image, got *image.RGBA) string {
	if want.Bounds().Size() != got.Bounds().Size() {
		return fmt.Sprintf("size %v, want %v", got.Bounds().Size(), want.Bounds().Size())
	}
	b := want.Bounds()
	bad, worst := 0, 0
	var at image.Point
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, a := want.At(x, y).RGBA()
			w := [4]int{int(r >> 8), int(g >> 8), int(bl >> 8), int(a >> 8)}
			o := got.PixOffset(x-b.Min.X, y-b.Min.Y)
			d := 0
			for c := range 4 {
				d = max(d, abs(int(got.Pix[o+c])-w[c]))
			}
			if d > goldenTolerance {
				bad++
			}
			if d > worst {
				worst, at = d, image.Pt(x, y)
			}
		}
	}
	if float64(bad) > goldenOutliers*float64(b.Dx()*b.Dy()) {
		return fmt.Sprintf("%d pixels differ by more than %d (worst %d at %v)", bad, goldenTolerance, worst, at)
	}
	return ""
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

func readPNG(path string) (image.Image, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return png.Decode(f)
}

func writePNG(path string, img image.Image) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
