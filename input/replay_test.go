package input

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"reflect"
	"runtime/metrics"
	"strings"
	"testing"
)

// record writes a replay of ticks ticks of the key input below, a hash
// every 10 ticks, chunks of tps ticks, and the end record (unless end is
// false: a killed process).
func record(t testing.TB, tps uint32, ticks int, end bool) ([]byte, []TickHash) {
	var b bytes.Buffer
	w, err := NewReplayWriter(&b, ReplayHeader{TPS: tps, Seed: 42, Engine: "0.2.0", Params: "n=300"})
	if err != nil {
		t.Fatal(err)
	}
	var s State
	var hashes []TickHash
	for i := range ticks {
		if i%7 == 3 {
			s.KeyEvent(KeySpace, i%2 == 0)
		}
		w.Tick(&s)
		s.EndTick()
		if (i+1)%10 == 0 {
			h := TickHash{uint64(i + 1), uint64(i) * 0x9e3779b9}
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
	data, hashes := record(t, 60, 100, true)
	h, in, hs, end, err := ReadReplay(data)
	if err != nil {
		t.Fatal(err)
	}
	if h != (ReplayHeader{TPS: 60, Seed: 42, Engine: "0.2.0", Params: "n=300"}) {
		t.Errorf("header %+v", h)
	}
	if !reflect.DeepEqual(hs, hashes) || end != (ReplayEnd{100, "panic in Update at tick 99: boom"}) {
		t.Errorf("hashes %v end %+v", hs, end)
	}
	// The joined input plays the same ticks a single recorder makes.
	var rec Recorder
	var s State
	for i := range 100 {
		if i%7 == 3 {
			s.KeyEvent(KeySpace, i%2 == 0)
		}
		rec.Tick(&s)
		s.EndTick()
	}
	if !bytes.Equal(in, rec.Bytes()) {
		t.Error("the chunks' input differs from one recorder's stream")
	}
}

// TestReplayTruncatedAtEveryOffset cuts a small file at every byte: each
// cut is an error, or a clean "recording ends at tick N" where N is the
// ticks of the complete chunks before the cut, never a panic or more.
func TestReplayTruncatedAtEveryOffset(t *testing.T) {
	data, _ := record(t, 20, 65, true) // chunks of 20, 20, 20, 5 ticks
	var ends []int                     // where each chunk ends in the file
	rr, _ := NewReplayReader(bytes.NewReader(data))
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
		_, _, _, end, err := ReadReplay(data[:cut])
		if cut < headerEnd {
			if !errors.Is(err, ErrBadReplay) {
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
		if !errors.Is(err, ErrReplayTruncated) || end.Ticks != want ||
			!strings.Contains(err.Error(), "recording ends at tick") {
			t.Fatalf("cut at %d: ticks %d, %v; want a truncation at tick %d", cut, end.Ticks, err, want)
		}
	}
	if _, _, _, _, err := ReadReplay(data); err != nil {
		t.Fatalf("whole file: %v", err)
	}
}

func TestReplayDamage(t *testing.T) {
	data, _ := record(t, 20, 65, true)
	flip := append([]byte(nil), data...)
	flip[len(data)/2] ^= 1
	v1 := append([]byte(nil), data...)
	v1[8] = 1
	for name, c := range map[string]struct {
		data []byte
		want string
	}{
		"a flipped bit": {flip, "checksum mismatch (corrupt)"},
		"not a replay":  {[]byte("PNG\x00\x00\x00\x00\x00\x00\x00"), "not a fixstep replay"},
		"empty":         {nil, "not a fixstep replay"},
		"header only":   {data[:11], "truncated header"},
		"old version":   {v1, "format version 1; this build reads versions 3 and 4"},
		"trailing data": {append(append([]byte(nil), data...), 0), "data after the end record"},
	} {
		_, _, _, _, err := ReadReplay(c.data)
		if !errors.Is(err, ErrBadReplay) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want ErrBadReplay saying %q", name, err, c.want)
		}
	}
	if !strings.Contains(func() string { _, _, _, _, err := ReadReplay(flip); return err.Error() }(), "chunk of ticks") {
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
		b = binary.LittleEndian.AppendUint16(b, ReplayVersion)
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
	header := func(tps uint32, engine, params uint64) []byte { return headerInput(tps, engine, params, 0, 0) }
	chunk := func(ticks, input, hashes uint64) []byte {
		b := []byte{markChunk, 0}
		b = binary.AppendUvarint(b, ticks)
		b = binary.AppendUvarint(b, input)
		b = append(b, make([]byte, min(input, 100))...)
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
		"engine":       {header(60, MaxReplayEngine+1, 5), "engine version length is 65, over the limit of 64"},
		"params":       {header(60, 5, 50000000), "parameters length is 50000000, over the limit of 1024"},
		"tps 0":        {header(0, 5, 5), "TPS 0"},
		"input size":   {headerInput(60, 5, 5, MaxReplayInputSize+1, 1), "input size 65, over 64"},
		"players":      {headerInput(60, 5, 5, 4, MaxReplayPlayers+1), "9 players, over 8"},
		"no players":   {headerInput(60, 5, 5, 4, 0), "input size 4 for 0 players"},
		"chunk ticks":  {join(ok, chunk(MaxReplayChunkTicks+1, 0, 0)), "ticks in a chunk is 65537, over the limit of 65536"},
		"chunk input":  {join(ok, chunk(10, 1<<40, 0)), "chunk input length is 1099511627776, over the limit of 1048576"},
		"chunk hashes": {join(ok, chunk(10, 0, 12)), "hashes in a chunk is 12, over the limit of 11"},
	} {
		_, _, _, _, err := ReadReplay(c.data)
		if !errors.Is(err, ErrBadReplay) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}
	if _, err := NewReplayWriter(io.Discard, ReplayHeader{TPS: 60, Params: strings.Repeat("x", MaxReplayParams+1)}); err == nil {
		t.Error("the writer took parameters over the limit")
	}
}

// TestReplayWriterAllocs: recording ticks allocates nothing once the
// chunk buffers have grown.
func TestReplayWriterAllocs(t *testing.T) {
	w, _ := NewReplayWriter(io.Discard, ReplayHeader{TPS: 60})
	var s State
	tick := func() {
		s.KeyEvent(KeyA, !s.Down(KeyA))
		w.Tick(&s)
		s.EndTick()
		w.Hash(1, 2)
	}
	for range 600 {
		tick()
	}
	if n := testing.AllocsPerRun(600, tick); n != 0 {
		t.Errorf("a recorded tick allocates %v times, want 0", n)
	}
}

// FuzzReplay feeds damaged replays to the reader and the player. The fuzz
// function fixes up every checksum it can find, so the mutations reach the
// decoders behind them, and it holds the reader to a byte budget: whatever
// a file declares, reading it allocates at most a few chunks' limits.
func FuzzReplay(f *testing.F) {
	data, _ := record(f, 20, 45, true)
	f.Add(data)
	killed, _ := record(f, 60, 30, false)
	f.Add(killed)
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
			_, in, _, _, err := ReadReplay(d)
			if used, budget := allocated()-before, uint64(8<<20+4*len(d)); used > budget {
				t.Fatalf("reading %d bytes allocated %d bytes, over the budget of %d", len(d), used, budget)
			}
			if err != nil && !errors.Is(err, ErrBadReplay) && !errors.Is(err, ErrReplayTruncated) {
				t.Fatalf("error %v wraps neither ErrBadReplay nor ErrReplayTruncated", err)
			}
			if len(in) > len(d) {
				t.Fatalf("%d bytes of input from a %d-byte file", len(in), len(d))
			}
			p := NewPlayer(in)
			var s State
			for range 100 {
				if p.Tick(&s) != nil {
					break
				}
			}
		}
	})
}

// fixAllCRCs walks b as a replay and rewrites each record's checksum where
// the record parses, so mutated fields get past the checksums.
func fixAllCRCs(b []byte) []byte {
	b = append([]byte(nil), b...)
	// The header: magic, version, TPS, seed, two strings, CRC.
	pos := 8 + 2 + 4 + 8
	for range 2 {
		n, k := binary.Uvarint(b[min(pos, len(b)):])
		if k <= 0 || n > uint64(len(b)) {
			return b
		}
		pos += k + int(n)
	}
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
			fields = 1
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
	w, err := NewReplayWriter(&b, ReplayHeader{TPS: 60})
	if err != nil {
		t.Fatal(err)
	}
	var s State
	for range 10 {
		w.Tick(&s)
	}
	w.Close("")
	data := b.Bytes()
	// Forge: the chunk record is the first 0x01 mark after the header;
	// rewrite its tick count (uvarint 10) to 60,000 and fix the checksum
	// by re-encoding the chunk with the writer's layout.
	r, err := NewReplayReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	c, err := r.Next()
	if err != nil || c.Ticks != 10 || len(c.Input) != 10 {
		t.Fatalf("chunk %+v, %v: want 10 ticks of 1 byte", c, err)
	}
	head := len(data) - len(chunkBytes(c.First, 10, c.Input)) - endBytes(10)
	forged := append(bytes.Clone(data[:head]), chunkBytes(c.First, 60000, c.Input)...)
	r, err = NewReplayReader(bytes.NewReader(forged))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(); !errors.Is(err, ErrBadReplay) || !strings.Contains(err.Error(), "a chunk of 60000 ticks holds 10 bytes of input") {
		t.Errorf("forged chunk: %v", err)
	}
}

// chunkBytes encodes a chunk record with no hashes as ReplayWriter does.
func chunkBytes(first, ticks uint64, in []byte) []byte {
	b := []byte{markChunk}
	b = binary.AppendUvarint(b, first)
	b = binary.AppendUvarint(b, ticks)
	b = binary.AppendUvarint(b, uint64(len(in)))
	b = append(b, in...)
	b = binary.AppendUvarint(b, 0)
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
	file := func(h ReplayHeader, ticks uint64, in []byte) []byte {
		var b bytes.Buffer
		if _, err := NewReplayWriter(&b, h); err != nil {
			t.Fatal(err)
		}
		b.Write(chunkBytes(0, ticks, in))
		e := binary.AppendUvarint([]byte{markEnd}, ticks)
		e = append(e, 0)
		b.Write(binary.LittleEndian.AppendUint32(e, crc32.ChecksumIEEE(e)))
		return b.Bytes()
	}
	device := ReplayHeader{TPS: 60}
	game := ReplayHeader{TPS: 60, InputSize: 2, Players: 2}
	idle := func(n int) []byte { return make([]byte, n) }
	whole := []byte{1, 7, 0, 3, 0}
	for name, c := range map[string]struct {
		data []byte
		want string
	}{
		"device, last tick cut":   {file(device, 60, append(idle(59), recKeys)), "the chunk of ticks 0-59: input: corrupt recording at tick 59"},
		"device, bytes left over": {file(device, 30, idle(40)), "10 bytes after the last tick of the chunk of ticks 0-29"},
		"over a second of ticks":  {file(device, 2000, idle(2000)), "a chunk of 2000 ticks (0-1999): a recording at 60 TPS has at most 60 in a chunk"},
		"game, a tick short":      {file(game, 60, append(whole, idle(58)...)), "the chunk of ticks 0-59 ends at tick 59"},
		"game, bytes left over":   {file(game, 3, append(whole, idle(5)...)), "3 bytes after the last tick of the chunk of ticks 0-2"},
	} {
		r, err := NewReplayReader(bytes.NewReader(c.data))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := r.Next(); !errors.Is(err, ErrBadReplay) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}
	// The same shapes, well formed, read.
	for name, data := range map[string][]byte{
		"device": file(device, 60, idle(60)),
		"game":   file(game, 60, append(whole, idle(59)...)),
	} {
		if _, _, _, end, err := ReadReplay(data); err != nil || end.Ticks != 60 {
			t.Errorf("%s: %v, %d ticks", name, err, end.Ticks)
		}
	}
}
