//go:build cgo

package gfx

import (
	"math"
	"strconv"
	"testing"
)

func TestTextBufferAppendFixed(t *testing.T) {
	for _, c := range []struct {
		v    float64
		d    int
		want string
	}{
		{59.94, 1, "59.9"},
		{59.96, 1, "60.0"},
		{0.125, 2, "0.13"}, // half away from zero
		{-0.125, 2, "-0.13"},
		{-0.004, 2, "0.00"}, // no sign on a zero
		{math.Copysign(0, -1), 1, "0.0"},
		{3, 0, "3"},
		{2.5, 0, "3"},
		{-7.25, 3, "-7.250"},
		{1234567.891, 2, "1234567.89"},
		{0.000123456789, 9, "0.000123457"},
		{1.5, -3, "2"}, // decimals clamped to 0..9
		{1.0 / 3, 20, "0.333333333"},
		{math.NaN(), 2, "NaN"},
		{math.Inf(1), 2, "+Inf"},
		{math.Inf(-1), 0, "-Inf"},
		{1e30, 2, strconv.FormatFloat(1e30, 'f', 2, 64)}, // beyond int64: strconv
	} {
		var b TextBuffer
		if got := b.AppendFixed(c.v, c.d).String(); got != c.want {
			t.Errorf("AppendFixed(%v, %d) = %q, want %q", c.v, c.d, got, c.want)
		}
	}
}

func TestTextBufferAppends(t *testing.T) {
	var b TextBuffer
	b.AppendString("score ").AppendInt(-42).AppendRune(' ').AppendRune('€').AppendInt(math.MaxInt64)
	if got, want := b.String(), "score -42 €9223372036854775807"; got != want || b.Len() != len(want) || string(b.Bytes()) != want {
		t.Errorf("got %q (len %d), want %q", got, b.Len(), want)
	}
	if b.Reset().Len() != 0 || len(b.Bytes()) != 0 {
		t.Errorf("Reset left %q", b.String())
	}
}

// TestTextBufferAllocs: once its storage has grown, a reused buffer
// formats numbers without allocating.
func TestTextBufferAllocs(t *testing.T) {
	var b TextBuffer
	n := int64(0)
	fill := func() {
		n++
		b.Reset().AppendString("fps ").AppendFixed(float64(n)*0.37, 2).AppendString(" score ").AppendInt(n * -987654321).AppendRune('✓')
	}
	fill()
	if a := testing.AllocsPerRun(1000, fill); a != 0 {
		t.Errorf("a warm TextBuffer allocates %v times a fill", a)
	}
}
