package gfx

import (
	"fmt"
	"time"
)

// Sheet is a sprite sheet: a texture cut into a grid of equal frames,
// numbered row by row from the top left as in the image file (frame 0 is
// the top left one, frame Cols is the first of the second row). Pixels
// right of the last whole column or below the last whole row are not
// frames. Its frames are regions (Texture.Sub) of the texture: they share
// its atlas page, so a whole sheet draws in one batch, and they live as
// long as it. A Sheet is a small value; the zero Sheet has no frames.
type Sheet struct {
	tex        Texture
	fw, fh     int
	cols, rows int
}

// NewSheet cuts tex into frames of frameW×frameH pixels. It fails when a
// frame size is not positive or larger than the texture.
func NewSheet(tex Texture, frameW, frameH int) (Sheet, error) {
	w, h := tex.Size()
	if frameW <= 0 || frameH <= 0 || frameW > w || frameH > h {
		return Sheet{}, fmt.Errorf("gfx: sheet frame %dx%d: must be positive and fit the %dx%d texture", frameW, frameH, w, h)
	}
	return Sheet{tex: tex, fw: frameW, fh: frameH, cols: w / frameW, rows: h / frameH}, nil
}

// Len returns the number of frames.
func (s Sheet) Len() int { return s.cols * s.rows }

// Grid returns the number of columns and rows of frames.
func (s Sheet) Grid() (cols, rows int) { return s.cols, s.rows }

// FrameSize returns a frame's size in pixels.
func (s Sheet) FrameSize() (w, h int) { return s.fw, s.fh }

// Frame returns frame i, a region of the sheet's texture to pass to
// Renderer.Draw. It does not allocate. An i outside 0..Len()-1 panics: a
// caller's bug, as an index out of range is.
func (s Sheet) Frame(i int) Texture {
	if i < 0 || i >= s.Len() {
		panic(fmt.Sprintf("gfx: Sheet.Frame(%d) of a sheet of %d frames", i, s.Len()))
	}
	return s.tex.Sub(i%s.cols*s.fw, i/s.cols*s.fh, s.fw, s.fh)
}

// AnimMode is what an Animation does after its last frame.
type AnimMode int

// Animation modes.
const (
	// AnimLoop starts again from the first frame.
	AnimLoop AnimMode = iota
	// AnimOnce stays on the last frame.
	AnimOnce
	// AnimPingPong runs back to the first frame and forth again: 0 1 2 1 0 1 2.
	AnimPingPong
)

// Animation is a run of frames of a Sheet shown for a fixed number of
// ticks each. It holds no state: Frame computes the frame from a tick
// count, so an animation is a pure function of the game's ticks (the same
// in a replay and a headless run) and costs a few integer operations. The
// zero value shows frame 0 for ever.
type Animation struct {
	// First is the sheet index of the first frame; Count the number of
	// frames, which follow it in the sheet. Zero Count means 1.
	First, Count int
	// Ticks is how many ticks each frame is shown. Zero means 1.
	Ticks int
	// Mode is what happens after the last frame. The zero value is AnimLoop.
	Mode AnimMode
}

// Frame returns the sheet index to show tick ticks after the animation
// started (a tick count before the start, negative, shows the first
// frame). It does not allocate.
func (a Animation) Frame(tick int64) int {
	n, per := int64(max(a.Count, 1)), int64(max(a.Ticks, 1))
	step := max(tick, 0) / per
	switch {
	case n == 1:
		step = 0
	case a.Mode == AnimOnce:
		step = min(step, n-1)
	case a.Mode == AnimPingPong:
		step %= 2 * (n - 1)
		if step >= n {
			step = 2*(n-1) - step
		}
	default:
		step %= n
	}
	return a.First + int(step)
}

// FrameAt returns the sheet index to show at elapsed game time since the
// animation started, for a fixed tick of dt: Frame of the ticks elapsed,
// whole ticks only, so a frame changes on a tick as it does with Frame.
// A dt of zero or less shows the first frame.
func (a Animation) FrameAt(elapsed, dt time.Duration) int {
	if dt <= 0 {
		return a.First
	}
	return a.Frame(int64(elapsed / dt))
}

// Done reports whether an AnimOnce animation shows its last frame for good
// at tick; an AnimLoop or AnimPingPong animation is never done.
func (a Animation) Done(tick int64) bool {
	return a.Mode == AnimOnce && tick >= int64(max(a.Count, 1)-1)*int64(max(a.Ticks, 1))
}
