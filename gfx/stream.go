//go:build cgo

package gfx

import (
	"time"
	"unsafe"

	"github.com/go-gl/gl/v3.3-core/gl"
)

// streamParts is how many parts a stream buffer has. The CPU writes one
// while the GPU may still read the other three.
const streamParts = 4

// stream is a GL buffer that the CPU fills with elements of type T each
// frame and the GPU reads: sprite instances, texture regions or polygon
// vertices. It is cut into streamParts parts of part elements, written
// in turn. The CPU writes into a window, a run of elements from head to
// the end of the current part: mapped memory of the buffer itself
// (StreamPersistent, StreamMapped) or memory of its own that commit
// copies (StreamCopied). Leaving a part sets a fence; coming back to it
// waits for that fence first, so nothing the GPU may still read is
// overwritten. A caller that refers to elements across commits (the
// region table) must stop referring to a part's elements when open
// reports that it left the part.
//
// The part grows to hold a frame's elements (so a frame is at least two
// parts behind the GPU's reads when it comes back to one), up to maxPart,
// and gives memory back after shrinkFrames frames that used under a
// quarter of a part, as bufferUse decides. The elements of T are written
// only, never read: mapped memory may be write-combined, where a read is
// slow.
type stream[T any] struct {
	mode             Streaming // persistent, mapped or copied: resolved
	minPart, maxPart int       // the part's bounds, in elements
	// perFrame: the elements are drawn in the frame that writes them (not
	// the region table's), so a frame may start in a new part.
	perFrame bool

	buf     Buffer
	gen     uint32 // counts the buffers made: a GL name may come back
	part    int    // elements a part; 0 before the first open
	mapping []T    // persistent: the whole buffer; copied: a part's staging
	fences  [streamParts]uintptr
	cur     int // the part being written
	head    int // the element where the window starts

	// win is the window, n how many of its elements are written. A
	// caller writes win[n] and increments n; n == len(win) means the
	// window is full, or closed (both 0).
	win    []T
	n      int
	mapped bool // win is a glMapBufferRange mapping, to be unmapped

	used int // elements committed this frame
	use  bufferUse

	waits  int           // fence waits this frame
	waited time.Duration // their time
}

// elemSize is the size of T in bytes.
func (s *stream[T]) elemSize() int {
	var zero T
	return int(unsafe.Sizeof(zero))
}

// left returns how many more elements the current part takes after the
// window's: what open can give without leaving the part.
func (s *stream[T]) left() int {
	if s.part == 0 {
		return 0
	}
	return (s.cur+1)*s.part - s.head - s.n
}

// open opens a window of at least need elements (need <= maxPart) at head,
// after a commit. When the current part has less room it sets the part's
// fence and moves to the next, waiting for the GPU to be done with it, or
// makes a larger buffer instead when the GPU is not done yet and the part
// may grow; the first open makes the buffer. It reports whether the
// stream left its part or made a buffer: elements written before are not
// to be referred to by draws made after.
func (s *stream[T]) open(need int) (moved bool) {
	switch {
	case s.part == 0 || need > s.part:
		s.make(max(s.minPart, need, s.part))
		moved = true
	case s.left() < need:
		moved = true
		s.fences[s.cur] = newFence()
		next := (s.cur + 1) % streamParts
		if f := s.fences[next]; f != 0 {
			if s.part < s.maxPart && !fenceDone(f) {
				// The GPU still reads the part: more room rather than a
				// wait.
				s.make(min(s.maxPart, 2*s.part))
				break
			}
			s.wait(f)
			deleteFence(&s.fences[next])
		}
		s.cur, s.head = next, next*s.part
	}
	count := (s.cur+1)*s.part - s.head
	switch s.mode {
	case StreamPersistent:
		s.win = s.mapping[s.head : s.head+count : s.head+count]
	case StreamMapped:
		size := s.elemSize()
		gl.BindBuffer(gl.COPY_WRITE_BUFFER, s.buf.id)
		p := gl.MapBufferRange(gl.COPY_WRITE_BUFFER, s.head*size, count*size,
			gl.MAP_WRITE_BIT|gl.MAP_INVALIDATE_RANGE_BIT|gl.MAP_UNSYNCHRONIZED_BIT|gl.MAP_FLUSH_EXPLICIT_BIT)
		if p == nil {
			s.fallBack()
			s.win = s.mapping[:count]
			break
		}
		s.win = unsafe.Slice((*T)(p), count)
		s.mapped = true
	default:
		s.win = s.mapping[:count]
	}
	s.n = 0
	return moved
}

// commit hands the window's n elements to the GPU and closes it. It
// returns the index in the buffer of the first and their number, for the
// draw that reads them.
func (s *stream[T]) commit() (first, n int) {
	first, n = s.head, s.n
	switch {
	case s.mapped:
		gl.BindBuffer(gl.COPY_WRITE_BUFFER, s.buf.id)
		if n > 0 {
			gl.FlushMappedBufferRange(gl.COPY_WRITE_BUFFER, 0, n*s.elemSize())
		}
		gl.UnmapBuffer(gl.COPY_WRITE_BUFFER) // false: the data was lost (a mode change); a frame draws garbage
		s.mapped = false
	case s.mode == StreamCopied && n > 0:
		size := s.elemSize()
		gl.BindBuffer(gl.COPY_WRITE_BUFFER, s.buf.id)
		gl.BufferSubData(gl.COPY_WRITE_BUFFER, s.head*size, n*size, unsafe.Pointer(&s.mapping[0]))
	}
	s.head += n
	s.used += n
	s.win, s.n = nil, 0
	return first, n
}

// endFrame ends a frame, after the last commit: the part grows to hold
// the frame's elements, or shrinks as bufferUse decides (a new size makes
// a new buffer). A perFrame stream whose part has less room left than the
// frame used starts the next frame in the next part, so a steady frame
// that fits a part never splits a batch at a part's end. It returns and
// clears the frame's fence waits.
func (s *stream[T]) endFrame() (waits int, waited time.Duration) {
	used := s.used
	s.used = 0
	waits, waited = s.waits, s.waited
	s.waits, s.waited = 0, 0
	if s.part == 0 {
		return
	}
	if used > s.part && s.part < s.maxPart {
		s.use = bufferUse{}
		s.make(min(s.maxPart, max(used, 2*s.part)))
		return
	}
	s.use.use(used)
	if c := s.use.endFrame(s.part, s.minPart); c < s.part {
		s.make(c)
		return
	}
	if s.perFrame && s.win == nil && s.left() < used {
		s.head = (s.cur + 1) * s.part
	}
	return
}

// make makes the buffer anew with parts of part elements, deleting the
// old one (the driver keeps its memory until the GPU is done with it).
func (s *stream[T]) make(part int) {
	s.drop()
	s.part = part
	s.gen++
	s.buf = NewBuffer()
	size := streamParts * part * s.elemSize()
	gl.BindBuffer(gl.COPY_WRITE_BUFFER, s.buf.id)
	if s.mode == StreamPersistent {
		flags := uint32(gl.MAP_WRITE_BIT | gl.MAP_PERSISTENT_BIT | gl.MAP_COHERENT_BIT)
		gl.BufferStorage(gl.COPY_WRITE_BUFFER, size, nil, flags)
		if p := gl.MapBufferRange(gl.COPY_WRITE_BUFFER, 0, size, flags); p != nil {
			s.mapping = unsafe.Slice((*T)(p), streamParts*part)
			return
		}
		// Refused: an immutable store takes no glBufferSubData, so the
		// copied mode needs a buffer of its own.
		s.mode = StreamCopied
		s.buf.Delete()
		s.buf = NewBuffer()
		gl.BindBuffer(gl.COPY_WRITE_BUFFER, s.buf.id)
	}
	gl.BufferData(gl.COPY_WRITE_BUFFER, size, nil, gl.STREAM_DRAW)
	if s.mode == StreamCopied {
		s.mapping = make([]T, part)
	}
}

// fallBack turns a mapped stream into a copied one for good, after the
// driver refused a mapping.
func (s *stream[T]) fallBack() {
	s.mode = StreamCopied
	s.mapping = make([]T, s.part)
}

// drop closes the window without handing it over, unmaps and deletes
// the buffer, and deletes the fences: the stream is as new but for its
// mode, its bounds and its frame's counts.
func (s *stream[T]) drop() {
	if s.buf.id != 0 && (s.mapped || s.mode == StreamPersistent) {
		gl.BindBuffer(gl.COPY_WRITE_BUFFER, s.buf.id)
		gl.UnmapBuffer(gl.COPY_WRITE_BUFFER)
	}
	s.mapped = false
	s.buf.Delete()
	for i := range s.fences {
		deleteFence(&s.fences[i])
	}
	s.mapping, s.win, s.n = nil, nil, 0
	s.part, s.cur, s.head = 0, 0, 0
}

// wait waits for fence f and counts the wait.
func (s *stream[T]) wait(f uintptr) {
	if fenceDone(f) {
		return
	}
	s.waits++
	s.waited += waitFence(f)
}

// persistentMapping reports whether the context offers glBufferStorage:
// OpenGL 4.4, or ARB_buffer_storage.
func persistentMapping() bool {
	var major, minor, n int32
	gl.GetIntegerv(gl.MAJOR_VERSION, &major)
	gl.GetIntegerv(gl.MINOR_VERSION, &minor)
	if major > 4 || major == 4 && minor >= 4 {
		return true
	}
	gl.GetIntegerv(gl.NUM_EXTENSIONS, &n)
	for i := range n {
		if p := gl.GetStringi(gl.EXTENSIONS, uint32(i)); p != nil && gl.GoStr(p) == "GL_ARB_buffer_storage" {
			return true
		}
	}
	return false
}

// Fences are GL sync objects, counted as live objects like the others.

// newFence sets a fence after the commands issued so far.
func newFence() uintptr {
	live.Add(1)
	return gl.FenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0)
}

// deleteFence deletes *f, if any, and clears it.
func deleteFence(f *uintptr) {
	if *f != 0 {
		gl.DeleteSync(*f)
		*f = 0
		live.Add(-1)
	}
}

// fenceDone reports whether the GPU has passed fence f, without waiting.
func fenceDone(f uintptr) bool {
	r := gl.ClientWaitSync(f, 0, 0)
	return r == gl.ALREADY_SIGNALED || r == gl.CONDITION_SATISFIED
}

// fenceTimeout bounds one wait for a fence: a GPU that has not passed it
// in that time is hung or lost, and waiting longer would hang the game
// with it.
const fenceTimeout = 5 * time.Second

// waitFence waits until the GPU has passed fence f, flushing the
// commands before it, and returns how long it waited.
func waitFence(f uintptr) time.Duration {
	start := time.Now()
	gl.ClientWaitSync(f, gl.SYNC_FLUSH_COMMANDS_BIT, uint64(fenceTimeout))
	return time.Since(start)
}
