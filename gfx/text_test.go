//go:build cgo

package gfx

import (
	"image"
	"testing"
)

// textW, textH is the size of the golden text scene.
const textW, textH = 240, 150

// drawTextScene draws the golden text scene: 16-pixel Go Regular
// left-aligned, centered and right-aligned on guides, and a 32-pixel line
// in color on a baseline guide.
func drawTextScene(r *Renderer, small, big *Face) {
	r.BeginFrame(textW, textH, RGBA(0.1, 0.1, 0.15, 1))
	guide := RGBA(0.4, 0.4, 0.5, 1)
	r.Rect(textW/2, textH/2, 1, textH, 0, guide) // the center line
	r.Rect(8, textH/2, 1, textH, 0, guide)       // the left margin
	r.Rect(textW-8, textH/2, 1, textH, 0, guide) // the right margin
	r.DrawText(small, 8, textH-4, "Left, top: the quick\nbrown fox jumps.", White, AlignLeft|AlignTop)
	r.DrawText(small, textW/2, textH-48, "Centered: Ägypten 1.25€", White, AlignCenter|AlignTop)
	r.DrawText(small, textW-8, textH-70, "right-aligned\ntwo lines", White, AlignRight|AlignTop)
	r.Rect(textW/2, 24.5, textW, 1, 0, RGBA(0.8, 0.3, 0.3, 1)) // the baseline, y = 24 to 25
	r.DrawText(big, textW/2, 25, "Gypsy 42", RGBA(0.4, 0.9, 0.5, 1), AlignCenter|AlignBaseline)
	r.EndFrame()
}

// TestTextGolden draws text at two sizes in three alignments: upright,
// smooth-edged (coverage, not blocks), on its baseline, in one draw call
// with the rects, and as the golden image has it.
func TestTextGolden(t *testing.T) {
	openWindow(t, WindowConfig{Width: textW, Height: textH})
	var img *image.RGBA
	var drawn FrameStats
	err := withRenderer(func(r *Renderer) error {
		small, err := r.NewFace(FaceConfig{})
		if err != nil {
			return err
		}
		big, err := r.NewFace(FaceConfig{Size: 32})
		if err != nil {
			return err
		}
		drawTextScene(r, small, big)
		drawn = r.LastFrame()
		img = r.ReadPixels(textW, textH)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "text", img)
	// The guides are drawn from the first page, the text from the faces'
	// nearest page, where the baseline guide joins it: two calls.
	if drawn.DrawCalls != 2 {
		t.Errorf("text scene drew in %d calls, want 2", drawn.DrawCalls)
	}
	// Smooth edges: glyph pixels between the background and full white.
	grays := 0
	for y := range 40 {
		for x := range textW {
			if c := img.RGBAAt(x, y); c.R > 80 && c.R < 200 && c.R == c.G {
				grays++
			}
		}
	}
	if grays < 20 {
		t.Errorf("%d antialiased pixels in the top lines: blocky text", grays)
	}
}
