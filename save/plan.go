package save

import (
	"encoding"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/fixstep/fixstep/internal/fnv"
)

// kind is what a node saves: a scalar of a fixed width, or how it walks
// what it holds.
type kind uint8

const (
	kBool kind = iota
	kInt8
	kInt16
	kInt32
	kInt64
	kInt // int and uint: 8 bytes saved, whatever the build's width
	kUint
	kFloat32
	kFloat64
	kComplex64
	kComplex128
	kString
	kBytes // []byte
	kArray
	kStruct
	kSlice
	kPointer
	kBinary   // its own AppendBinary and UnmarshalBinary
	kSnapshot // its own Snapshot and Restore (a physics.World)
	kSource   // a rand.Source holding a *rand.PCG or *rand.ChaCha8
)

// node is the compiled plan for one type: what to write for a value of
// it, at the address the walk reaches.
type node struct {
	kind  kind
	typ   reflect.Type
	size  uintptr // the Go value's size
	enc   int     // the encoded size if plain, else the least an encoding takes
	plain bool    // a fixed encoded size that any bytes are valid for
	elem  *node   // an array's, slice's or pointer's element
	n     int     // an array's length
	path  string  // where in its type: "main.state.Tanks[].Aim", for a panic
	max   int     // a slice's elements, a string's bytes, a binary form's bytes at most
	// empty is a node that saves nothing: a struct of no saved fields or
	// only empty ones, an array of none or of empty elements. Every other
	// node takes a byte at least, so Load's walk of a value's elements
	// costs bytes; an empty node costs no walk at all (it is plain, with
	// enc 0), and a slice of empty elements is only its count.
	empty bool
	// fields of a struct, in order, those tagged save:"-" left out.
	fields []field
	// srcs are a rand.Source's known generators (the pointees' nodes),
	// its tag in the saved bytes being the index plus one.
	srcs []*node
	// scratch is a binary node's value that Load checks bytes with before
	// it writes anything; mu guards it.
	mu      sync.Mutex
	scratch encoding.BinaryUnmarshaler
}

// field is a struct field's name, offset and node.
type field struct {
	name string
	off  uintptr
	node *node
}

// snapshotter is a value that saves itself whole, as physics.World does.
type snapshotter interface {
	Snapshot(dst []byte) []byte
	Restore(src []byte) error
}

var (
	snapshotterType = reflect.TypeFor[snapshotter]()
	appenderType    = reflect.TypeFor[encoding.BinaryAppender]()
	unmarshalerType = reflect.TypeFor[encoding.BinaryUnmarshaler]()
	sourceType      = reflect.TypeFor[rand.Source]()
	// sources are the generators a rand.Source may hold, in the order of
	// their tags.
	sources = []reflect.Type{reflect.TypeFor[*rand.PCG](), reflect.TypeFor[*rand.ChaCha8]()}
)

// plan is a type's compiled plan: its root node and the hash of its
// shape, which the header carries.
type plan struct {
	root  *node
	shape uint64
	name  string
}

// plans caches a plan per type (reflect.Type to *plan or error).
var plans sync.Map

// planOf returns t's plan, compiling it once.
func planOf(t reflect.Type) (*plan, error) {
	if p, ok := plans.Load(t); ok {
		return unpack(p)
	}
	c := compiler{seen: map[reflect.Type]bool{}, root: t.String()}
	root, err := c.compile(t, DefaultMax, "")
	var p any
	if err != nil {
		p = fmt.Errorf("%w: %s%s", ErrType, t, err.Error())
	} else {
		p = &plan{root: root, shape: fnv.String(fnv.Offset, c.shape.String()), name: t.String()}
	}
	p, _ = plans.LoadOrStore(t, p)
	return unpack(p)
}

// unpack returns a cached plan or its error.
func unpack(p any) (*plan, error) {
	if err, ok := p.(error); ok {
		return nil, err
	}
	return p.(*plan), nil
}

// compiler builds a type's nodes and writes its shape: every field's name
// and kind, every array's length and limit, in order.
type compiler struct {
	seen  map[reflect.Type]bool // the types being compiled: a recursive one is refused
	root  string                // the type's name, which paths begin with
	shape strings.Builder
}

// compile returns the node of t, reached by path (".Tanks[]" and so on),
// with the limit max for a slice or string at this level.
func (c *compiler) compile(t reflect.Type, max int, path string) (*node, error) {
	if c.seen[t] {
		return nil, fmt.Errorf("%s: the recursive type %s: its depth is not bounded", path, t)
	}
	c.seen[t] = true
	defer delete(c.seen, t)
	n := &node{typ: t, size: t.Size(), max: max, path: c.root + path}
	scalar := func(k kind, enc int, shape string) (*node, error) {
		n.kind, n.enc, n.plain = k, enc, k != kBool
		c.shape.WriteString(shape)
		return n, nil
	}
	if t == sourceType {
		n.kind, n.enc = kSource, 1
		c.shape.WriteString("src")
		for _, s := range sources {
			e := &node{kind: kBinary, typ: s.Elem(), size: s.Elem().Size(), enc: 4, max: max, path: n.path}
			e.scratch = reflect.New(s.Elem()).Interface().(encoding.BinaryUnmarshaler)
			n.srcs = append(n.srcs, e)
		}
		return n, nil
	}
	if k := t.Kind(); k != reflect.Pointer && k != reflect.Interface {
		pt := reflect.PointerTo(t)
		switch {
		case pt.Implements(snapshotterType):
			n.kind, n.enc = kSnapshot, 4
			fmt.Fprintf(&c.shape, "snap(%s)", t)
			return n, nil
		case pt.Implements(appenderType) && pt.Implements(unmarshalerType):
			n.kind, n.enc = kBinary, 4
			n.scratch = reflect.New(t).Interface().(encoding.BinaryUnmarshaler)
			fmt.Fprintf(&c.shape, "bin(%s)<=%d", t, max)
			return n, nil
		}
	}
	switch t.Kind() {
	case reflect.Bool:
		return scalar(kBool, 1, "b")
	case reflect.Int8, reflect.Uint8:
		return scalar(kInt8, 1, "i8")
	case reflect.Int16, reflect.Uint16:
		return scalar(kInt16, 2, "i16")
	case reflect.Int32, reflect.Uint32:
		return scalar(kInt32, 4, "i32")
	case reflect.Int64, reflect.Uint64:
		return scalar(kInt64, 8, "i64")
	case reflect.Int:
		n, err := scalar(kInt, 8, "int")
		n.plain = n.size == 8 // on a 32-bit build, Load checks the range
		return n, err
	case reflect.Uint:
		n, err := scalar(kUint, 8, "uint")
		n.plain = n.size == 8
		return n, err
	case reflect.Float32:
		return scalar(kFloat32, 4, "f32")
	case reflect.Float64:
		return scalar(kFloat64, 8, "f64")
	case reflect.Complex64:
		return scalar(kComplex64, 8, "c64")
	case reflect.Complex128:
		return scalar(kComplex128, 16, "c128")
	case reflect.String:
		n.kind, n.enc = kString, 4
		fmt.Fprintf(&c.shape, "s<=%d", max)
		return n, nil
	case reflect.Array:
		fmt.Fprintf(&c.shape, "[%d]", t.Len())
		e, err := c.compile(t.Elem(), max, path+"[]")
		if err != nil {
			return nil, err
		}
		n.kind, n.elem, n.n, n.enc = kArray, e, t.Len(), t.Len()*e.enc
		n.empty = t.Len() == 0 || e.empty
		n.plain = n.empty || e.plain
		return n, nil
	case reflect.Slice:
		n.kind, n.enc = kSlice, 4
		fmt.Fprintf(&c.shape, "[]<=%d", max)
		if t.Elem().Kind() == reflect.Uint8 && !reflect.PointerTo(t.Elem()).Implements(appenderType) {
			n.kind = kBytes
			c.shape.WriteString("i8")
			return n, nil
		}
		e, err := c.compile(t.Elem(), DefaultMax, path+"[]")
		if err != nil {
			return nil, err
		}
		if e.empty && e.size > 0 {
			// Load would make up to max elements of e.size bytes for the
			// 4 bytes of a count: memory out of proportion to the input.
			return nil, fmt.Errorf("%s: a slice of %s, which saves nothing of its elements (%d bytes each, every field left out): a count of up to %d would make them all from 4 bytes; save what they hold, or leave the field out with save:\"-\"", path, t.Elem(), e.size, max)
		}
		n.elem = e
		return n, nil
	case reflect.Pointer:
		c.shape.WriteString("*")
		e, err := c.compile(t.Elem(), max, path)
		if err != nil {
			return nil, err
		}
		n.kind, n.elem, n.enc = kPointer, e, 1
		return n, nil
	case reflect.Struct:
		n.kind, n.plain, n.empty = kStruct, true, true
		c.shape.WriteString("{")
		for i := range t.NumField() {
			f := t.Field(i)
			tag := f.Tag.Get("save")
			if tag == "-" || f.Name == "_" {
				continue
			}
			fmax := DefaultMax
			if tag != "" {
				v, ok := strings.CutPrefix(tag, "max=")
				m, err := strconv.Atoi(v)
				if !ok || err != nil || m < 0 || m > MaxLimit {
					return nil, fmt.Errorf("%s.%s: the tag save:%q: want save:\"-\" or save:\"max=N\", N from 0 to %d", path, f.Name, tag, MaxLimit)
				}
				fmax = m
			}
			c.shape.WriteString(f.Name)
			c.shape.WriteString(":")
			e, err := c.compile(f.Type, fmax, path+"."+f.Name)
			if err != nil {
				return nil, err
			}
			c.shape.WriteString(";")
			n.fields = append(n.fields, field{name: f.Name, off: f.Offset, node: e})
			n.enc += e.enc
			n.plain = n.plain && e.plain
			n.empty = n.empty && e.empty
		}
		c.shape.WriteString("}")
		return n, nil
	case reflect.Map:
		return nil, fmt.Errorf("%s: a map (%s), whose order differs from run to run: keep the state in a slice or an array, or leave the field out with save:\"-\"", path, t)
	case reflect.Func, reflect.Chan, reflect.UnsafePointer, reflect.Uintptr:
		return nil, fmt.Errorf("%s: a %s (%s) is not state that can be saved: leave the field out with save:\"-\"", path, t.Kind(), t)
	case reflect.Interface:
		return nil, fmt.Errorf("%s: an interface (%s): only a rand.Source holding a *rand.PCG or *rand.ChaCha8 can be saved; save the concrete type, or leave the field out with save:\"-\"", path, t)
	}
	return nil, fmt.Errorf("%s: the type %s cannot be saved", path, t)
}
