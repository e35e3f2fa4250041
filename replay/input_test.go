package replay

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/fixstep/fixstep/engine"
)

// recordGameInput writes ticks ticks of two players' 3-byte inputs (which
// change every 7th tick) and returns the file and the inputs.
func recordGameInput(t testing.TB, ticks int) ([]byte, [][]byte) {
	var buf bytes.Buffer
	w, err := newWriter(&buf, fileHeader{TPS: 60, Engine: "test", InputSize: 3, Players: 2})
	if err != nil {
		t.Fatal(err)
	}
	var want [][]byte
	for i := range ticks {
		v := byte(i / 7)
		in := []byte{v, 1, 2, v, 3, 4}
		want = append(want, in)
		w.TickInput(in, 0)
		if (i+1)%60 == 0 {
			w.Hash(uint64(i+1), uint64(i)*31)
		}
	}
	if err := w.Close(""); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), want
}

// TestGameInputRoundTrip: every tick's input of every player comes back
// from the file as written, chunk by chunk, and a tick that repeats the
// one before costs one byte.
func TestGameInputRoundTrip(t *testing.T) {
	data, want := recordGameInput(t, 250)
	rr, err := newReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if h := rr.Header; h.InputSize != 3 || h.Players != 2 || h.TPS != 60 {
		t.Fatalf("header %+v", h)
	}
	var d inputDecoder
	got := make([]byte, 6)
	tick := 0
	for {
		c, err := rr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		// 60 ticks, 9 distinct values at most: whole ticks are 7 bytes,
		// repeats 1.
		if c.Ticks == 60 && len(c.Input) > 10*7+50 {
			t.Errorf("a chunk of 60 ticks holds %d bytes of input: repeats are not 1 byte", len(c.Input))
		}
		d.Reset(c, rr.Header)
		for d.Left() > 0 {
			if _, err := d.Next(got); err != nil {
				t.Fatalf("tick %d: %v", tick, err)
			}
			if !bytes.Equal(got, want[tick]) {
				t.Fatalf("tick %d: %v, want %v", tick, got, want[tick])
			}
			tick++
		}
	}
	if tick != 250 || rr.End.Ticks != 250 {
		t.Errorf("%d ticks read, end record %d, want 250", tick, rr.End.Ticks)
	}
}

// TestInputDecoderDamage: a chunk whose input does not hold its ticks is
// refused, naming the tick; the decoder never reads outside the chunk.
func TestInputDecoderDamage(t *testing.T) {
	h := fileHeader{TPS: 60, InputSize: 2, Players: 1}
	for name, c := range map[string]struct {
		chunk chunk
		want  string
	}{
		"repeat first": {chunk{First: 10, Ticks: 1, Input: []byte{0}}, "tick 10 repeats a tick before its chunk"},
		"short":        {chunk{First: 10, Ticks: 1, Input: []byte{1, 5}}, "tick 10 holds 1 bytes of input, want 2"},
		"unknown":      {chunk{First: 10, Ticks: 1, Input: []byte{7, 5, 5}}, "tick 10: unknown input record 0x07"},
		"ends early":   {chunk{First: 10, Ticks: 3, Input: []byte{1, 5, 5, 0}}, "ends at tick 12"},
		"trailing":     {chunk{First: 10, Ticks: 1, Input: []byte{1, 5, 5, 0}}, "1 bytes after the last tick"},
	} {
		var d inputDecoder
		d.Reset(c.chunk, h)
		var err error
		dst := make([]byte, 2)
		for d.Left() > 0 && err == nil {
			_, err = d.Next(dst)
		}
		if !errors.Is(err, ErrBadFile) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want ErrBadFile saying %q", name, err, c.want)
		}
	}
}

// TestTickInputAllocs: recording game input allocates nothing once the
// chunk buffers have grown.
func TestTickInputAllocs(t *testing.T) {
	w, err := newWriter(io.Discard, fileHeader{TPS: 60, InputSize: 4, Players: 1})
	if err != nil {
		t.Fatal(err)
	}
	in := []byte{1, 2, 3, 4}
	for i := range 240 {
		in[0] = byte(i)
		w.TickInput(in, 0)
	}
	i := 0
	if n := testing.AllocsPerRun(600, func() {
		i++
		in[0] = byte(i / 3)
		w.TickInput(in, 0)
		if i%60 == 0 {
			w.Hash(uint64(i), 1)
		}
	}); n != 0 {
		t.Errorf("TickInput allocates %v times a tick", n)
	}
}

// FuzzInputDecoder: whatever a chunk holds, input and seat changes, the
// decoder returns errors wrapping ErrBadFile or the ticks, never panics,
// never allocates, and every tick it returns has its empty seats' inputs
// all zero and no seat of a player the header does not declare.
func FuzzInputDecoder(f *testing.F) {
	data, _ := recordGameInput(f, 130)
	rr, err := newReader(bytes.NewReader(data))
	if err != nil {
		f.Fatal(err)
	}
	c, err := rr.Next()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(uint8(3), uint8(2), c.Ticks, c.Input, []byte(nil))
	// A chunk of the lobby's match, with seat changes at ticks 0 and 40.
	path := recordLobby(f, f.TempDir(), "lobby.fxr", 800, nil)
	lobbyData, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	if rr, err = newReader(bytes.NewReader(lobbyData)); err != nil {
		f.Fatal(err)
	}
	for c.First != 660 {
		if c, err = rr.Next(); err != nil {
			f.Fatal(err)
		}
	}
	f.Add(uint8(2), uint8(4), c.Ticks, c.Input, seatBytes(c.Seats))
	f.Fuzz(func(t *testing.T, size, players uint8, ticks uint64, in, seatData []byte) {
		size, players = size%engine.MaxInputSize+1, players%engine.MaxPlayers+1
		ticks %= MaxChunkTicks + 1
		seats := seatChanges(seatData)
		h := fileHeader{TPS: 60, InputSize: size, Players: players}
		var d inputDecoder
		dst := make([]byte, int(size)*int(players))
		n := uint64(0)
		var err error
		if allocs := testing.AllocsPerRun(1, func() {
			d.Reset(chunk{First: 5, Ticks: ticks, Input: in, Seats: seats}, h)
			n, err = 0, nil
			for d.Left() > 0 && err == nil {
				var empty uint32
				if empty, err = d.Next(dst); err == nil {
					n++
					if empty>>players != 0 {
						t.Fatalf("tick %d: empty seats %#x of %d players", n+4, empty, players)
					}
					in := engine.NewInputs(dst, int(size), 0)
					in.WithEmptySeats(empty) // panics on an empty seat's input
				}
			}
		}); allocs > 0 && err == nil {
			t.Fatalf("decoding %d ticks allocated", n)
		}
		if err != nil && !errors.Is(err, ErrBadFile) {
			t.Fatalf("error %v does not wrap ErrBadFile", err)
		}
		if err == nil && n != ticks {
			t.Fatal(fmt.Sprintf("%d ticks decoded of %d, no error", n, ticks))
		}
	})
}

// seatBytes encodes seat changes for FuzzInputDecoder: a byte of the tick
// and four of the mask each.
func seatBytes(seats []seatChange) []byte {
	var b []byte
	for _, s := range seats {
		b = append(b, byte(s.At))
		b = binary.LittleEndian.AppendUint32(b, s.Empty)
	}
	return b
}

// seatChanges decodes seatBytes.
func seatChanges(b []byte) []seatChange {
	var seats []seatChange
	for ; len(b) >= 5; b = b[5:] {
		seats = append(seats, seatChange{At: uint64(b[0]), Empty: binary.LittleEndian.Uint32(b[1:])})
	}
	return seats
}
