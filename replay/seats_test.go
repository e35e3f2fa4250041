package replay

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/fixstep/fixstep/engine"
)

// lobby is a game of four players who join and leave: a player's tank is
// spawned on the first tick their seat is Seated and removed on the first
// tick it is not; each tank moves by its player's 2-byte input. It logs
// the seats each tick saw.
type lobby struct {
	present [4]bool
	pos     [4]int64
	spawns  int
	seen    []uint32 // per tick, the seats not Seated
}

func (g *lobby) Input(engine.Tick, []byte) {}
func (g *lobby) Update(t engine.Tick) error {
	var empty uint32
	for p := range 4 {
		seated := t.Input.Seated(p)
		switch {
		case seated && !g.present[p]:
			g.present[p], g.pos[p] = true, int64(100*p)
			g.spawns++
		case !seated && g.present[p]:
			g.present[p] = false
		}
		if !seated {
			empty |= 1 << p
			continue
		}
		g.pos[p] = g.pos[p]*3 + int64(binary.LittleEndian.Uint16(t.Input.Player(p)))
	}
	g.seen = append(g.seen, empty)
	return nil
}
func (g *lobby) Draw(engine.Frame) {}
func (g *lobby) Save(dst []byte) []byte {
	for p := range 4 {
		if g.present[p] {
			dst = append(dst, 1)
		} else {
			dst = append(dst, 0)
		}
		dst = binary.LittleEndian.AppendUint64(dst, uint64(g.pos[p]))
	}
	return binary.LittleEndian.AppendUint32(dst, uint32(g.spawns))
}
func (g *lobby) Load([]byte) error { return errors.New("not used") }

// lobbySeats is the seats empty at tick n of the lobby's match: players 0
// and 1 from tick 0, player 2 joins at 5, and at 700 player 0 leaves and
// player 3 joins.
func lobbySeats(n uint64) uint32 {
	switch {
	case n >= 700:
		return 0b0001
	case n >= 5:
		return 0b1000
	}
	return 0b1100
}

// lobbyInput writes tick n's inputs: the seated players' varied, the
// empty seats' zero.
func lobbyInput(n uint64, in []byte) engine.Inputs {
	clear(in)
	empty := lobbySeats(n)
	for p := range 4 {
		if empty>>p&1 == 0 {
			binary.LittleEndian.PutUint16(in[2*p:], uint16(n*uint64(p+3)))
		}
	}
	return engine.NewInputs(in, 2, 0).WithEmptySeats(empty)
}

// recordLobby records ticks ticks of the lobby's match as a server's
// session does (RecordSession, Confirmed), seats changing at ticks 0, 5
// and 700, and returns the file's path.
func recordLobby(t testing.TB, dir, name string, ticks uint64, seats func(uint64) uint32) string {
	t.Helper()
	path := filepath.Join(dir, name)
	rec, err := RecordSession(path, 60, 4, 2, Header{Params: "lobby"})
	if err != nil {
		t.Fatal(err)
	}
	var g lobby
	var state []byte
	in := make([]byte, 8)
	for n := range ticks {
		state = g.Save(state[:0])
		ins := lobbyInput(n, in)
		if seats != nil { // another run's seats
			clear(in)
			ins = engine.NewInputs(in, 2, 0).WithEmptySeats(seats(n))
		}
		if err := rec.Confirmed(n, ins, state); err != nil {
			t.Fatal(err)
		}
		if err := g.Update(engine.Tick{N: n, Input: ins}); err != nil {
			t.Fatal(err)
		}
	}
	if err := rec.Close(nil); err != nil {
		t.Fatal(err)
	}
	return path
}

// playLobby replays the recording at path on a loop of four players
// running the lobby alone, and returns the game and the player.
func playLobby(t *testing.T, path string) (*lobby, *Player, error) {
	t.Helper()
	g := &lobby{}
	l, err := engine.NewLoop(engine.Config{TPS: 60, InputSize: 2, Players: 4}, engine.NewSim(engine.ConstantFrames(50*time.Millisecond)), g)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Play(path, l, Header{Params: "lobby"})
	if err != nil {
		return nil, nil, err
	}
	return g, p, p.Close(l.Run(context.Background()))
}

// TestSeatsReplay: a server's match whose seats change at ticks 0, 5 and
// 700 (seats empty across many chunk boundaries in between) replays with
// Seated as recorded at every tick and every state hash verified; each
// chunk restates its first tick's seats, so chunks stand alone.
func TestSeatsReplay(t *testing.T) {
	path := recordLobby(t, t.TempDir(), "lobby.fxr", 800, nil)
	g, p, err := playLobby(t, path)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.seen) != 800 || p.Ticks() != 800 || p.Verified() != 13 {
		t.Fatalf("replayed %d ticks (player %d), %d hashes verified; want 800 and 13", len(g.seen), p.Ticks(), p.Verified())
	}
	for n := range uint64(800) {
		if g.seen[n] != lobbySeats(n) {
			t.Fatalf("tick %d: the replay's empty seats %04b, recorded %04b", n, g.seen[n], lobbySeats(n))
		}
	}
	if g.spawns != 4 {
		t.Errorf("%d tanks spawned, want 4 (players 0 and 1 at 0, 2 at 5, 3 at 700)", g.spawns)
	}

	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rr, err := newReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	want := map[uint64][]seatChange{
		0:   {{0, 0b1100}, {5, 0b1000}},
		60:  {{0, 0b1000}},
		660: {{0, 0b1000}, {40, 0b0001}},
		720: {{0, 0b0001}},
	}
	for {
		c, err := rr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if w, ok := want[c.First]; ok && !reflect.DeepEqual(c.Seats, w) {
			t.Errorf("the chunk of tick %d holds seat changes %v, want %v", c.First, c.Seats, w)
		}
	}
}

// TestSeatsCostAByteAChunk: a match whose seats never change (any
// peer-to-peer match) costs one byte a chunk more than version 4 did.
func TestSeatsCostAByteAChunk(t *testing.T) {
	data, _ := writeFile(t, 20, 65, true) // 4 chunks
	if v4 := toVersion4(t, data); len(data)-len(v4) != 4 {
		t.Errorf("version 5: %d bytes, version 4: %d; want 4 more, a byte for each of 4 chunks", len(data), len(v4))
	}
}

// toVersion4 rewrites a recording with no seat changes in format version
// 4, as a build before seats wrote it.
func toVersion4(t testing.TB, data []byte) []byte {
	t.Helper()
	rr, err := newReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	h := rr.Header
	b := append([]byte(nil), replayMagic[:]...)
	b = binary.LittleEndian.AppendUint16(b, 4)
	b = binary.LittleEndian.AppendUint32(b, h.TPS)
	b = binary.LittleEndian.AppendUint64(b, h.Seed)
	for _, s := range []string{h.Engine, h.Params} {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	b = append(b, h.InputSize, h.Players)
	b = binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
	for {
		c, err := rr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Seats) > 0 {
			t.Fatal("toVersion4 of a recording with seat changes")
		}
		r := []byte{markChunk}
		r = binary.AppendUvarint(r, c.First)
		r = binary.AppendUvarint(r, c.Ticks)
		r = binary.AppendUvarint(r, uint64(len(c.Input)))
		r = append(r, c.Input...)
		r = binary.AppendUvarint(r, uint64(len(c.Hashes)))
		for _, th := range c.Hashes {
			r = binary.AppendUvarint(r, th.Tick)
			r = binary.LittleEndian.AppendUint64(r, th.Hash)
		}
		b = append(b, binary.LittleEndian.AppendUint32(r, crc32.ChecksumIEEE(r))...)
	}
	r := binary.AppendUvarint([]byte{markEnd}, rr.End.Ticks)
	r = binary.AppendUvarint(r, uint64(len(rr.End.Message)))
	r = append(r, rr.End.Message...)
	return append(b, binary.LittleEndian.AppendUint32(r, crc32.ChecksumIEEE(r))...)
}

// TestVersion4ReadsAllSeated: a recording made before seats were recorded
// (format version 4) replays, every seat occupied and every hash
// verified.
func TestVersion4ReadsAllSeated(t *testing.T) {
	dir := t.TempDir()
	path := recordLobby(t, dir, "full.fxr", 300, func(uint64) uint32 { return 0 })
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(dir, "v4.fxr")
	if err := os.WriteFile(old, toVersion4(t, data), 0o644); err != nil {
		t.Fatal(err)
	}
	g, p, err := playLobby(t, old)
	if err != nil || p.Verified() != 4 || len(g.seen) != 300 {
		t.Fatalf("the version 4 file: %v, %d hashes verified, %d ticks", err, p.Verified(), len(g.seen))
	}
	for n, e := range g.seen {
		if e != 0 {
			t.Fatalf("tick %d: empty seats %04b in a version 4 recording", n, e)
		}
	}
}

// TestSeatsDamage: seat changes a recording's chunk cannot hold are
// refused when the chunk is read, naming the tick and the value.
func TestSeatsDamage(t *testing.T) {
	type change struct{ at, empty uint64 }
	chunkWith := func(first, ticks uint64, in []byte, count uint64, seats ...change) []byte {
		b := []byte{markChunk}
		b = binary.AppendUvarint(b, first)
		b = binary.AppendUvarint(b, ticks)
		b = binary.AppendUvarint(b, uint64(len(in)))
		b = append(b, in...)
		b = binary.AppendUvarint(b, count)
		for _, s := range seats {
			b = binary.AppendUvarint(b, s.at)
			b = binary.AppendUvarint(b, s.empty)
		}
		b = append(b, 0) // no hashes
		return binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
	}
	var head bytes.Buffer
	if _, err := newWriter(&head, fileHeader{TPS: 60, InputSize: 1, Players: 2}); err != nil {
		t.Fatal(err)
	}
	// Ticks 0-3 well formed; the damage is in the chunk of ticks 4-7.
	file := func(damaged []byte) []byte {
		b := append(bytes.Clone(head.Bytes()), chunkWith(0, 4, []byte{1, 0, 0, 0, 0, 0}, 1, change{2, 0b10})...)
		return append(b, damaged...)
	}
	idle := []byte{1, 0, 0, 0, 0, 0} // four ticks of zeros
	for name, c := range map[string]struct {
		chunk []byte
		want  string
	}{
		"a seat of no player": {chunkWith(4, 4, idle, 1, change{3, 0b100}), "tick 7: empty seats 0x4: the recording has 2 players (seats 0x3)"},
		"a mask over 32 bits": {chunkWith(4, 4, idle, 1, change{1, 1 << 33}), "empty seats is 8589934592, over the limit of 4294967295"},
		"input in an empty seat": {chunkWith(4, 4, []byte{1, 0, 5, 0, 0, 0}, 1, change{0, 0b10}),
			"tick 4: player 2's seat is empty, but its input is 05, not all zero"},
		"out of order":      {chunkWith(4, 4, idle, 2, change{2, 1}, change{1, 0}), "the seat change at tick 5 is not after the one before it in the chunk of ticks 4-7"},
		"a tick twice":      {chunkWith(4, 4, idle, 2, change{1, 1}, change{1, 3}), "the seat change at tick 5 is not after the one before it"},
		"last out of order": {chunkWith(4, 4, idle, 2, change{3, 1}, change{0, 3}), "the seat change at tick 4 is not after the one before it"},
		"changes nothing":   {chunkWith(4, 4, idle, 1, change{0, 0}), "tick 4: a seat change to 0x0, the seats already empty"},
		"after the chunk":   {chunkWith(4, 4, idle, 1, change{4, 1}), "a seat change at tick 8, after the chunk of ticks 4-7"},
		"more than ticks":   {chunkWith(4, 4, idle, 5), "seat changes in a chunk is 5, over the limit of 4"},
	} {
		_, _, _, end, err := readAll(file(c.chunk))
		if !errors.Is(err, ErrBadFile) || !strings.Contains(err.Error(), c.want) || end.Ticks != 4 {
			t.Errorf("%s: %v after %d ticks, want ErrBadFile saying %q after 4", name, err, end.Ticks, c.want)
		}
	}
	// The same shape, well formed, reads.
	if _, _, _, end, err := readAll(append(file(chunkWith(4, 4, idle, 2, change{0, 1}, change{3, 3})), endRecord(8)...)); err != nil || end.Ticks != 8 {
		t.Errorf("well formed: %v, %d ticks", err, end.Ticks)
	}
}

// endRecord is a clean end record after ticks.
func endRecord(ticks uint64) []byte {
	e := binary.AppendUvarint([]byte{markEnd}, ticks)
	e = append(e, 0)
	return binary.LittleEndian.AppendUint32(e, crc32.ChecksumIEEE(e))
}

// TestCompareNamesASeat: two recordings of the same inputs whose seats
// differ from tick 700 on are told apart at tick 700, naming the player.
func TestCompareNamesASeat(t *testing.T) {
	dir := t.TempDir()
	a := recordLobby(t, dir, "a.fxr", 800, func(uint64) uint32 { return 0 })
	b := recordLobby(t, dir, "b.fxr", 800, func(n uint64) uint32 {
		if n >= 700 {
			return 0b0100
		}
		return 0
	})
	if _, err := Compare(a, b); err == nil || !strings.Contains(err.Error(), "differ first at tick 700: player 3's seat is occupied in "+a+", empty in "+b) {
		t.Errorf("Compare: %v, want the seat of player 3 at tick 700", err)
	}
	if same, err := Compare(b, b); err != nil || same != "the same 800 ticks and 13 state hashes" {
		t.Errorf("Compare(b, b) = %q, %v", same, err)
	}
}

// TestSeatsAllocateNothing: recording and replaying ticks whose seats
// change allocates nothing once the chunk buffers have grown.
func TestSeatsAllocateNothing(t *testing.T) {
	w, err := newWriter(io.Discard, fileHeader{TPS: 60, InputSize: 2, Players: 4})
	if err != nil {
		t.Fatal(err)
	}
	in := make([]byte, 8)
	n := uint64(0)
	write := func() {
		ins := lobbyInput(n%900, in)
		w.TickInput(ins.Bytes(), ins.EmptySeats())
		n++
	}
	for range 900 {
		write()
	}
	if a := testing.AllocsPerRun(1800, write); a != 0 {
		t.Errorf("writing a tick allocates %v times", a)
	}

	path := recordLobby(t, t.TempDir(), "lobby.fxr", 3000, nil)
	g := &lobby{seen: make([]uint32, 0, 3000)}
	l, err := engine.NewLoop(engine.Config{TPS: 60, InputSize: 2, Players: 4}, engine.NewSim(engine.ConstantFrames(50*time.Millisecond)), g)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Play(path, l, Header{Params: "lobby"})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close(nil)
	n = 0
	buf := make([]byte, 8)
	step := func() {
		clear(buf)
		tk := engine.Tick{N: n}
		if ok, err := p.Input(tk, buf); !ok || err != nil {
			t.Fatalf("tick %d: %v", n, err)
		}
		tk.Input = engine.NewInputs(buf, 2, 0).WithEmptySeats(p.EmptySeats())
		if err := p.Record(tk); err != nil {
			t.Fatal(err)
		}
		g.Update(tk)
		n++
	}
	for range 240 {
		step()
	}
	if a := testing.AllocsPerRun(2000, step); a != 0 {
		t.Errorf("replaying a tick allocates %v times", a)
	}
	if p.Verified() < 30 {
		t.Errorf("%d hashes verified", p.Verified())
	}
}
