package save

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"reflect"
	"unsafe"
)

// DefaultMax is the most elements a slice, or bytes a string or a binary
// form (a BodyID's, a generator's), may hold in saved state unless its
// field's tag says otherwise: save:"max=N". Append panics beyond it and
// Load refuses more, before allocating.
const DefaultMax = 1 << 16

// MaxLimit bounds a save:"max=N" tag: 2^24, a slice of 16,777,216
// elements.
const MaxLimit = 1 << 24

// ErrType is wrapped by the error For returns for a type that cannot be
// saved: a map, func, chan, unsafe.Pointer or uintptr, an interface other
// than rand.Source, a recursive type, a slice of elements that take
// memory but save nothing, or a malformed tag.
var ErrType = errors.New("save: a type that cannot be saved")

// ErrBadState is wrapped by every error Load returns for bytes that are
// not a whole, valid state of its type as Append writes it: check it with
// errors.Is.
var ErrBadState = errors.New("save: bad saved state")

// Format: a file format, little-endian.
//
//	header   "FXSV" (4 bytes), version (uint16), the type's shape (uint64,
//	         FNV-1a of its fields' names, kinds, array lengths and limits)
//	value    the value's fields in order: bools 1 byte (0 or 1), integers
//	         by their width (int and uint 8 bytes), floats and complexes
//	         by their IEEE 754 bits, strings, []byte and slices a uint32
//	         count then the elements, pointers 1 byte (0 nil, 1 set) then
//	         the pointee, binary forms (AppendBinary) and snapshots a
//	         uint32 length then the bytes, a rand.Source 1 byte (0 nil,
//	         1 *rand.PCG, 2 *rand.ChaCha8) then its binary form
//	checksum CRC-32C (Castagnoli) of every byte before it (uint32)
const (
	magic   = "FXSV"
	version = 1
	header  = 4 + 2 + 8
	trailer = 4
)

var (
	le         = binary.LittleEndian
	castagnoli = crc32.MakeTable(crc32.Castagnoli)
)

// Codec saves and loads values of type T, with a plan for T compiled
// once: make it with MustFor in a package-level variable, and use it from
// any goroutine. The zero Codec works too, looking the plan up at each
// call, and panics there with For's error if T cannot be saved.
type Codec[T any] struct {
	p *plan
}

// plan returns the codec's plan.
func (c *Codec[T]) plan() *plan {
	if c.p != nil {
		return c.p
	}
	p, err := planOf(reflect.TypeFor[T]())
	if err != nil {
		panic(err.Error())
	}
	return p
}

// For returns the codec of T, or an error wrapping ErrType that names the
// first field of T that cannot be saved and why.
func For[T any]() (*Codec[T], error) {
	p, err := planOf(reflect.TypeFor[T]())
	if err != nil {
		return nil, err
	}
	return &Codec[T]{p}, nil
}

// MustFor is For for a package-level variable: it panics with For's error,
// which is a bug in T.
func MustFor[T any]() *Codec[T] {
	c, err := For[T]()
	if err != nil {
		panic(err.Error())
	}
	return c
}

// Append appends v's state to dst and returns the extended slice. With
// room in dst (the last save's buffer, dst[:0]) it allocates nothing.
// A slice or string longer than its limit, a rand.Source holding a
// generator other than *rand.PCG and *rand.ChaCha8, or an AppendBinary
// that fails, is a bug in the caller: Append panics naming the field.
func (c *Codec[T]) Append(dst []byte, v *T) []byte {
	return c.plan().append(dst, unsafe.Pointer(v))
}

// Load replaces *v with the state in src, which Append wrote for a T.
// It checks every byte before it writes any (a snapshot is checked by its
// own Restore, called in its field's place: put the World first), and
// refuses, with an error wrapping ErrBadState that names the field and
// the number at fault: bytes of another type's layout, damaged bytes (the
// checksum), a count above its limit or above what the bytes left could
// hold, a bool other than 0 or 1, a binary form its type refuses, and
// bytes left over. It allocates only for slices beyond their capacity,
// nil pointers, changed strings, a rand.Source holding another generator
// and what a snapshot's Restore allocates: loading into the state a
// rollback saved from allocates nothing. Fields tagged save:"-" keep their values
// (zero in slice elements that Load adds); a slice keeps its capacity.
func (c *Codec[T]) Load(src []byte, v *T) error {
	return c.plan().load(src, unsafe.Pointer(v))
}

// Diff returns the first difference between two states of T that Append
// wrote, by its Go path and both values ("Tanks[2].Aim: 0.25 != 0.5",
// "Bullets: 3 elements != 4"; a physics.World's by physics.Diff), or ""
// when they are the same. For a sync test's report; it allocates.
func (c *Codec[T]) Diff(a, b []byte) string {
	return c.plan().diff(a, b)
}

// Append appends the state of *v to dst, as For's codec of v's type does,
// with the type's plan cached. v must be a non-nil pointer.
func Append(dst []byte, v any) ([]byte, error) {
	p, ptr, err := pointer(v)
	if err != nil {
		return dst, err
	}
	return p.append(dst, ptr), nil
}

// Load loads the state in src into *v, as For's codec of v's type does.
// v must be a non-nil pointer.
func Load(src []byte, v any) error {
	p, ptr, err := pointer(v)
	if err != nil {
		return err
	}
	return p.load(src, ptr)
}

// Diff is Codec.Diff for the type v points to (v may be a nil pointer of
// it).
func Diff(a, b []byte, v any) string {
	t := reflect.TypeOf(v)
	if t == nil || t.Kind() != reflect.Pointer {
		return fmt.Sprintf("save: Diff of a %T: want a pointer to the state's type", v)
	}
	p, err := planOf(t.Elem())
	if err != nil {
		return err.Error()
	}
	return p.diff(a, b)
}

// pointer returns the plan of the type v points to and the pointer.
func pointer(v any) (*plan, unsafe.Pointer, error) {
	r := reflect.ValueOf(v)
	if r.Kind() != reflect.Pointer || r.IsNil() {
		return nil, nil, fmt.Errorf("%w: %T: want a non-nil pointer to the state", ErrType, v)
	}
	p, err := planOf(r.Type().Elem())
	return p, r.UnsafePointer(), err
}

// append writes the header, the value at ptr and the checksum.
func (p *plan) append(dst []byte, ptr unsafe.Pointer) []byte {
	off := len(dst)
	dst = append(dst, magic...)
	dst = le.AppendUint16(dst, version)
	dst = le.AppendUint64(dst, p.shape)
	dst = p.root.append(dst, ptr)
	return le.AppendUint32(dst, crc32.Checksum(dst[off:], castagnoli))
}

// open checks src's header and checksum and returns the value's bytes.
func (p *plan) open(src []byte) ([]byte, error) {
	switch {
	case len(src) < header+trailer:
		return nil, fmt.Errorf("%w: %d bytes: a saved %s has %d at least", ErrBadState, len(src), p.name, header+trailer)
	case string(src[:4]) != magic:
		return nil, fmt.Errorf("%w: it begins %q, not %q", ErrBadState, src[:4], magic)
	case le.Uint16(src[4:]) != version:
		return nil, fmt.Errorf("%w: format version %d: this build reads %d", ErrBadState, le.Uint16(src[4:]), version)
	case le.Uint64(src[6:]) != p.shape:
		return nil, fmt.Errorf("%w: saved from another layout (shape %016x) than this build's %s (shape %016x): its fields, their types or limits differ",
			ErrBadState, le.Uint64(src[6:]), p.name, p.shape)
	}
	end := len(src) - trailer
	if sum := crc32.Checksum(src[:end], castagnoli); sum != le.Uint32(src[end:]) {
		return nil, fmt.Errorf("%w: checksum %08x, the bytes sum to %08x: damaged or cut short", ErrBadState, le.Uint32(src[end:]), sum)
	}
	return src[header:end], nil
}

// load checks src whole, then writes it into the value at ptr.
func (p *plan) load(src []byte, ptr unsafe.Pointer) error {
	var w walk
	return p.loadCounted(src, ptr, &w)
}

// loadCounted is load, counting its work in w.
func (p *plan) loadCounted(src []byte, ptr unsafe.Pointer, w *walk) error {
	body, err := p.open(src)
	if err != nil {
		return err
	}
	end, err := p.root.check(body, 0, w)
	if err == nil && end != len(body) {
		err = &stateError{msg: fmt.Sprintf("%d bytes left over after the value", len(body)-end)}
	}
	if err == nil {
		_, err = p.root.load(body, 0, ptr, w)
	}
	if e, ok := err.(*stateError); ok {
		e.root = p.name
	}
	return err
}

// stateError is Load's error: the path of the field at fault, and what.
type stateError struct {
	root, path, msg string
	err             error // a binary form's or a snapshot's own error
}

func (e *stateError) Error() string {
	s := "save: " + e.root + e.path + ": " + e.msg
	if e.err != nil {
		s += ": " + e.err.Error()
	}
	return s
}

// Unwrap returns ErrBadState and the field's own error.
func (e *stateError) Unwrap() []error { return []error{ErrBadState, e.err} }

// in prefixes err's path with a field's or element's, if it is a
// stateError.
func in(err error, name string, i int) error {
	if e, ok := err.(*stateError); ok {
		if name != "" {
			e.path = "." + name + e.path
		} else {
			e.path = fmt.Sprintf("[%d]%s", i, e.path)
		}
	}
	return err
}
