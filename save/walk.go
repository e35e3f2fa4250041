package save

import (
	"encoding"
	"fmt"
	"math"
	"reflect"
	"unsafe"
)

// sliceHeader is the layout of a slice's value.
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

// at returns p moved by off bytes.
func at(p unsafe.Pointer, off uintptr) unsafe.Pointer { return unsafe.Add(p, off) }

// append writes the value at p.
func (n *node) append(dst []byte, p unsafe.Pointer) []byte {
	switch n.kind {
	case kBool:
		if *(*bool)(p) {
			return append(dst, 1)
		}
		return append(dst, 0)
	case kInt8:
		return append(dst, *(*uint8)(p))
	case kInt16:
		return le.AppendUint16(dst, *(*uint16)(p))
	case kInt32, kFloat32:
		return le.AppendUint32(dst, *(*uint32)(p))
	case kInt64, kFloat64:
		return le.AppendUint64(dst, *(*uint64)(p))
	case kInt:
		if n.size == 4 {
			return le.AppendUint64(dst, uint64(int64(*(*int32)(p))))
		}
		return le.AppendUint64(dst, *(*uint64)(p))
	case kUint:
		if n.size == 4 {
			return le.AppendUint64(dst, uint64(*(*uint32)(p)))
		}
		return le.AppendUint64(dst, *(*uint64)(p))
	case kComplex64:
		return le.AppendUint32(le.AppendUint32(dst, *(*uint32)(p)), *(*uint32)(at(p, 4)))
	case kComplex128:
		return le.AppendUint64(le.AppendUint64(dst, *(*uint64)(p)), *(*uint64)(at(p, 8)))
	case kString:
		s := *(*string)(p)
		n.within(len(s), "bytes")
		return append(le.AppendUint32(dst, uint32(len(s))), s...)
	case kBytes:
		s := *(*[]byte)(p)
		n.within(len(s), "bytes")
		return append(le.AppendUint32(dst, uint32(len(s))), s...)
	case kArray:
		if n.empty {
			return dst
		}
		for i := range n.n {
			dst = n.elem.append(dst, at(p, uintptr(i)*n.elem.size))
		}
		return dst
	case kStruct:
		for _, f := range n.fields {
			dst = f.node.append(dst, at(p, f.off))
		}
		return dst
	case kSlice:
		s := (*sliceHeader)(p)
		n.within(s.len, "elements")
		dst = le.AppendUint32(dst, uint32(s.len))
		if n.elem.empty {
			return dst
		}
		for i := range s.len {
			dst = n.elem.append(dst, at(s.data, uintptr(i)*n.elem.size))
		}
		return dst
	case kPointer:
		q := *(*unsafe.Pointer)(p)
		if q == nil {
			return append(dst, 0)
		}
		return n.elem.append(append(dst, 1), q)
	case kBinary:
		start := len(dst)
		var err error
		dst, err = reflect.NewAt(n.typ, p).Interface().(encoding.BinaryAppender).AppendBinary(le.AppendUint32(dst, 0))
		if err != nil {
			panic(fmt.Sprintf("save: %s (a %s): AppendBinary: %v", n.where(), n.typ, err))
		}
		size := len(dst) - start - 4
		n.within(size, "bytes")
		le.PutUint32(dst[start:], uint32(size))
		return dst
	case kSnapshot:
		start := len(dst)
		dst = reflect.NewAt(n.typ, p).Interface().(snapshotter).Snapshot(le.AppendUint32(dst, 0))
		size := len(dst) - start - 4
		if uint64(size) > math.MaxUint32 {
			panic(fmt.Sprintf("save: %s (a %s): a snapshot of %d bytes, above 4 GiB", n.where(), n.typ, size))
		}
		le.PutUint32(dst[start:], uint32(size))
		return dst
	case kSource:
		v := reflect.NewAt(n.typ, p).Elem()
		if v.IsNil() {
			return append(dst, 0)
		}
		g := v.Elem()
		for i, t := range sources {
			if g.Type() == t && !g.IsNil() {
				return n.srcs[i].append(append(dst, byte(i+1)), g.UnsafePointer())
			}
		}
		panic(fmt.Sprintf("save: %s: a rand.Source holding a %s: only a *rand.PCG or a *rand.ChaCha8 can be saved", n.where(), g.Type()))
	}
	panic("save: unknown kind")
}

// within panics if a length is above the node's limit.
func (n *node) within(size int, what string) {
	if size > n.max {
		panic(fmt.Sprintf("save: %s (a %s): %d %s, above its limit of %d: raise it with a tag save:\"max=N\" on its field", n.where(), n.typ, size, what, n.max))
	}
}

// where names the node's place in its type for a panic: "main.state.Bullets".
func (n *node) where() string { return n.path }

// bad returns Load's error for the value at fault.
func bad(format string, args ...any) error {
	return &stateError{msg: fmt.Sprintf(format, args...)}
}

// count reads a uint32 count at off and checks it against the node's limit
// and, for elements of at least enc bytes each, against the bytes left.
func (n *node) count(src []byte, off, enc int, what string) (int, int, error) {
	if len(src)-off < 4 {
		return 0, 0, bad("cut short: a count needs 4 bytes, %d left", len(src)-off)
	}
	c := le.Uint32(src[off:])
	off += 4
	switch {
	case uint64(c) > uint64(n.max):
		return 0, 0, bad("%d %s, above the limit of %d", c, what, n.max)
	case enc > 0 && uint64(c)*uint64(enc) > uint64(len(src)-off):
		return 0, 0, bad("%d %s of at least %d bytes each, in the %d bytes left", c, what, enc, len(src)-off)
	}
	return int(c), off, nil
}

// A walk counts the nodes Load visits, checking and then writing: its
// work, which FuzzLoad holds to a bound per byte of input. Every node
// visited but an empty one is a byte of input at least, or a container
// of such nodes; an empty node or a slice of empty elements is visited
// once, whatever its length.
type walk struct{ visits int }

// check walks the bytes of one value from src[off:], checking everything
// Load's write will read, and returns the offset after it.
func (n *node) check(src []byte, off int, w *walk) (int, error) {
	w.visits++
	if n.plain {
		if len(src)-off < n.enc {
			return 0, bad("cut short: %d bytes left of the %d of a %s", len(src)-off, n.enc, n.typ)
		}
		return off + n.enc, nil
	}
	switch n.kind {
	case kBool:
		if len(src)-off < 1 {
			return 0, bad("cut short: no byte left for a bool")
		}
		if src[off] > 1 {
			return 0, bad("bool byte %d: want 0 or 1", src[off])
		}
		return off + 1, nil
	case kInt, kUint: // a 32-bit build's
		if len(src)-off < 8 {
			return 0, bad("cut short: %d bytes left of the 8 of an %s", len(src)-off, n.typ)
		}
		v := le.Uint64(src[off:])
		if n.kind == kInt && int64(v) != int64(int32(v)) || n.kind == kUint && v > math.MaxUint32 {
			return 0, bad("%s %d does not fit this build's %d-bit %s", n.typ, v, 8*n.size, n.typ)
		}
		return off + 8, nil
	case kString, kBytes:
		c, off, err := n.count(src, off, 1, "bytes")
		return off + c, err
	case kArray:
		for i := range n.n {
			var err error
			if off, err = n.elem.check(src, off, w); err != nil {
				return 0, in(err, "", i)
			}
		}
		return off, nil
	case kStruct:
		for _, f := range n.fields {
			var err error
			if off, err = f.node.check(src, off, w); err != nil {
				return 0, in(err, f.name, 0)
			}
		}
		return off, nil
	case kSlice:
		c, off, err := n.count(src, off, n.elem.enc, "elements")
		if err != nil {
			return 0, err
		}
		if n.elem.plain {
			// count checked it against the bytes left; an empty element
			// takes none
			return off + c*n.elem.enc, nil
		}
		for i := range c {
			if off, err = n.elem.check(src, off, w); err != nil {
				return 0, in(err, "", i)
			}
		}
		return off, nil
	case kPointer:
		if len(src)-off < 1 {
			return 0, bad("cut short: no byte left for a pointer")
		}
		switch src[off] {
		case 0:
			return off + 1, nil
		case 1:
			return n.elem.check(src, off+1, w)
		}
		return 0, bad("pointer byte %d: want 0 (nil) or 1", src[off])
	case kBinary:
		c, off, err := n.count(src, off, 1, "bytes")
		if err != nil {
			return 0, err
		}
		n.mu.Lock()
		err = n.scratch.UnmarshalBinary(src[off : off+c])
		n.mu.Unlock()
		if err != nil {
			return 0, &stateError{msg: fmt.Sprintf("a %s of %d bytes", n.typ, c), err: err}
		}
		return off + c, nil
	case kSnapshot:
		if len(src)-off < 4 {
			return 0, bad("cut short: a snapshot's length needs 4 bytes, %d left", len(src)-off)
		}
		c := le.Uint32(src[off:])
		if uint64(c) > uint64(len(src)-off-4) {
			return 0, bad("a snapshot of %d bytes, in the %d bytes left", c, len(src)-off-4)
		}
		return off + 4 + int(c), nil
	case kSource:
		if len(src)-off < 1 {
			return 0, bad("cut short: no byte left for a rand.Source")
		}
		t := int(src[off])
		if t == 0 {
			return off + 1, nil
		}
		if t > len(n.srcs) {
			return 0, bad("rand.Source tag %d: want 0 (nil), 1 (*rand.PCG) or 2 (*rand.ChaCha8)", t)
		}
		return n.srcs[t-1].check(src, off+1, w)
	}
	panic("save: unknown kind")
}

// load writes the value of checked bytes from src[off:] at p and returns
// the offset after it. Only a snapshot's Restore (and an UnmarshalBinary
// that refuses what it took in check) can fail here.
func (n *node) load(src []byte, off int, p unsafe.Pointer, w *walk) (int, error) {
	w.visits++
	if n.empty {
		return off, nil
	}
	switch n.kind {
	case kBool:
		*(*bool)(p) = src[off] == 1
		return off + 1, nil
	case kInt8:
		*(*uint8)(p) = src[off]
		return off + 1, nil
	case kInt16:
		*(*uint16)(p) = le.Uint16(src[off:])
		return off + 2, nil
	case kInt32, kFloat32:
		*(*uint32)(p) = le.Uint32(src[off:])
		return off + 4, nil
	case kInt64, kFloat64:
		*(*uint64)(p) = le.Uint64(src[off:])
		return off + 8, nil
	case kInt, kUint:
		if v := le.Uint64(src[off:]); n.size == 4 {
			*(*uint32)(p) = uint32(v)
		} else {
			*(*uint64)(p) = v
		}
		return off + 8, nil
	case kComplex64:
		*(*uint32)(p), *(*uint32)(at(p, 4)) = le.Uint32(src[off:]), le.Uint32(src[off+4:])
		return off + 8, nil
	case kComplex128:
		*(*uint64)(p), *(*uint64)(at(p, 8)) = le.Uint64(src[off:]), le.Uint64(src[off+8:])
		return off + 16, nil
	case kString:
		c := int(le.Uint32(src[off:]))
		b := src[off+4 : off+4+c]
		if s := (*string)(p); *s != string(b) { // no allocation when it is the same
			*s = string(b)
		}
		return off + 4 + c, nil
	case kBytes:
		c := int(le.Uint32(src[off:]))
		s := (*[]byte)(p)
		if cap(*s) < c {
			*s = make([]byte, c)
		}
		*s = (*s)[:c]
		copy(*s, src[off+4:])
		return off + 4 + c, nil
	case kArray:
		var err error
		for i := range n.n {
			if off, err = n.elem.load(src, off, at(p, uintptr(i)*n.elem.size), w); err != nil {
				return 0, in(err, "", i)
			}
		}
		return off, nil
	case kStruct:
		var err error
		for _, f := range n.fields {
			if off, err = f.node.load(src, off, at(p, f.off), w); err != nil {
				return 0, in(err, f.name, 0)
			}
		}
		return off, nil
	case kSlice:
		c := int(le.Uint32(src[off:]))
		off += 4
		s := reflect.NewAt(n.typ, p).Elem()
		if old := s.Len(); s.Cap() < c {
			s.Set(reflect.MakeSlice(n.typ, c, c))
		} else {
			s.SetLen(c)
			if c > old {
				s.Slice(old, c).Clear() // as append would: fields Load skips are zero
			}
		}
		if n.elem.empty {
			return off, nil
		}
		base := s.UnsafePointer()
		var err error
		for i := range c {
			if off, err = n.elem.load(src, off, at(base, uintptr(i)*n.elem.size), w); err != nil {
				return 0, in(err, "", i)
			}
		}
		return off, nil
	case kPointer:
		q := (*unsafe.Pointer)(p)
		if src[off] == 0 {
			*q = nil
			return off + 1, nil
		}
		if *q == nil {
			*q = reflect.New(n.elem.typ).UnsafePointer()
		}
		return n.elem.load(src, off+1, *q, w)
	case kBinary:
		c := int(le.Uint32(src[off:]))
		if err := reflect.NewAt(n.typ, p).Interface().(encoding.BinaryUnmarshaler).UnmarshalBinary(src[off+4 : off+4+c]); err != nil {
			return 0, &stateError{msg: fmt.Sprintf("a %s of %d bytes", n.typ, c), err: err}
		}
		return off + 4 + c, nil
	case kSnapshot:
		c := int(le.Uint32(src[off:]))
		if err := reflect.NewAt(n.typ, p).Interface().(snapshotter).Restore(src[off+4 : off+4+c]); err != nil {
			return 0, &stateError{msg: fmt.Sprintf("a %s snapshot of %d bytes", n.typ, c), err: err}
		}
		return off + 4 + c, nil
	case kSource:
		v := reflect.NewAt(n.typ, p).Elem()
		t := int(src[off])
		if t == 0 {
			v.SetZero()
			return off + 1, nil
		}
		g := v.Elem()
		if v.IsNil() || g.Type() != sources[t-1] || g.IsNil() {
			g = reflect.New(sources[t-1].Elem())
			v.Set(g)
		}
		return n.srcs[t-1].load(src, off+1, g.UnsafePointer(), w)
	}
	panic("save: unknown kind")
}
