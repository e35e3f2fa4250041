package save

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"

	"github.com/fixstep/fixstep/physics"
)

// worldType is the snapshot whose differences physics.Diff names.
var worldType = reflect.TypeFor[physics.World]()

// diff names the first difference between two saved states, or "".
func (p *plan) diff(a, b []byte) string {
	ba, err := p.whole(a)
	if err != nil {
		return "a: " + err.Error()
	}
	bb, err := p.whole(b)
	if err != nil {
		return "b: " + err.Error()
	}
	d, _, _ := p.root.diff(ba, bb, 0, 0)
	if strings.HasPrefix(d, ":") {
		return p.name + d // the root itself differs
	}
	return strings.TrimPrefix(d, ".")
}

// whole returns the value's bytes of a state Load would accept (but for
// a snapshot's own checks).
func (p *plan) whole(src []byte) ([]byte, error) {
	body, err := p.open(src)
	if err != nil {
		return nil, err
	}
	end, err := p.root.check(body, 0, new(walk))
	if err == nil && end != len(body) {
		err = &stateError{msg: fmt.Sprintf("%d bytes left over after the value", len(body)-end)}
	}
	if e, ok := err.(*stateError); ok {
		e.root = p.name
	}
	return body, err
}

// diff compares the values of checked bytes at a[oa:] and b[ob:] and
// returns the first difference, its path relative to this node (".Aim",
// "[2]") followed by ": x != y", or "" and the offsets after both.
func (n *node) diff(a, b []byte, oa, ob int) (string, int, int) {
	if n.plain && bytes.Equal(a[oa:oa+n.enc], b[ob:ob+n.enc]) {
		return "", oa + n.enc, ob + n.enc
	}
	switch n.kind {
	case kArray:
		for i := range n.n {
			var d string
			if d, oa, ob = n.elem.diff(a, b, oa, ob); d != "" {
				return fmt.Sprintf("[%d]%s", i, d), 0, 0
			}
		}
		return "", oa, ob
	case kStruct:
		for _, f := range n.fields {
			var d string
			if d, oa, ob = f.node.diff(a, b, oa, ob); d != "" {
				return "." + f.name + d, 0, 0
			}
		}
		return "", oa, ob
	case kSlice:
		ca, cb := int(le.Uint32(a[oa:])), int(le.Uint32(b[ob:]))
		if ca != cb {
			return fmt.Sprintf(": %d elements != %d", ca, cb), 0, 0
		}
		oa, ob = oa+4, ob+4
		if n.elem.empty {
			return "", oa, ob
		}
		for i := range ca {
			var d string
			if d, oa, ob = n.elem.diff(a, b, oa, ob); d != "" {
				return fmt.Sprintf("[%d]%s", i, d), 0, 0
			}
		}
		return "", oa, ob
	case kPointer:
		switch {
		case a[oa] != b[ob]:
			return fmt.Sprintf(": %s != %s", setOrNil(a[oa]), setOrNil(b[ob])), 0, 0
		case a[oa] == 0:
			return "", oa + 1, ob + 1
		}
		return n.elem.diff(a, b, oa+1, ob+1)
	case kSource:
		if a[oa] != b[ob] {
			return fmt.Sprintf(": %s != %s", sourceName(a[oa]), sourceName(b[ob])), 0, 0
		}
		if a[oa] == 0 {
			return "", oa + 1, ob + 1
		}
		return n.srcs[a[oa]-1].diff(a, b, oa+1, ob+1)
	case kSnapshot:
		var w walk
		ea, _ := n.check(a, oa, &w)
		eb, _ := n.check(b, ob, &w)
		x, y := a[oa+4:ea], b[ob+4:eb]
		if bytes.Equal(x, y) {
			return "", ea, eb
		}
		if n.typ == worldType {
			return ": " + physics.Diff(x, y), 0, 0
		}
		for i := range min(len(x), len(y)) {
			if x[i] != y[i] {
				return fmt.Sprintf(": the snapshots differ at byte %d", i), 0, 0
			}
		}
		return fmt.Sprintf(": snapshots of %d bytes != %d", len(x), len(y)), 0, 0
	}
	// A scalar, a string, []byte or a binary form: compare the bytes,
	// then show both values.
	var w walk
	ea, _ := n.check(a, oa, &w)
	eb, _ := n.check(b, ob, &w)
	if bytes.Equal(a[oa:ea], b[ob:eb]) {
		return "", ea, eb
	}
	x, y := n.show(a, oa), n.show(b, ob)
	if x == y { // NaNs of other payloads, or a type that prints alike
		x, y = fmt.Sprintf("%s (bytes %x)", x, a[oa:ea]), fmt.Sprintf("%s (bytes %x)", y, b[ob:eb])
	}
	return ": " + x + " != " + y, 0, 0
}

// show loads the value at src[off:] into a new one and prints it.
func (n *node) show(src []byte, off int) string {
	v := reflect.New(n.typ)
	if _, err := n.load(src, off, v.UnsafePointer(), new(walk)); err != nil {
		return "?"
	}
	if n.kind == kString || n.kind == kBytes {
		return fmt.Sprintf("%q", v.Elem().Interface())
	}
	return fmt.Sprint(v.Elem().Interface())
}

// setOrNil names a pointer's saved byte.
func setOrNil(b byte) string {
	if b == 0 {
		return "nil"
	}
	return "set"
}

// sourceName names a rand.Source's saved tag.
func sourceName(b byte) string {
	if b == 0 {
		return "nil"
	}
	return sources[b-1].String()
}
