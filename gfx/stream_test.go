//go:build cgo

package gfx

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/go-gl/gl/v3.3-core/gl"
)

// modes returns the streaming modes this context offers, in order.
func modes() []Streaming {
	var ms []Streaming
	onMain(func() {
		if persistentMapping() {
			ms = append(ms, StreamPersistent)
		}
	})
	return append(ms, StreamMapped, StreamCopied)
}

// TestStreamFences drives a stream of small parts through 2,000 windows of
// random sizes, in each streaming mode: every window lies in one part and
// holds what was asked; the part being written has no fence left (the
// GPU's reads of it were waited for); a part left behind has one; and what
// each commit hands over is in the buffer where commit says, read back from
// GL.
func TestStreamFences(t *testing.T) {
	openWindow(t, WindowConfig{Width: 16, Height: 16})
	for _, mode := range modes() {
		t.Run(mode.String(), func(t *testing.T) {
			var errs []string
			onMain(func() {
				const part = 16
				s := stream[uint32]{mode: mode, minPart: part, maxPart: part}
				defer s.drop()
				rng := rand.New(rand.NewPCG(2, 2))
				want := make(map[int]uint32)
				value := uint32(1)
				moves := 0
				for i := range 2000 {
					need := 1 + rng.IntN(part)
					before := s.cur
					moved := s.open(need)
					switch {
					case len(s.win) < need:
						errs = append(errs, fmt.Sprintf("window %d: %d elements, asked for %d", i, len(s.win), need))
					case s.head < s.cur*part || s.head+len(s.win) != (s.cur+1)*part:
						errs = append(errs, fmt.Sprintf("window %d: elements %d to %d, not the rest of part %d", i, s.head, s.head+len(s.win), s.cur))
					case s.fences[s.cur] != 0:
						errs = append(errs, fmt.Sprintf("window %d: part %d is written with its fence still set", i, s.cur))
					case moved && i > 0 && s.fences[before] == 0:
						errs = append(errs, fmt.Sprintf("window %d: part %d was left without a fence", i, before))
					}
					if moved {
						moves++
					}
					if len(errs) > 0 {
						return
					}
					n := rng.IntN(len(s.win) + 1)
					for j := range n {
						s.win[j] = value
						value++
					}
					s.n = n
					first, got := s.commit()
					for j := range got {
						want[first+j] = value - uint32(got) + uint32(j)
					}
					if i%100 == 99 {
						s.used = 0 // a steady size: no growth or shrink
					}
				}
				if moves < 100 {
					errs = append(errs, fmt.Sprintf("only %d moves between parts in 2,000 windows", moves))
				}
				// What the buffer holds now: each element's last write.
				buf := make([]uint32, streamParts*part)
				gl.BindBuffer(gl.COPY_READ_BUFFER, s.buf.id)
				if s.mode == StreamPersistent {
					gl.MemoryBarrier(gl.CLIENT_MAPPED_BUFFER_BARRIER_BIT)
				}
				gl.GetBufferSubData(gl.COPY_READ_BUFFER, 0, len(buf)*4, unsafe.Pointer(&buf[0]))
				for i, w := range want {
					if buf[i] != w {
						errs = append(errs, fmt.Sprintf("element %d holds %d, want %d", i, buf[i], w))
						break
					}
				}
			})
			for _, e := range errs {
				t.Error(e)
			}
		})
	}
}

// TestStreamGrowsAndShrinks: in each streaming mode, a frame that commits
// more than a part grows the part to hold it (at least doubling, at most
// maxPart), and shrinkFrames frames of little use shrink it to twice that
// use.
func TestStreamGrowsAndShrinks(t *testing.T) {
	openWindow(t, WindowConfig{Width: 16, Height: 16})
	want := []int{16, 40, 80, 256}
	for range shrinkFrames - 1 {
		want = append(want, 256)
	}
	want = append(want, 40)
	for _, mode := range modes() {
		var parts []int
		onMain(func() {
			s := stream[uint32]{mode: mode, minPart: 16, maxPart: 256, perFrame: true}
			defer s.drop()
			frame := func(n int) {
				for n > 0 {
					if s.n == len(s.win) {
						if s.win != nil {
							s.commit()
						}
						s.open(1)
					}
					k := min(n, len(s.win)-s.n)
					s.n += k
					n -= k
				}
				s.commit()
				s.endFrame()
				parts = append(parts, s.part)
			}
			frame(10)  // 16
			frame(40)  // 40: more than 16, at least twice
			frame(50)  // 80
			frame(500) // 256: the most
			for range shrinkFrames {
				frame(20) // 40 after shrinkFrames frames under a quarter
			}
		})
		if fmt.Sprint(parts) != fmt.Sprint(want) {
			t.Errorf("%v: parts after each frame: %v, want %v", mode, parts, want)
		}
	}
}
