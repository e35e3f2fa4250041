package replay

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"os"
	"reflect"
	"runtime/metrics"
	"strings"
	"testing"

	"github.com/fixstep/fixstep/engine"
)

// oneByte is the header of the recordings writeFile makes.
var oneByte = fileHeader{TPS: 60, Seed: 42, Engine: "0.2.0", Params: "n=300", InputSize: 1, Players: 1}

// tickInput is the input writeFile records at tick i: it changes every
// 7th tick.
func tickInput(i int) byte { return byte(i / 7) }

// writeFile writes a recording of ticks ticks of tickInput, a hash every
// 10 ticks, chunks of tps ticks, and the end record (unless end is false:
// a killed process).
func writeFile(t testing.TB, tps uint32, ticks int, end bool) ([]byte, []tickHash) {
	var b bytes.Buffer
	h := oneByte
	h.TPS = tps
	w, err := newWriter(&b, h)
	if err != nil {
		t.Fatal(err)
	}
	var hashes []tickHash
	for i := range ticks {
		w.TickInput([]byte{tickInput(i)}, 0)
		if (i+1)%10 == 0 {
			h := tickHash{uint64(i + 1), uint64(i) * 0x9e3779b9}
			w.Hash(h.Tick, h.Hash)
			hashes = append(hashes, h)
		}
	}
	if end {
		if err := w.Close("panic in Update at tick 99: boom"); err != nil {
			t.Fatal(err)
		}
	} else if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), hashes
}

func TestReplayRoundTrip(t *testing.T) {
	data, hashes := writeFile(t, 60, 100, true)
	h, in, hs, end, err := readAll(data)
	if err != nil {
		t.Fatal(err)
	}
	if h != oneByte {
		t.Errorf("header %+v", h)
	}
	if !reflect.DeepEqual(hs, hashes) || end != (fileEnd{100, "panic in Update at tick 99: boom"}) {
		t.Errorf("hashes %v end %+v", hs, end)
	}
	// The joined input decodes to the ticks written: chunks stand alone.
	var dec inputDecoder
	dec.Reset(chunk{Ticks: 100, Input: in}, h)
	got := []byte{0}
	for i := range 100 {
		if _, err := dec.Next(got); err != nil || got[0] != tickInput(i) {
			t.Fatalf("tick %d: %v, input %d, want %d", i, err, got[0], tickInput(i))
		}
	}
}

// TestReplayTruncatedAtEveryOffset cuts a small file at every byte: each
// cut is an error, or a clean "recording ends at tick N" where N is the
// ticks of the complete chunks before the cut, never a panic or more.
func TestReplayTruncatedAtEveryOffset(t *testing.T) {
	data, _ := writeFile(t, 20, 65, true) // chunks of 20, 20, 20, 5 ticks
	var ends []int                        // where each chunk ends in the file
	rr, _ := newReader(bytes.NewReader(data))
	headerEnd := len(data) - rr.r.Buffered()
	for {
		_, err := rr.Next()
		if err != nil {
			break
		}
		ends = append(ends, len(data)-rr.r.Buffered())
	}
	if len(ends) != 4 {
		t.Fatalf("%d chunks, want 4", len(ends))
	}
	for cut := 0; cut < len(data); cut++ {
		_, _, _, end, err := readAll(data[:cut])
		if cut < headerEnd {
			if !errors.Is(err, ErrBadFile) {
				t.Fatalf("cut at %d, in the header: %v", cut, err)
			}
			continue
		}
		want := uint64(0)
		for i, e := range ends {
			if cut >= e {
				want = uint64(min(20*(i+1), 65))
			}
		}
		if !errors.Is(err, ErrTruncated) || end.Ticks != want ||
			!strings.Contains(err.Error(), "recording ends at tick") {
			t.Fatalf("cut at %d: ticks %d, %v; want a truncation at tick %d", cut, end.Ticks, err, want)
		}
	}
	if _, _, _, _, err := readAll(data); err != nil {
		t.Fatalf("whole file: %v", err)
	}
}

func TestReplayDamage(t *testing.T) {
	data, _ := writeFile(t, 20, 65, true)
	flip := append([]byte(nil), data...)
	flip[len(data)/2] ^= 1
	v1 := append([]byte(nil), data...)
	v1[8] = 1
	v3 := append([]byte(nil), data...)
	v3[8] = 3
	v6 := append([]byte(nil), data...)
	v6[8] = 6
	for name, c := range map[string]struct {
		data []byte
		want string
	}{
		"a flipped bit": {flip, "checksum mismatch (corrupt)"},
		"not a replay":  {[]byte("PNG\x00\x00\x00\x00\x00\x00\x00"), "not a fixstep replay"},
		"empty":         {nil, "not a fixstep replay"},
		"header only":   {data[:11], "truncated header"},
		"old version":   {v1, "format version 1; this build reads versions 4 to 5"},
		"version 3":     {v3, "format version 3; this build reads versions 4 to 5 (older recordings hold device input"},
		"version 6":     {v6, "format version 6; this build reads versions 4 to 5"},
		"trailing data": {append(append([]byte(nil), data...), 0), "data after the end record"},
	} {
		_, _, _, _, err := readAll(c.data)
		if !errors.Is(err, ErrBadFile) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want ErrBadFile saying %q", name, err, c.want)
		}
	}
	if !strings.Contains(func() string { _, _, _, _, err := readAll(flip); return err.Error() }(), "chunk of ticks") {
		t.Error("a corrupt chunk's error does not name its ticks")
	}
}

// fixCRC rewrites the checksum of the record ending at end, which starts
// at start, so a crafted field reaches the decoder's limits.
func fixCRC(b []byte, start, end int) {
	binary.LittleEndian.PutUint32(b[end-4:], crc32.ChecksumIEEE(b[start:end-4]))
}

// TestReplayLimits crafts each header and chunk field past its limit, with
// valid checksums: each is refused before anything is allocated for it.
func TestReplayLimits(t *testing.T) {
	headerInput := func(tps uint32, engine, params uint64, size, players byte) []byte {
		b := append([]byte(nil), replayMagic[:]...)
		b = binary.LittleEndian.AppendUint16(b, formatVersion)
		b = binary.LittleEndian.AppendUint32(b, tps)
		b = binary.LittleEndian.AppendUint64(b, 1)
		b = binary.AppendUvarint(b, engine)
		b = append(b, make([]byte, min(engine, 100))...)
		b = binary.AppendUvarint(b, params)
		b = append(b, make([]byte, min(params, 100))...)
		b = append(b, size, players, 0, 0, 0, 0)
		fixCRC(b, 0, len(b))
		return b
	}
	header := func(tps uint32, engine, params uint64) []byte { return headerInput(tps, engine, params, 1, 1) }
	chunk := func(ticks, input, hashes uint64) []byte {
		b := []byte{markChunk, 0}
		b = binary.AppendUvarint(b, ticks)
		b = binary.AppendUvarint(b, input)
		b = append(b, make([]byte, min(input, 100))...)
		b = append(b, 0) // no seat changes
		b = binary.AppendUvarint(b, hashes)
		b = append(b, 0, 0, 0, 0)
		fixCRC(b, 0, len(b))
		return b
	}
	ok := header(60, 5, 5)
	join := func(a, b []byte) []byte { return append(append([]byte(nil), a...), b...) }
	for name, c := range map[string]struct {
		data []byte
		want string
	}{
		"engine":       {header(60, MaxEngine+1, 5), "engine version length is 65, over the limit of 64"},
		"params":       {header(60, 5, 50000000), "parameters length is 50000000, over the limit of 1024"},
		"tps 0":        {header(0, 5, 5), "TPS 0"},
		"input size":   {headerInput(60, 5, 5, engine.MaxInputSize+1, 1), "input size 65, over 64"},
		"players":      {headerInput(60, 5, 5, 4, engine.MaxPlayers+1), "33 players, over 32"},
		"no players":   {headerInput(60, 5, 5, 4, 0), "input size 4 for 0 players"},
		"device input": {headerInput(60, 5, 5, 0, 0), "a recording of device input, which this build no longer replays"},
		"chunk ticks":  {join(ok, chunk(MaxChunkTicks+1, 0, 0)), "ticks in a chunk is 65537, over the limit of 65536"},
		"chunk input":  {join(ok, chunk(10, 1<<40, 0)), "chunk input length is 1099511627776, over the limit of 1048576"},
		"chunk hashes": {join(ok, chunk(10, 0, 12)), "hashes in a chunk is 12, over the limit of 11"},
	} {
		_, _, _, _, err := readAll(c.data)
		if !errors.Is(err, ErrBadFile) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}
	if _, err := newWriter(io.Discard, fileHeader{TPS: 60, Params: strings.Repeat("x", MaxParams+1)}); err == nil {
		t.Error("the writer took parameters over the limit")
	}
}

// TestReplayWriterAllocs: recording ticks allocates nothing once the
// chunk buffers have grown.
func TestReplayWriterAllocs(t *testing.T) {
	w, _ := newWriter(io.Discard, fileHeader{TPS: 60, InputSize: 4, Players: 2})
	in := make([]byte, 8)
	tick := func() {
		in[5]++ // every tick whole
		w.TickInput(in, 0)
		w.Hash(1, 2)
	}
	for range 600 {
		tick()
	}
	if n := testing.AllocsPerRun(600, tick); n != 0 {
		t.Errorf("a recorded tick allocates %v times, want 0", n)
	}
}

// FuzzReplay feeds damaged recordings to the reader, which decodes every
// chunk's input before it hands the chunk out. The fuzz
// function fixes up every checksum it can find, so the mutations reach the
// decoders behind them, and it holds the reader to a byte budget: whatever
// a file declares, reading it allocates at most a few chunks' limits.
func FuzzReplay(f *testing.F) {
	data, _ := writeFile(f, 20, 45, true)
	killed, _ := writeFile(f, 60, 30, false)
	seats, err := os.ReadFile(recordLobby(f, f.TempDir(), "lobby.fxr", 800, nil))
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range [][]byte{data, killed, seats, toVersion4(f, data)} {
		if !bytes.Equal(fixAllCRCs(seed), seed) {
			f.Fatal("fixAllCRCs changes a well-formed recording: it does not walk the format")
		}
		f.Add(seed)
	}
	sample := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	allocated := func() uint64 {
		metrics.Read(sample)
		return sample[0].Value.Uint64()
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, fix := range []bool{false, true} {
			d := b
			if fix {
				d = fixAllCRCs(b)
			}
			before := allocated()
			_, in, _, _, err := readAll(d)
			if used, budget := allocated()-before, uint64(8<<20+4*len(d)); used > budget {
				t.Fatalf("reading %d bytes allocated %d bytes, over the budget of %d", len(d), used, budget)
			}
			if err != nil && !errors.Is(err, ErrBadFile) && !errors.Is(err, ErrTruncated) {
				t.Fatalf("error %v wraps neither ErrBadFile nor ErrTruncated", err)
			}
			if len(in) > len(d) {
				t.Fatalf("%d bytes of input from a %d-byte file", len(in), len(d))
			}
		}
	})
}

// fixAllCRCs walks b as a replay and rewrites each record's checksum where
// the record parses, so mutated fields get past the checksums.
func fixAllCRCs(b []byte) []byte {
	b = append([]byte(nil), b...)
	if len(b) < 10 {
		return b
	}
	version := binary.LittleEndian.Uint16(b[8:])
	// The header: magic, version, TPS, seed, two strings, input size and
	// players, CRC.
	pos := 8 + 2 + 4 + 8
	for range 2 {
		n, k := binary.Uvarint(b[min(pos, len(b)):])
		if k <= 0 || n > uint64(len(b)) {
			return b
		}
		pos += k + int(n)
	}
	pos += 2
	if pos+4 > len(b) {
		return b
	}
	fixCRC(b, 0, pos+4)
	pos += 4
	for pos < len(b) {
		start := pos
		if b[pos] != markChunk && b[pos] != markEnd {
			return b
		}
		mark := b[pos]
		pos++
		fields := 3 // chunk: first, ticks, input (bytes), then hashes
		if mark == markEnd {
			fields = 2 // ticks, message (bytes)
		}
		for range fields - 1 {
			_, k := binary.Uvarint(b[min(pos, len(b)):])
			if k <= 0 {
				return b
			}
			pos += k
		}
		n, k := binary.Uvarint(b[min(pos, len(b)):])
		if k <= 0 || n > uint64(len(b)) {
			return b
		}
		pos += k + int(n)
		if mark == markChunk && version >= 5 { // seat changes: two uvarints each
			s, k := binary.Uvarint(b[min(pos, len(b)):])
			if k <= 0 || s > uint64(len(b)) {
				return b
			}
			pos += k
			for range 2 * s {
				_, k := binary.Uvarint(b[min(pos, len(b)):])
				if k <= 0 {
					return b
				}
				pos += k
			}
		}
		if mark == markChunk {
			h, k := binary.Uvarint(b[min(pos, len(b)):])
			if k <= 0 || h > uint64(len(b)) {
				return b
			}
			pos += k
			for range h {
				_, k := binary.Uvarint(b[min(pos, len(b)):])
				if k <= 0 {
					return b
				}
				pos += k + 8
			}
		}
		if pos+4 > len(b) {
			return b
		}
		fixCRC(b, start, pos+4)
		pos += 4
	}
	return b
}

// TestChunkTicksNeedInput: a chunk that declares more ticks than it holds
// bytes of input (every tick takes one at least) is refused: a tiny file
// cannot make its reader run a million ticks.
func TestChunkTicksNeedInput(t *testing.T) {
	var b bytes.Buffer
	w, err := newWriter(&b, fileHeader{TPS: 60, InputSize: 1, Players: 1})
	if err != nil {
		t.Fatal(err)
	}
	for range 10 {
		w.TickInput([]byte{7}, 0)
	}
	w.Close("")
	data := b.Bytes()
	// Forge: the chunk record is the first 0x01 mark after the header;
	// rewrite its tick count (uvarint 10) to 60,000 and fix the checksum
	// by re-encoding the chunk with the writer's layout.
	r, err := newReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	c, err := r.Next()
	if err != nil || c.Ticks != 10 || len(c.Input) != 11 {
		t.Fatalf("chunk %+v, %v: want 10 ticks in 11 bytes, a whole one and 9 repeats", c, err)
	}
	head := len(data) - len(chunkBytes(c.First, 10, c.Input)) - endBytes(10)
	forged := append(bytes.Clone(data[:head]), chunkBytes(c.First, 60000, c.Input)...)
	r, err = newReader(bytes.NewReader(forged))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(); !errors.Is(err, ErrBadFile) || !strings.Contains(err.Error(), "a chunk of 60000 ticks holds 11 bytes of input") {
		t.Errorf("forged chunk: %v", err)
	}
}

// chunkBytes encodes a chunk record with no seat changes and no hashes
// as writer does.
func chunkBytes(first, ticks uint64, in []byte) []byte {
	b := []byte{markChunk}
	b = binary.AppendUvarint(b, first)
	b = binary.AppendUvarint(b, ticks)
	b = binary.AppendUvarint(b, uint64(len(in)))
	b = append(b, in...)
	b = binary.AppendUvarint(b, 0) // seat changes
	b = binary.AppendUvarint(b, 0) // hashes
	return binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
}

// endBytes is the size of an empty end record after ticks.
func endBytes(ticks uint64) int {
	return 1 + len(binary.AppendUvarint(nil, ticks)) + 1 + 4
}

// TestChunkInputCheckedFirst: a chunk whose input does not bear out the
// ticks it declares (fewer, more, or one that does not decode), or that
// declares more ticks than a chunk of its recording's tick rate holds,
// is refused when it is read, before any of its ticks runs: the error
// names the chunk's ticks.
func TestChunkInputCheckedFirst(t *testing.T) {
	file := func(h fileHeader, ticks uint64, in []byte) []byte {
		var b bytes.Buffer
		if _, err := newWriter(&b, h); err != nil {
			t.Fatal(err)
		}
		b.Write(chunkBytes(0, ticks, in))
		e := binary.AppendUvarint([]byte{markEnd}, ticks)
		e = append(e, 0)
		b.Write(binary.LittleEndian.AppendUint32(e, crc32.ChecksumIEEE(e)))
		return b.Bytes()
	}
	game := fileHeader{TPS: 60, InputSize: 2, Players: 2}
	idle := func(n int) []byte { return make([]byte, n) }
	whole := []byte{1, 7, 0, 3, 0}
	for name, c := range map[string]struct {
		data []byte
		want string
	}{
		"over a second of ticks": {file(game, 2000, idle(2000)), "a chunk of 2000 ticks (0-1999): a recording at 60 TPS has at most 60 in a chunk"},
		"game, a repeat first":   {file(game, 3, idle(3)), "tick 0 repeats a tick before its chunk"},
		"game, unknown record":   {file(game, 1, []byte{2, 0, 0, 0, 0}), "tick 0: unknown input record 0x02"},
		"game, a tick short":     {file(game, 60, append(whole, idle(58)...)), "the chunk of ticks 0-59 ends at tick 59"},
		"game, bytes left over":  {file(game, 3, append(whole, idle(5)...)), "3 bytes after the last tick of the chunk of ticks 0-2"},
	} {
		r, err := newReader(bytes.NewReader(c.data))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := r.Next(); !errors.Is(err, ErrBadFile) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}
	// The same shapes, well formed, read.
	for name, data := range map[string][]byte{
		"game": file(game, 60, append(whole, idle(59)...)),
	} {
		if _, _, _, end, err := readAll(data); err != nil || end.Ticks != 60 {
			t.Errorf("%s: %v, %d ticks", name, err, end.Ticks)
		}
	}
}
