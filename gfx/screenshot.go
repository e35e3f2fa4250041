//go:build cgo

package gfx

import (
	"errors"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
)

// Screenshot writes the w×h back buffer to a PNG file. Call it after
// drawing a frame and before Present. The file is written beside path and
// renamed over it only when complete: a full disk leaves no truncated
// image and whatever was at path untouched.
func (r *Renderer) Screenshot(path string, w, h int) error {
	img := r.ReadPixels(w, h)
	// The back buffer's alpha is whatever blending left there; a screenshot
	// is opaque.
	for i := 3; i < len(img.Pix); i += 4 {
		img.Pix[i] = 255
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("gfx: screenshot %s: %w", path, err)
	}
	err = errors.Join(png.Encode(f, img), f.Chmod(0o644), f.Sync(), f.Close()) // CreateTemp makes 0600
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("gfx: screenshot %s: %w", path, err)
	}
	return nil
}
