//go:build cgo

package gfx

import (
	"testing"
	"time"
)

// TestSheetFrames cuts a 64x32 texture into 16x16 frames: 4 columns and 2
// rows, numbered row by row from the top left, each at its exact texture
// coordinates. A 64x40 one has the same grid: the last 8 rows are no
// frame.
func TestSheetFrames(t *testing.T) {
	if s, _ := NewSheet(Texture{w: 64, h: 40, u1: 1, v1: 1}, 16, 16); s.Len() != 8 {
		t.Errorf("a 64x40 sheet has %d frames of 16x16, want 8", s.Len())
	}
	tex := Texture{id: 1, w: 64, h: 32, u1: 1, v1: 1}
	s, err := NewSheet(tex, 16, 16)
	if err != nil {
		t.Fatal(err)
	}
	if cols, rows := s.Grid(); cols != 4 || rows != 2 || s.Len() != 8 {
		t.Fatalf("grid %dx%d, %d frames; want 4x2, 8", cols, rows, s.Len())
	}
	for _, c := range []struct {
		i              int
		u0, v0, u1, v1 float32
	}{
		{0, 0, 0.5, 0.25, 1},   // top left: v runs bottom to top
		{3, 0.75, 0.5, 1, 1},   // top right
		{5, 0.25, 0, 0.5, 0.5}, // second row, second column
		{7, 0.75, 0, 1, 0.5},   // the last frame
	} {
		f := s.Frame(c.i)
		if w, h := f.Size(); w != 16 || h != 16 || f.id != 1 {
			t.Errorf("frame %d: %dx%d of texture %d", c.i, w, h, f.id)
		}
		if f.u0 != c.u0 || f.v0 != c.v0 || f.u1 != c.u1 || f.v1 != c.v1 {
			t.Errorf("frame %d: uv (%v, %v)-(%v, %v), want (%v, %v)-(%v, %v)", c.i, f.u0, f.v0, f.u1, f.v1, c.u0, c.v0, c.u1, c.v1)
		}
	}
	for _, bad := range [][2]int{{0, 16}, {16, -1}, {65, 16}, {16, 33}} {
		if _, err := NewSheet(tex, bad[0], bad[1]); err == nil {
			t.Errorf("NewSheet(%d, %d) accepted", bad[0], bad[1])
		}
	}
	for _, i := range []int{-1, 8} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Frame(%d) of 8 did not panic", i)
				}
			}()
			s.Frame(i)
		}()
	}
	if n := testing.AllocsPerRun(100, func() { _ = s.Frame(5) }); n != 0 {
		t.Errorf("Frame allocates %v times", n)
	}
}

// TestAnimationFrames lists the sheet index shown on ticks 0..13 for each
// mode: frames 4, 5, 6, two ticks each.
func TestAnimationFrames(t *testing.T) {
	for _, c := range []struct {
		a    Animation
		want [14]int
	}{
		{Animation{First: 4, Count: 3, Ticks: 2}, [14]int{4, 4, 5, 5, 6, 6, 4, 4, 5, 5, 6, 6, 4, 4}},
		{Animation{First: 4, Count: 3, Ticks: 2, Mode: AnimOnce}, [14]int{4, 4, 5, 5, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6}},
		{Animation{First: 4, Count: 3, Ticks: 2, Mode: AnimPingPong}, [14]int{4, 4, 5, 5, 6, 6, 5, 5, 4, 4, 5, 5, 6, 6}},
		{Animation{First: 4, Count: 1, Ticks: 2, Mode: AnimPingPong}, [14]int{4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4}},
		{Animation{}, [14]int{}}, // the zero value: frame 0
	} {
		var got [14]int
		for tick := range int64(14) {
			got[tick] = c.a.Frame(tick)
		}
		if got != c.want {
			t.Errorf("%+v: frames %v, want %v", c.a, got, c.want)
		}
	}
	a := Animation{First: 4, Count: 3, Ticks: 2, Mode: AnimOnce}
	if a.Frame(-5) != 4 {
		t.Errorf("before the start: frame %d, want 4", a.Frame(-5))
	}
	if a.Done(3) || !a.Done(4) || (Animation{Count: 3}).Done(100) {
		t.Error("Done: wrong")
	}
	// Game time at 60 Hz: 2 ticks a frame is 33.3 ms a frame; 49.9 ms is
	// tick 2 (frame 5), 50.0 ms is tick 3 (still 5), 66.7 ms tick 4 (6).
	dt := time.Second / 60
	for _, c := range []struct {
		at   time.Duration
		want int
	}{{0, 4}, {33 * time.Millisecond, 4}, {2 * dt, 5}, {4*dt - 1, 5}, {4 * dt, 6}, {time.Hour, 6}} {
		if got := a.FrameAt(c.at, dt); got != c.want {
			t.Errorf("FrameAt(%v) = %d, want %d", c.at, got, c.want)
		}
	}
	if got := a.FrameAt(time.Second, 0); got != 4 {
		t.Errorf("FrameAt with dt 0 = %d, want 4", got)
	}
	if n := testing.AllocsPerRun(100, func() { _ = a.Frame(1234) + a.FrameAt(time.Second, dt) }); n != 0 {
		t.Errorf("Frame allocates %v times", n)
	}
}
