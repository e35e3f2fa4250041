package gfx

import (
	"math"
	"strconv"
	"unicode/utf8"
)

// TextBuffer builds a line of text that changes every frame, such as a
// HUD's score or frame rate, without allocating: reuse one, Reset it each
// frame, append to it, and draw its Bytes with Renderer.DrawTextBytes.
// The appends grow its storage to the longest text it has held and then
// stop allocating. The zero value is an empty buffer, ready to use.
//
//	hud.Reset().AppendString("score ").AppendInt(score)
//	r.DrawTextBytes(face, 8, 8, hud.Bytes(), gfx.White, gfx.AlignLeft)
type TextBuffer struct{ b []byte }

// Reset empties the buffer, keeping its storage, and returns it.
func (t *TextBuffer) Reset() *TextBuffer {
	t.b = t.b[:0]
	return t
}

// Bytes returns the text, valid until the buffer next changes.
func (t *TextBuffer) Bytes() []byte { return t.b }

// Len returns the length of the text in bytes.
func (t *TextBuffer) Len() int { return len(t.b) }

// String returns a copy of the text (it allocates: for tests and logs).
func (t *TextBuffer) String() string { return string(t.b) }

// AppendString appends s and returns the buffer.
func (t *TextBuffer) AppendString(s string) *TextBuffer {
	t.b = append(t.b, s...)
	return t
}

// AppendRune appends the UTF-8 encoding of r and returns the buffer.
func (t *TextBuffer) AppendRune(r rune) *TextBuffer {
	t.b = utf8.AppendRune(t.b, r)
	return t
}

// AppendInt appends n in decimal, with a '-' when negative, and returns
// the buffer.
func (t *TextBuffer) AppendInt(n int64) *TextBuffer {
	t.b = strconv.AppendInt(t.b, n, 10)
	return t
}

// maxFixedDecimals is the most decimals AppendFixed writes.
const maxFixedDecimals = 9

// AppendFixed appends v in decimal with exactly decimals digits after the
// point (none, and no point, for 0; at most 9), rounded half away from
// zero, and returns the buffer: AppendFixed(59.94, 1) appends "59.9",
// AppendFixed(-0.004, 2) "0.00" (no sign on a zero). NaN and infinities
// append "NaN", "+Inf" and "-Inf". It does not allocate for |v| below
// 9.2e18 / 10^decimals; beyond, it formats with strconv, which may.
func (t *TextBuffer) AppendFixed(v float64, decimals int) *TextBuffer {
	d := min(max(decimals, 0), maxFixedDecimals)
	switch {
	case math.IsNaN(v):
		return t.AppendString("NaN")
	case math.IsInf(v, 1):
		return t.AppendString("+Inf")
	case math.IsInf(v, -1):
		return t.AppendString("-Inf")
	}
	scale := math.Pow10(d)
	s := math.Round(math.Abs(v) * scale)
	if s >= 1<<63/10 {
		t.b = strconv.AppendFloat(t.b, v, 'f', d, 64)
		return t
	}
	n := uint64(s)
	if v < 0 && n != 0 {
		t.b = append(t.b, '-')
	}
	p := uint64(scale)
	t.b = strconv.AppendUint(t.b, n/p, 10)
	if d == 0 {
		return t
	}
	t.b = append(t.b, '.')
	frac := n % p
	for p /= 10; p > 0; p /= 10 {
		t.b = append(t.b, byte('0'+frac/p%10))
	}
	return t
}
