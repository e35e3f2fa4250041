package gfx

import (
	"fmt"
	"image/png"
	"os"
)

// Screenshot writes the w×h back buffer to a PNG file. Call it after
// drawing a frame and before Present.
func (r *Renderer) Screenshot(path string, w, h int) error {
	img := r.ReadPixels(w, h)
	// The back buffer's alpha is whatever blending left there; a screenshot
	// is opaque.
	for i := 3; i < len(img.Pix); i += 4 {
		img.Pix[i] = 255
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("gfx: screenshot: %w", err)
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return fmt.Errorf("gfx: screenshot %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("gfx: screenshot %s: %w", path, err)
	}
	return nil
}
