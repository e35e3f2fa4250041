package replay

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/bits"

	"github.com/fixstep/fixstep/engine"
)

// formatVersion is the recording file format this build writes. Version
// 4 holds the game's own per-tick input (engine.Inputter): the header says
// its size and the players it holds. Version 5 adds to each chunk the
// ticks at which seats empty or fill (engine.Inputs.Seated): a server's
// match, whose players join and leave, replays with the same joins and
// leaves. This build reads both, a version 4 file as every seat occupied;
// older versions, and version 4 files of device input (made before
// fixstep had one input model), are refused with an error saying so.
const formatVersion = 5

// oldestVersion is the oldest format version this build reads.
const oldestVersion = 4

// Limits on what a recording may declare. A recording is untrusted input
// (people attach them to bug reports): the reader checks every count and
// size against these before it allocates anything, and reads one chunk at
// a time, so a file of any size costs at most about MaxChunkInput of
// memory.
const (
	MaxEngine     = 64      // bytes of the engine version
	MaxParams     = 1024    // bytes of the game's parameters
	MaxChunkTicks = 1 << 16 // ticks in one chunk
	MaxChunkInput = 1 << 20 // bytes of input in one chunk
	MaxMessage    = 4096    // bytes of the end record's message
)

var replayMagic = [8]byte{'F', 'X', 'S', 'T', 'E', 'P', 'R', 'P'}

const (
	markChunk = 'C'
	markEnd   = 'E'
)

// fileHeader is a recording's header: what a replay needs to run again.
// The tick rate, the seed, the engine version that recorded it, the
// game's own parameters (e.g. "n=300"), which the game validates with the
// rules of its flags, the size of the game's per-tick input value, and
// how many players' values each tick holds.
type fileHeader struct {
	TPS                uint32
	Seed               uint64
	Engine             string
	Params             string
	InputSize, Players uint8
}

// check reports a header the format cannot hold.
func (h fileHeader) check() error {
	switch {
	case h.TPS == 0:
		return fmt.Errorf("TPS 0")
	case len(h.Engine) > MaxEngine:
		return fmt.Errorf("engine version of %d bytes, over %d", len(h.Engine), MaxEngine)
	case len(h.Params) > MaxParams:
		return fmt.Errorf("parameters of %d bytes, over %d", len(h.Params), MaxParams)
	case h.InputSize == 0 || h.Players == 0:
		return fmt.Errorf("input size %d for %d players: a recording of device input, which this build no longer replays (record it again)", h.InputSize, h.Players)
	case h.InputSize > engine.MaxInputSize:
		return fmt.Errorf("input size %d, over %d", h.InputSize, engine.MaxInputSize)
	case h.Players > engine.MaxPlayers:
		return fmt.Errorf("%d players, over %d", h.Players, engine.MaxPlayers)
	}
	return nil
}

// tickHash is a game state hash after a tick (Tick counts ticks run).
type tickHash struct {
	Tick uint64
	Hash uint64
}

// seatChange is a tick at which seats empty or fill: from At (ticks after
// its chunk's first) on, the seats of Empty's bits are empty (bit p:
// player p), until the next change. A chunk starts with every seat
// occupied, so that it stands alone: a chunk whose first tick has an
// empty seat holds a change at 0. A chunk of a match whose seats never
// change (any peer-to-peer match) holds none, which costs a byte.
type seatChange struct {
	At    uint64
	Empty uint32
}

// fileEnd is the record that closes a replay: how many ticks ran, and a
// message when the run ended in an error or a panic ("panic in Update at
// tick 120: ..."), empty for a clean end.
type fileEnd struct {
	Ticks   uint64
	Message string
}

// The file format, integers little-endian or uvarints:
//
//	header: "FXSTEPRP", version (uint16), TPS (uint32), seed (uint64),
//	        engine and params (uvarint length, bytes), input size and
//	        players (a byte each), CRC-32 of the above
//	chunk:  'C', first tick, ticks, input length, input (per tick 1 and
//	        the players' values, or 0 for the tick before's, the chunk's
//	        first tick always whole), hash count, (tick, hash uint64)
//	        pairs, CRC-32 of the chunk from 'C'
//	end:    'E', ticks, message length, message, CRC-32 of the record
//
// Chunks are written as the run goes (the writer flushes one per second
// of game time), so a process killed mid-run leaves a file that replays up
// to its last complete chunk.

// ErrBadFile is wrapped by every error about a recording's contents.
var ErrBadFile = errors.New("bad recording")

// ErrTruncated is wrapped by errors about a recording that ends
// before its end record (the recording process was killed): everything up
// to the tick it names replays.
var ErrTruncated = errors.New("recording truncated")

// writer writes a recording as the run goes. Make it with newWriter
// (which writes the header at once), call TickInput before every update
// and Hash when you take one, and Close at the end, whatever the end.
// Write errors are sticky: TickInput stops recording and Close returns
// the first.
type writer struct {
	w      io.Writer
	in     []byte // the pending chunk's input
	every  uint64 // ticks per chunk
	first  uint64 // first tick of the pending chunk
	ticks  uint64 // ticks in it
	hashes []tickHash
	buf    []byte
	err    error
	closed bool

	inputLen  int    // bytes of a tick's input: players × input size
	lastInput []byte // the last input written

	seats    []seatChange // the pending chunk's seat changes
	empty    uint32       // the seats empty at the last tick written
	seatBits uint32       // the bits of the header's players
}

// newWriter writes h to w and returns a writer that flushes a chunk
// every h.TPS ticks (a second of game time). It fails on a header over the
// limits or when the header cannot be written: check an output before the
// run, not after.
func newWriter(w io.Writer, h fileHeader) (*writer, error) {
	if err := h.check(); err != nil {
		return nil, fmt.Errorf("replay: header: %w", err)
	}
	b := append([]byte(nil), replayMagic[:]...)
	b = binary.LittleEndian.AppendUint16(b, formatVersion)
	b = binary.LittleEndian.AppendUint32(b, h.TPS)
	b = binary.LittleEndian.AppendUint64(b, h.Seed)
	for _, s := range []string{h.Engine, h.Params} {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	b = append(b, h.InputSize, h.Players)
	b = binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
	if _, err := w.Write(b); err != nil {
		return nil, fmt.Errorf("replay: writing the header: %w", err)
	}
	every := min(uint64(h.TPS), MaxChunkTicks)
	return &writer{w: w, every: every, hashes: make([]tickHash, 0, 4), buf: b[:0],
		inputLen: int(h.InputSize) * int(h.Players), seatBits: uint32(1<<uint(h.Players) - 1)}, nil
}

// TickInput records the coming tick's game input: every player's value,
// Players×InputSize bytes, as the header declared, and the seats empty
// at it (engine.Inputs.EmptySeats; 0 when every seat is occupied). A
// tick whose input is the same as the tick before's takes one byte; a
// change of seats a few more. It allocates nothing once its buffers have
// grown to a chunk's size, and panics on a length the header did not
// declare or a seat of no player (a bug in the caller).
func (w *writer) TickInput(in []byte, empty uint32) {
	if len(in) != w.inputLen {
		panic(fmt.Sprintf("replay: writer.TickInput of %d bytes; the header declares %d", len(in), w.inputLen))
	}
	if empty&^w.seatBits != 0 {
		panic(fmt.Sprintf("replay: writer.TickInput with empty seats %#x; the header declares seats %#x", empty, w.seatBits))
	}
	if w.err != nil || w.closed {
		return
	}
	if w.ticks >= w.every || len(w.in)+1+len(in) > MaxChunkInput {
		w.Flush()
	}
	if empty != w.empty {
		w.seats = append(w.seats, seatChange{At: w.ticks, Empty: empty})
		w.empty = empty
	}
	if w.ticks > 0 && bytes.Equal(in, w.lastInput) {
		w.in = append(w.in, 0)
	} else { // the first tick of a chunk is always whole: chunks stand alone
		w.in = append(append(w.in, 1), in...)
		w.lastInput = append(w.lastInput[:0], in...)
	}
	w.ticks++
}

// inputDecoder reads the game input of a recording's chunks, a tick at a
// time, into the caller's buffer, with the seats empty at each tick: it
// allocates nothing, whatever the file says. Reset it with each chunk.
type inputDecoder struct {
	in        []byte
	n         int // bytes of a tick: players × input size
	size      int // bytes of one player's input
	first, t  uint64
	ticks     uint64
	last      []byte // the last tick's bytes, a view of in
	haveChunk bool

	seats    []seatChange // the chunk's, from the next one on
	empty    uint32       // the seats empty at the last tick
	seatBits uint32       // the bits of the header's players
}

// Reset starts on chunk c of a recording with header h.
func (d *inputDecoder) Reset(c chunk, h fileHeader) {
	*d = inputDecoder{in: c.Input, n: int(h.InputSize) * int(h.Players), size: int(h.InputSize),
		first: c.First, ticks: c.Ticks, haveChunk: true, seats: c.Seats, seatBits: uint32(1<<uint(h.Players) - 1)}
}

// Left returns how many ticks of the chunk are still to read.
func (d *inputDecoder) Left() uint64 { return d.ticks - d.t }

// Next writes the next tick's input, every player's value one after
// another, to dst (which must hold Players×InputSize bytes), and returns
// the seats empty at it (bit p: player p). Errors wrap ErrBadFile and
// name the tick: a seat change out of order, one that changes nothing,
// a seat of no player, an empty seat whose input is not all zero. After
// the chunk's last tick, Next checks that nothing follows it.
func (d *inputDecoder) Next(dst []byte) (uint32, error) {
	empty, err := d.next(dst)
	if err != nil {
		return 0, err
	}
	if d.t == d.ticks && len(d.seats) != 0 {
		if at := d.seats[0].At; at < d.ticks {
			return 0, d.outOfOrder(at)
		}
		return 0, fmt.Errorf("%w: a seat change at tick %d, after the chunk of ticks %d-%d", ErrBadFile, d.first+d.seats[0].At, d.first, d.first+d.ticks-1)
	}
	return empty, nil
}

func (d *inputDecoder) next(dst []byte) (uint32, error) {
	switch {
	case !d.haveChunk || d.n == 0:
		return 0, fmt.Errorf("%w: no chunk of game input to read", ErrBadFile)
	case d.t >= d.ticks:
		return 0, fmt.Errorf("%w: read past the chunk of ticks %d-%d", ErrBadFile, d.first, d.first+d.ticks-1)
	case len(dst) != d.n:
		panic(fmt.Sprintf("replay: inputDecoder.Next into %d bytes; a tick holds %d", len(dst), d.n))
	case len(d.in) == 0:
		return 0, fmt.Errorf("%w: the chunk of ticks %d-%d ends at tick %d", ErrBadFile, d.first, d.first+d.ticks-1, d.first+d.t)
	}
	tick := d.first + d.t
	if len(d.seats) > 0 && d.seats[0].At <= d.t {
		sc := d.seats[0]
		d.seats = d.seats[1:]
		switch {
		case sc.At < d.t:
			return 0, d.outOfOrder(sc.At)
		case sc.Empty&^d.seatBits != 0:
			return 0, fmt.Errorf("%w: tick %d: empty seats %#x: the recording has %d players (seats %#x)", ErrBadFile, tick, sc.Empty, d.n/d.size, d.seatBits)
		case sc.Empty == d.empty:
			return 0, fmt.Errorf("%w: tick %d: a seat change to %#x, the seats already empty", ErrBadFile, tick, sc.Empty)
		}
		d.empty = sc.Empty
	}
	switch d.in[0] {
	case 0:
		if d.last == nil {
			return 0, fmt.Errorf("%w: tick %d repeats a tick before its chunk", ErrBadFile, tick)
		}
		d.in = d.in[1:]
	case 1:
		if len(d.in) < 1+d.n {
			return 0, fmt.Errorf("%w: tick %d holds %d bytes of input, want %d", ErrBadFile, tick, len(d.in)-1, d.n)
		}
		d.last = d.in[1 : 1+d.n]
		d.in = d.in[1+d.n:]
	default:
		return 0, fmt.Errorf("%w: tick %d: unknown input record 0x%02x", ErrBadFile, tick, d.in[0])
	}
	for m := d.empty; m != 0; m &= m - 1 {
		p := bits.TrailingZeros32(m)
		if in := d.last[p*d.size : (p+1)*d.size]; string(in) != string(zeros[:d.size]) {
			return 0, fmt.Errorf("%w: tick %d: player %d's seat is empty, but its input is % x, not all zero", ErrBadFile, tick, p+1, in)
		}
	}
	copy(dst, d.last)
	d.t++
	if d.t == d.ticks && len(d.in) != 0 {
		return 0, fmt.Errorf("%w: %d bytes after the last tick of the chunk of ticks %d-%d", ErrBadFile, len(d.in), d.first, d.first+d.ticks-1)
	}
	return d.empty, nil
}

// outOfOrder is the error of a seat change at tick at of the chunk that
// follows one at a later tick, or at the same.
func (d *inputDecoder) outOfOrder(at uint64) error {
	return fmt.Errorf("%w: the seat change at tick %d is not after the one before it in the chunk of ticks %d-%d", ErrBadFile, d.first+at, d.first, d.first+d.ticks-1)
}

// zeros is an empty seat's input.
var zeros [engine.MaxInputSize]byte

// Ticks returns how many ticks were recorded.
func (w *writer) Ticks() uint64 { return w.first + w.ticks }

// Hash records the state hash after tick ticks have run; it goes out with
// the chunk that holds that tick.
func (w *writer) Hash(tick, hash uint64) {
	if w.err == nil && !w.closed {
		w.hashes = append(w.hashes, tickHash{tick, hash})
	}
}

// Err returns the first write error, nil while everything was written: a
// game checks it each tick and ends the run when the disk is full, rather
// than learning at exit that the recording stopped.
func (w *writer) Err() error { return w.err }

// Flush writes the pending chunk, if it has ticks or hashes.
func (w *writer) Flush() error {
	if w.err != nil || w.ticks == 0 && len(w.hashes) == 0 {
		return w.err
	}
	b := append(w.buf[:0], markChunk)
	b = binary.AppendUvarint(b, w.first)
	b = binary.AppendUvarint(b, w.ticks)
	b = binary.AppendUvarint(b, uint64(len(w.in)))
	b = append(b, w.in...)
	b = binary.AppendUvarint(b, uint64(len(w.seats)))
	for _, sc := range w.seats {
		b = binary.AppendUvarint(b, sc.At)
		b = binary.AppendUvarint(b, uint64(sc.Empty))
	}
	b = binary.AppendUvarint(b, uint64(len(w.hashes)))
	for _, h := range w.hashes {
		b = binary.AppendUvarint(b, h.Tick)
		b = binary.LittleEndian.AppendUint64(b, h.Hash)
	}
	b = binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
	w.buf = b
	if _, err := w.w.Write(b); err != nil {
		w.err = fmt.Errorf("replay: writing: %w", err)
		return w.err
	}
	w.first += w.ticks
	w.ticks = 0
	w.hashes = w.hashes[:0]
	w.in = w.in[:0]
	w.seats = w.seats[:0]
	w.empty = 0 // a chunk stands alone: its seats start occupied
	return nil
}

// Close writes the pending chunk and the end record, with message saying
// how the run ended ("" for a clean end; an error's or a panic's text
// otherwise, cut to MaxMessage bytes). Calling it again does
// nothing. It does not close the underlying writer.
func (w *writer) Close(message string) error {
	if w.closed {
		return w.err
	}
	w.Flush()
	w.closed = true
	if w.err != nil {
		return w.err
	}
	msg := message
	if len(msg) > MaxMessage {
		msg = msg[:MaxMessage]
	}
	b := append(w.buf[:0], markEnd)
	b = binary.AppendUvarint(b, w.Ticks())
	b = binary.AppendUvarint(b, uint64(len(msg)))
	b = append(b, msg...)
	b = binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
	if _, err := w.w.Write(b); err != nil {
		w.err = fmt.Errorf("replay: writing: %w", err)
	}
	return w.err
}

// chunk is one chunk of a replay: the input of ticks First to
// First+Ticks-1, the ticks among them at which seats empty or fill, and
// the hashes taken in them. Its slices are valid until the next call of
// Next.
type chunk struct {
	First, Ticks uint64
	Input        []byte
	Seats        []seatChange
	Hashes       []tickHash
}

// reader reads a replay a chunk at a time, verifying each chunk's
// checksum before handing it out.
type reader struct {
	// Header is the file's header, read by newReader.
	Header fileHeader
	// End is the end record, once Next has returned io.EOF.
	End fileEnd

	r      *bufio.Reader
	buf    []byte // the record being read, for its checksum
	err    error  // sticky
	ticks  uint64 // ticks in the chunks read so far
	hashes []tickHash
	input  []byte
	seats  []seatChange

	// version is the file's format version: 4 (no seats) or 5.
	version uint16

	// What checkInput decodes a chunk's input into, made once.
	scratchIn []byte
	dec       inputDecoder
}

// newReader reads and checks the header of the replay in r.
func newReader(r io.Reader) (*reader, error) {
	rr := &reader{r: bufio.NewReader(r)}
	var magic [8]byte
	if _, err := io.ReadFull(rr.r, magic[:]); err != nil || magic != replayMagic {
		return nil, fmt.Errorf("%w: not a fixstep replay (no FXSTEPRP header)", ErrBadFile)
	}
	rr.buf = append(rr.buf, magic[:]...)
	v := uint16(rr.fixed(2))
	if rr.err == nil && (v < oldestVersion || v > formatVersion) {
		return nil, fmt.Errorf("%w: format version %d; this build reads versions %d to %d (older recordings hold device input, or were made by a fixstep whose physics found contacts in another order: record them again; newer ones were made by a newer fixstep)", ErrBadFile, v, oldestVersion, formatVersion)
	}
	rr.version = v
	h := &rr.Header
	h.TPS = uint32(rr.fixed(4))
	h.Seed = rr.fixed(8)
	h.Engine = string(rr.bytes(MaxEngine, "engine version"))
	h.Params = string(rr.bytes(MaxParams, "parameters"))
	h.InputSize, h.Players = rr.readByte(), rr.readByte()
	rr.checksum("header")
	if rr.err != nil {
		if errors.Is(rr.err, ErrTruncated) {
			return nil, fmt.Errorf("%w: truncated header", ErrBadFile)
		}
		return nil, rr.err
	}
	if err := h.check(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadFile, err)
	}
	return rr, nil
}

// Next returns the next chunk. After the last it returns io.EOF, with End
// set. A file that stops before its end record gives an error wrapping
// ErrTruncated, "recording ends at tick N: the rest was not
// written", after every complete chunk; damage inside the file gives an
// error wrapping ErrBadFile that names the ticks. A chunk is handed out
// only once its input decodes to exactly the ticks it declares, at most a
// second of them (Header.TPS, as writer writes), so a file cannot
// make its player run ticks it holds no input for: an idle tick still
// takes a byte, and a chunk's ticks cost at most a byte each.
func (rr *reader) Next() (chunk, error) {
	if rr.err != nil {
		return chunk{}, rr.err
	}
	rr.buf = rr.buf[:0]
	mark, err := rr.r.ReadByte()
	if err != nil {
		rr.err = rr.truncated()
		return chunk{}, rr.err
	}
	rr.buf = append(rr.buf, mark)
	switch mark {
	case markEnd:
		rr.End.Ticks = rr.uvarint(1<<62, "tick count")
		rr.End.Message = string(rr.bytes(MaxMessage, "message"))
		rr.checksum(fmt.Sprintf("end record after tick %d", rr.ticks))
		if rr.err == nil {
			if rr.End.Ticks != rr.ticks {
				rr.err = fmt.Errorf("%w: the end record says %d ticks, the chunks hold %d", ErrBadFile, rr.End.Ticks, rr.ticks)
			} else if _, err := rr.r.ReadByte(); err != io.EOF {
				rr.err = fmt.Errorf("%w: data after the end record", ErrBadFile)
			} else {
				rr.err = io.EOF
			}
		}
		return chunk{}, rr.err
	case markChunk:
	default:
		rr.err = fmt.Errorf("%w: unknown record 0x%02x after tick %d", ErrBadFile, mark, rr.ticks)
		return chunk{}, rr.err
	}
	c := chunk{First: rr.uvarint(1<<62, "first tick")}
	c.Ticks = rr.uvarint(MaxChunkTicks, "ticks in a chunk")
	in := rr.bytes(MaxChunkInput, "chunk input")
	rr.input = append(rr.input[:0], in...)
	c.Input = rr.input
	rr.seats = rr.seats[:0]
	if rr.version >= 5 {
		// At most a change a tick: the list grows as it is read, so a
		// count the file does not bear out costs nothing.
		n := rr.uvarint(c.Ticks, "seat changes in a chunk")
		for i := uint64(0); i < n && rr.err == nil; i++ {
			at := rr.uvarint(MaxChunkTicks, "seat change tick")
			rr.seats = append(rr.seats, seatChange{At: at, Empty: uint32(rr.uvarint(1<<32-1, "empty seats"))})
		}
	}
	c.Seats = rr.seats
	n := rr.uvarint(c.Ticks+1, "hashes in a chunk")
	rr.hashes = rr.hashes[:0]
	for i := uint64(0); i < n && rr.err == nil; i++ {
		rr.hashes = append(rr.hashes, tickHash{rr.uvarint(1<<62, "hash tick"), rr.fixed(8)})
	}
	c.Hashes = rr.hashes
	rr.checksum(fmt.Sprintf("chunk of ticks %d-%d", rr.ticks, rr.ticks+c.Ticks))
	if rr.err == nil && c.First != rr.ticks {
		rr.err = fmt.Errorf("%w: a chunk starts at tick %d, after tick %d", ErrBadFile, c.First, rr.ticks)
	}
	if rr.err == nil && c.Ticks > uint64(len(c.Input)) {
		// Every tick's input takes a byte at least: a chunk cannot make
		// its reader run ticks it holds no input for.
		rr.err = fmt.Errorf("%w: a chunk of %d ticks holds %d bytes of input", ErrBadFile, c.Ticks, len(c.Input))
	}
	if every := min(uint64(rr.Header.TPS), MaxChunkTicks); rr.err == nil && c.Ticks > every {
		// writer writes a chunk every TPS ticks, or sooner.
		rr.err = fmt.Errorf("%w: a chunk of %d ticks (%d-%d): a recording at %d TPS has at most %d in a chunk",
			ErrBadFile, c.Ticks, c.First, c.First+c.Ticks-1, rr.Header.TPS, every)
	}
	if rr.err == nil {
		rr.err = rr.checkInput(c)
	}
	if rr.err != nil {
		return chunk{}, rr.err
	}
	rr.ticks += c.Ticks
	return c, nil
}

// checkInput decodes chunk c's input, every tick of it, before the chunk
// is handed out: it must hold exactly c.Ticks ticks, each well formed, so
// a chunk whose declared count its input does not bear out is refused
// before any of its ticks runs, rather than at the tick where its input
// gives out. The buffer it decodes into is made once.
func (rr *reader) checkInput(c chunk) error {
	if c.Ticks == 0 && len(c.Input) > 0 {
		return fmt.Errorf("%w: a chunk of no ticks after tick %d holds %d bytes of input", ErrBadFile, c.First, len(c.Input))
	}
	n := int(rr.Header.InputSize) * int(rr.Header.Players)
	if cap(rr.scratchIn) < n {
		rr.scratchIn = make([]byte, n)
	}
	rr.dec.Reset(c, rr.Header)
	for rr.dec.Left() > 0 {
		if _, err := rr.dec.Next(rr.scratchIn[:n]); err != nil {
			return err
		}
	}
	return nil
}

// Ticks returns how many ticks the chunks read so far hold.
func (rr *reader) Ticks() uint64 { return rr.ticks }

func (rr *reader) truncated() error {
	return fmt.Errorf("%w: recording ends at tick %d: the rest was not written", ErrTruncated, rr.ticks)
}

// readByte reads one byte of the current record.
func (rr *reader) readByte() byte {
	if rr.err != nil {
		return 0
	}
	b, err := rr.r.ReadByte()
	if err != nil {
		rr.err = rr.truncated()
		return 0
	}
	rr.buf = append(rr.buf, b)
	return b
}

func (rr *reader) fixed(n int) uint64 {
	var v uint64
	for i := range n {
		v |= uint64(rr.readByte()) << (8 * i)
	}
	return v
}

// uvarint reads a uvarint and checks it against max, naming what it is.
func (rr *reader) uvarint(max uint64, what string) uint64 {
	var v uint64
	for shift := uint(0); rr.err == nil; shift += 7 {
		b := rr.readByte()
		if shift == 63 && b > 1 {
			rr.err = fmt.Errorf("%w: %s: bad varint after tick %d", ErrBadFile, what, rr.ticks)
			return 0
		}
		v |= uint64(b&0x7f) << shift
		if b < 0x80 {
			break
		}
	}
	if rr.err == nil && v > max {
		rr.err = fmt.Errorf("%w: %s is %d, over the limit of %d (after tick %d)", ErrBadFile, what, v, max, rr.ticks)
	}
	return v
}

// bytes reads a length-prefixed field of at most max bytes.
func (rr *reader) bytes(max uint64, what string) []byte {
	n := rr.uvarint(max, what+" length")
	if rr.err != nil {
		return nil
	}
	start := len(rr.buf)
	for range n {
		rr.readByte()
	}
	if rr.err != nil {
		return nil
	}
	return rr.buf[start:]
}

// checksum reads the record's CRC and compares it with what was read.
func (rr *reader) checksum(what string) {
	body := len(rr.buf)
	sum := uint32(rr.fixed(4))
	if rr.err == nil && crc32.ChecksumIEEE(rr.buf[:body]) != sum {
		rr.err = fmt.Errorf("%w: %s: checksum mismatch (corrupt)", ErrBadFile, what)
	}
}

// readAll reads a whole replay held in memory: the header, every
// chunk's input joined, every hash, and the end record. It is for small
// files and tests; players of real files use reader.
func readAll(data []byte) (fileHeader, []byte, []tickHash, fileEnd, error) {
	rr, err := newReader(bytes.NewReader(data))
	if err != nil {
		return fileHeader{}, nil, nil, fileEnd{}, err
	}
	var in []byte
	var hs []tickHash
	for {
		c, err := rr.Next()
		if err == io.EOF {
			return rr.Header, in, hs, rr.End, nil
		}
		if err != nil {
			return rr.Header, in, hs, fileEnd{Ticks: rr.ticks}, err
		}
		in = append(in, c.Input...)
		hs = append(hs, c.Hashes...)
	}
}
