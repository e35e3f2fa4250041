package fnv

import (
	"encoding/binary"
	"hash/fnv"
	"testing"
)

// TestFNV1a: every function is the standard library's FNV-1a (64 bits)
// of the same bytes, continued part by part.
func TestFNV1a(t *testing.T) {
	std := func(parts ...[]byte) uint64 {
		h := fnv.New64a()
		for _, p := range parts {
			h.Write(p)
		}
		return h.Sum64()
	}
	if got, want := Bytes(Offset, nil), std(); got != want || got != Offset {
		t.Errorf("Bytes of nothing = %016x, want %016x", got, want)
	}
	b := []byte("fixstep: the same world on every build")
	if got, want := Bytes(Offset, b), std(b); got != want {
		t.Errorf("Bytes = %016x, want %016x", got, want)
	}
	if got, want := String(Bytes(Offset, b[:7]), string(b[7:])), std(b); got != want {
		t.Errorf("Bytes then String = %016x, want %016x", got, want)
	}
	var v [8]byte
	binary.LittleEndian.PutUint64(v[:], 0x0123456789abcdef)
	if got, want := Uint64(Bytes(Offset, b), 0x0123456789abcdef), std(b, v[:]); got != want {
		t.Errorf("Uint64 = %016x, want %016x", got, want)
	}
	// A known value: FNV-1a 64 of "a".
	if got := String(Offset, "a"); got != 0xaf63dc4c8601ec8c {
		t.Errorf("String(\"a\") = %016x, want af63dc4c8601ec8c", got)
	}
}

func TestNoAllocs(t *testing.T) {
	b := make([]byte, 1024)
	if n := testing.AllocsPerRun(100, func() { Uint64(String(Bytes(Offset, b), "params"), 7) }); n != 0 {
		t.Errorf("%v allocations, want 0", n)
	}
}
