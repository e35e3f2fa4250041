package input

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
)

// ReplayVersion is the replay file format this build writes and reads.
// Version 3 has version 2's layout (written as the run goes, in
// checksummed chunks); its number changed with the physics' broad phase,
// which finds contacts in another order, so a version 2 recording no
// longer replays to its hashes: it is refused with a clear error, as
// version 1 files (one block written at exit) are.
//
// Version 4 adds the game's own per-tick input (engine.Inputter): the
// header says its size and the players it holds, and the chunks hold those
// values instead of device input. Version 3 files still read, as
// recordings of device input.
const ReplayVersion = 4

// Limits on what a replay file may declare. A replay is untrusted input
// (people attach them to bug reports): the reader checks every count and
// size against these before it allocates anything, and reads one chunk at
// a time, so a file of any size costs at most about MaxReplayChunkInput of
// memory.
const (
	MaxReplayEngine     = 64      // bytes of the engine version
	MaxReplayParams     = 1024    // bytes of the game's parameters
	MaxReplayChunkTicks = 1 << 16 // ticks in one chunk
	MaxReplayChunkInput = 1 << 20 // bytes of input in one chunk
	MaxReplayMessage    = 4096    // bytes of the end record's message
)

var replayMagic = [8]byte{'F', 'X', 'S', 'T', 'E', 'P', 'R', 'P'}

const (
	markChunk = 'C'
	markEnd   = 'E'
)

// ReplayHeader is what a replay needs to run again: the tick rate, the
// seed, the engine version that recorded it and the game's own parameters
// (e.g. "n=300"), which the game validates with the rules of its flags.
type ReplayHeader struct {
	TPS    uint32
	Seed   uint64
	Engine string
	Params string
	// InputSize is the size of the game's per-tick input value, and
	// Players how many players' values each tick holds; 0 for a recording
	// of device input (ReplayWriter.Tick).
	InputSize, Players uint8
}

// MaxReplayPlayers is the most players a recording of game input holds.
const MaxReplayPlayers = 8

// check reports a header the format cannot hold.
func (h ReplayHeader) check() error {
	switch {
	case h.TPS == 0:
		return fmt.Errorf("TPS 0")
	case len(h.Engine) > MaxReplayEngine:
		return fmt.Errorf("engine version of %d bytes, over %d", len(h.Engine), MaxReplayEngine)
	case len(h.Params) > MaxReplayParams:
		return fmt.Errorf("parameters of %d bytes, over %d", len(h.Params), MaxReplayParams)
	case (h.InputSize == 0) != (h.Players == 0):
		return fmt.Errorf("input size %d for %d players: both or neither must be 0", h.InputSize, h.Players)
	case h.InputSize > MaxReplayInputSize:
		return fmt.Errorf("input size %d, over %d", h.InputSize, MaxReplayInputSize)
	case h.Players > MaxReplayPlayers:
		return fmt.Errorf("%d players, over %d", h.Players, MaxReplayPlayers)
	}
	return nil
}

// MaxReplayInputSize is the largest per-tick game input a recording holds,
// engine.MaxInputSize.
const MaxReplayInputSize = 64

// TickHash is a game state hash after a tick (Tick counts ticks run).
type TickHash struct {
	Tick uint64
	Hash uint64
}

// ReplayEnd is the record that closes a replay: how many ticks ran, and a
// message when the run ended in an error or a panic ("panic in Update at
// tick 120: ..."), empty for a clean end.
type ReplayEnd struct {
	Ticks   uint64
	Message string
}

// The file format, integers little-endian or uvarints:
//
//	header: "FXSTEPRP", version (uint16), TPS (uint32), seed (uint64),
//	        engine and params (uvarint length, bytes), input size and
//	        players (a byte each; version 4), CRC-32 of the above
//	chunk:  'C', first tick, ticks, input length, input (the Recorder's
//	        stream for those ticks; for game input, per tick 1 and the
//	        players' values, or 0 for the tick before's, the chunk's first
//	        tick always whole), hash count, (tick, hash uint64) pairs,
//	        CRC-32 of the chunk from 'C'
//	end:    'E', ticks, message length, message, CRC-32 of the record
//
// Chunks are written as the run goes (ReplayWriter flushes one per second
// of game time), so a process killed mid-run leaves a file that replays up
// to its last complete chunk.

// ErrBadReplay is wrapped by every error about a replay file's contents.
var ErrBadReplay = errors.New("bad replay file")

// ErrReplayTruncated is wrapped by ReplayReader.Next when the file ends
// before its end record (the recording process was killed): everything up
// to the tick it names replays.
var ErrReplayTruncated = errors.New("recording truncated")

// ReplayWriter writes a replay as the run goes. Make it with
// NewReplayWriter (which writes the header at once), call Tick at the start
// of every update and Hash after it when you take one, and Close at the
// end, whatever the end. Write errors are sticky: Tick stops recording and
// Close returns the first.
type ReplayWriter struct {
	w      io.Writer
	rec    Recorder
	every  uint64 // ticks per chunk
	first  uint64 // first tick of the pending chunk
	ticks  uint64 // ticks in it
	hashes []TickHash
	buf    []byte
	err    error
	closed bool

	inputLen  int    // bytes of a tick's game input, 0 for device input
	lastInput []byte // the last game input written
}

// NewReplayWriter writes h to w and returns a writer that flushes a chunk
// every h.TPS ticks (a second of game time). It fails on a header over the
// limits or when the header cannot be written: check an output before the
// run, not after.
func NewReplayWriter(w io.Writer, h ReplayHeader) (*ReplayWriter, error) {
	if err := h.check(); err != nil {
		return nil, fmt.Errorf("input: replay header: %w", err)
	}
	b := append([]byte(nil), replayMagic[:]...)
	b = binary.LittleEndian.AppendUint16(b, ReplayVersion)
	b = binary.LittleEndian.AppendUint32(b, h.TPS)
	b = binary.LittleEndian.AppendUint64(b, h.Seed)
	for _, s := range []string{h.Engine, h.Params} {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	b = append(b, h.InputSize, h.Players)
	b = binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
	if _, err := w.Write(b); err != nil {
		return nil, fmt.Errorf("input: writing the replay header: %w", err)
	}
	every := min(uint64(h.TPS), MaxReplayChunkTicks)
	return &ReplayWriter{w: w, every: every, hashes: make([]TickHash, 0, 4), buf: b[:0],
		inputLen: int(h.InputSize) * int(h.Players)}, nil
}

// TickInput records the coming tick's game input: every player's value,
// Players×InputSize bytes, as the header declared. A tick whose input is
// the same as the tick before's takes one byte. It allocates nothing once
// its buffers have grown to a chunk's size, and panics on a length the
// header did not declare (a bug in the caller).
func (w *ReplayWriter) TickInput(in []byte) {
	if len(in) != w.inputLen || w.inputLen == 0 {
		panic(fmt.Sprintf("input: ReplayWriter.TickInput of %d bytes; the header declares %d", len(in), w.inputLen))
	}
	if w.err != nil || w.closed {
		return
	}
	if w.ticks >= w.every {
		w.Flush()
	}
	if w.ticks > 0 && bytes.Equal(in, w.lastInput) {
		w.rec.buf = append(w.rec.buf, 0)
	} else { // the first tick of a chunk is always whole: chunks stand alone
		w.rec.buf = append(append(w.rec.buf, 1), in...)
		w.lastInput = append(w.lastInput[:0], in...)
	}
	w.ticks++
}

// InputDecoder reads the game input of a recording's chunks, a tick at a
// time, into the caller's buffer: it allocates nothing, whatever the file
// says. Reset it with each chunk.
type InputDecoder struct {
	in        []byte
	n         int // bytes of a tick: players × input size
	first, t  uint64
	ticks     uint64
	last      []byte // the last tick's bytes, a view of in
	haveChunk bool
}

// Reset starts on chunk c of a recording with header h.
func (d *InputDecoder) Reset(c ReplayChunk, h ReplayHeader) {
	*d = InputDecoder{in: c.Input, n: int(h.InputSize) * int(h.Players), first: c.First, ticks: c.Ticks, haveChunk: true}
}

// Left returns how many ticks of the chunk are still to read.
func (d *InputDecoder) Left() uint64 { return d.ticks - d.t }

// Next writes the next tick's input, every player's value one after
// another, to dst (which must hold Players×InputSize bytes). Errors wrap
// ErrBadReplay and name the tick; after the chunk's last tick, Next checks
// that nothing follows it.
func (d *InputDecoder) Next(dst []byte) error {
	switch {
	case !d.haveChunk || d.n == 0:
		return fmt.Errorf("%w: no chunk of game input to read", ErrBadReplay)
	case d.t >= d.ticks:
		return fmt.Errorf("%w: read past the chunk of ticks %d-%d", ErrBadReplay, d.first, d.first+d.ticks-1)
	case len(dst) != d.n:
		panic(fmt.Sprintf("input: InputDecoder.Next into %d bytes; a tick holds %d", len(dst), d.n))
	case len(d.in) == 0:
		return fmt.Errorf("%w: the chunk of ticks %d-%d ends at tick %d", ErrBadReplay, d.first, d.first+d.ticks-1, d.first+d.t)
	}
	tick := d.first + d.t
	switch d.in[0] {
	case 0:
		if d.last == nil {
			return fmt.Errorf("%w: tick %d repeats a tick before its chunk", ErrBadReplay, tick)
		}
		d.in = d.in[1:]
	case 1:
		if len(d.in) < 1+d.n {
			return fmt.Errorf("%w: tick %d holds %d bytes of input, want %d", ErrBadReplay, tick, len(d.in)-1, d.n)
		}
		d.last = d.in[1 : 1+d.n]
		d.in = d.in[1+d.n:]
	default:
		return fmt.Errorf("%w: tick %d: unknown input record 0x%02x", ErrBadReplay, tick, d.in[0])
	}
	copy(dst, d.last)
	d.t++
	if d.t == d.ticks && len(d.in) != 0 {
		return fmt.Errorf("%w: %d bytes after the last tick of the chunk of ticks %d-%d", ErrBadReplay, len(d.in), d.first, d.first+d.ticks-1)
	}
	return nil
}

// Tick records what the coming update will see of s. When the pending
// chunk already holds a second of ticks it is written first, so a hash
// taken after this tick goes out with it. It allocates nothing once its
// buffers have grown to a chunk's size.
func (w *ReplayWriter) Tick(s *State) {
	if w.inputLen != 0 {
		panic("input: ReplayWriter.Tick on a recording of game input: call TickInput")
	}
	if w.err != nil || w.closed {
		return
	}
	if w.ticks >= w.every || len(w.rec.buf) >= MaxReplayChunkInput/2 {
		w.Flush()
	}
	w.rec.Tick(s)
	w.ticks++
}

// Ticks returns how many ticks were recorded.
func (w *ReplayWriter) Ticks() uint64 { return w.first + w.ticks }

// Hash records the state hash after tick ticks have run; it goes out with
// the chunk that holds that tick.
func (w *ReplayWriter) Hash(tick, hash uint64) {
	if w.err == nil && !w.closed {
		w.hashes = append(w.hashes, TickHash{tick, hash})
	}
}

// Err returns the first write error, nil while everything was written: a
// game checks it each tick and ends the run when the disk is full, rather
// than learning at exit that the recording stopped.
func (w *ReplayWriter) Err() error { return w.err }

// Flush writes the pending chunk, if it has ticks or hashes.
func (w *ReplayWriter) Flush() error {
	if w.err != nil || w.ticks == 0 && len(w.hashes) == 0 {
		return w.err
	}
	b := append(w.buf[:0], markChunk)
	b = binary.AppendUvarint(b, w.first)
	b = binary.AppendUvarint(b, w.ticks)
	b = binary.AppendUvarint(b, uint64(len(w.rec.buf)))
	b = append(b, w.rec.buf...)
	b = binary.AppendUvarint(b, uint64(len(w.hashes)))
	for _, h := range w.hashes {
		b = binary.AppendUvarint(b, h.Tick)
		b = binary.LittleEndian.AppendUint64(b, h.Hash)
	}
	b = binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
	w.buf = b
	if _, err := w.w.Write(b); err != nil {
		w.err = fmt.Errorf("input: writing the replay: %w", err)
		return w.err
	}
	w.first += w.ticks
	w.ticks = 0
	w.hashes = w.hashes[:0]
	w.rec.buf = w.rec.buf[:0]
	return nil
}

// Close writes the pending chunk and the end record, with message saying
// how the run ended ("" for a clean end; an error's or a panic's text
// otherwise, cut to MaxReplayMessage bytes). Calling it again does
// nothing. It does not close the underlying writer.
func (w *ReplayWriter) Close(message string) error {
	if w.closed {
		return w.err
	}
	w.Flush()
	w.closed = true
	if w.err != nil {
		return w.err
	}
	msg := message
	if len(msg) > MaxReplayMessage {
		msg = msg[:MaxReplayMessage]
	}
	b := append(w.buf[:0], markEnd)
	b = binary.AppendUvarint(b, w.Ticks())
	b = binary.AppendUvarint(b, uint64(len(msg)))
	b = append(b, msg...)
	b = binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
	if _, err := w.w.Write(b); err != nil {
		w.err = fmt.Errorf("input: writing the replay: %w", err)
	}
	return w.err
}

// ReplayChunk is one chunk of a replay: the input of ticks First to
// First+Ticks-1 and the hashes taken in them. Its slices are valid until
// the next call of Next.
type ReplayChunk struct {
	First, Ticks uint64
	Input        []byte
	Hashes       []TickHash
}

// ReplayReader reads a replay a chunk at a time, verifying each chunk's
// checksum before handing it out.
type ReplayReader struct {
	// Header is the file's header, read by NewReplayReader.
	Header ReplayHeader
	// End is the end record, once Next has returned io.EOF.
	End ReplayEnd

	r      *bufio.Reader
	buf    []byte // the record being read, for its checksum
	err    error  // sticky
	ticks  uint64 // ticks in the chunks read so far
	hashes []TickHash
	input  []byte

	// What checkInput decodes a chunk's input into, made once.
	scratch   *State
	scratchIn []byte
	dec       InputDecoder
}

// NewReplayReader reads and checks the header of the replay in r.
func NewReplayReader(r io.Reader) (*ReplayReader, error) {
	rr := &ReplayReader{r: bufio.NewReader(r)}
	var magic [8]byte
	if _, err := io.ReadFull(rr.r, magic[:]); err != nil || magic != replayMagic {
		return nil, fmt.Errorf("%w: not a fixstep replay (no FXSTEPRP header)", ErrBadReplay)
	}
	rr.buf = append(rr.buf, magic[:]...)
	v := uint16(rr.fixed(2))
	if rr.err == nil && v != ReplayVersion && v != 3 {
		why := ""
		if v == 2 {
			why = " (a version 2 recording was made by a fixstep whose physics found contacts in another order: record it again)"
		}
		return nil, fmt.Errorf("%w: format version %d; this build reads versions 3 and %d%s", ErrBadReplay, v, ReplayVersion, why)
	}
	h := &rr.Header
	h.TPS = uint32(rr.fixed(4))
	h.Seed = rr.fixed(8)
	h.Engine = string(rr.bytes(MaxReplayEngine, "engine version"))
	h.Params = string(rr.bytes(MaxReplayParams, "parameters"))
	if v >= 4 {
		h.InputSize, h.Players = rr.readByte(), rr.readByte()
	}
	rr.checksum("header")
	if rr.err != nil {
		if errors.Is(rr.err, ErrReplayTruncated) {
			return nil, fmt.Errorf("%w: truncated header", ErrBadReplay)
		}
		return nil, rr.err
	}
	if err := h.check(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadReplay, err)
	}
	return rr, nil
}

// Next returns the next chunk. After the last it returns io.EOF, with End
// set. A file that stops before its end record gives an error wrapping
// ErrReplayTruncated, "recording ends at tick N: the rest was not
// written", after every complete chunk; damage inside the file gives an
// error wrapping ErrBadReplay that names the ticks. A chunk is handed out
// only once its input decodes to exactly the ticks it declares, at most a
// second of them (Header.TPS, as ReplayWriter writes), so a file cannot
// make its player run ticks it holds no input for: an idle tick still
// takes a byte, and a chunk's ticks cost at most a byte each.
func (rr *ReplayReader) Next() (ReplayChunk, error) {
	if rr.err != nil {
		return ReplayChunk{}, rr.err
	}
	rr.buf = rr.buf[:0]
	mark, err := rr.r.ReadByte()
	if err != nil {
		rr.err = rr.truncated()
		return ReplayChunk{}, rr.err
	}
	rr.buf = append(rr.buf, mark)
	switch mark {
	case markEnd:
		rr.End.Ticks = rr.uvarint(1<<62, "tick count")
		rr.End.Message = string(rr.bytes(MaxReplayMessage, "message"))
		rr.checksum(fmt.Sprintf("end record after tick %d", rr.ticks))
		if rr.err == nil {
			if rr.End.Ticks != rr.ticks {
				rr.err = fmt.Errorf("%w: the end record says %d ticks, the chunks hold %d", ErrBadReplay, rr.End.Ticks, rr.ticks)
			} else if _, err := rr.r.ReadByte(); err != io.EOF {
				rr.err = fmt.Errorf("%w: data after the end record", ErrBadReplay)
			} else {
				rr.err = io.EOF
			}
		}
		return ReplayChunk{}, rr.err
	case markChunk:
	default:
		rr.err = fmt.Errorf("%w: unknown record 0x%02x after tick %d", ErrBadReplay, mark, rr.ticks)
		return ReplayChunk{}, rr.err
	}
	c := ReplayChunk{First: rr.uvarint(1<<62, "first tick")}
	c.Ticks = rr.uvarint(MaxReplayChunkTicks, "ticks in a chunk")
	in := rr.bytes(MaxReplayChunkInput, "chunk input")
	rr.input = append(rr.input[:0], in...)
	c.Input = rr.input
	n := rr.uvarint(c.Ticks+1, "hashes in a chunk")
	rr.hashes = rr.hashes[:0]
	for i := uint64(0); i < n && rr.err == nil; i++ {
		rr.hashes = append(rr.hashes, TickHash{rr.uvarint(1<<62, "hash tick"), rr.fixed(8)})
	}
	c.Hashes = rr.hashes
	rr.checksum(fmt.Sprintf("chunk of ticks %d-%d", rr.ticks, rr.ticks+c.Ticks))
	if rr.err == nil && c.First != rr.ticks {
		rr.err = fmt.Errorf("%w: a chunk starts at tick %d, after tick %d", ErrBadReplay, c.First, rr.ticks)
	}
	if rr.err == nil && c.Ticks > uint64(len(c.Input)) {
		// Every tick's input takes a byte at least: a chunk cannot make
		// its reader run ticks it holds no input for.
		rr.err = fmt.Errorf("%w: a chunk of %d ticks holds %d bytes of input", ErrBadReplay, c.Ticks, len(c.Input))
	}
	if every := min(uint64(rr.Header.TPS), MaxReplayChunkTicks); rr.err == nil && c.Ticks > every {
		// ReplayWriter writes a chunk every TPS ticks, or sooner.
		rr.err = fmt.Errorf("%w: a chunk of %d ticks (%d-%d): a recording at %d TPS has at most %d in a chunk",
			ErrBadReplay, c.Ticks, c.First, c.First+c.Ticks-1, rr.Header.TPS, every)
	}
	if rr.err == nil {
		rr.err = rr.checkInput(c)
	}
	if rr.err != nil {
		return ReplayChunk{}, rr.err
	}
	rr.ticks += c.Ticks
	return c, nil
}

// checkInput decodes chunk c's input, every tick of it, before the chunk
// is handed out: it must hold exactly c.Ticks ticks, each well formed, so
// a chunk whose declared count its input does not bear out is refused
// before any of its ticks runs, rather than at the tick where its input
// gives out. The scratch State and buffer it decodes into are made once.
func (rr *ReplayReader) checkInput(c ReplayChunk) error {
	if c.Ticks == 0 && len(c.Input) > 0 {
		return fmt.Errorf("%w: a chunk of no ticks after tick %d holds %d bytes of input", ErrBadReplay, c.First, len(c.Input))
	}
	if n := int(rr.Header.InputSize) * int(rr.Header.Players); n > 0 {
		if cap(rr.scratchIn) < n {
			rr.scratchIn = make([]byte, n)
		}
		rr.dec.Reset(c, rr.Header)
		for rr.dec.Left() > 0 {
			if err := rr.dec.Next(rr.scratchIn[:n]); err != nil {
				return err
			}
		}
		return nil
	}
	if rr.scratch == nil {
		rr.scratch = new(State)
	}
	p := Player{data: c.Input, tick: c.First}
	for range c.Ticks {
		if err := p.Tick(rr.scratch); err != nil {
			return fmt.Errorf("%w: the chunk of ticks %d-%d: %v", ErrBadReplay, c.First, c.First+c.Ticks-1, err)
		}
	}
	if !p.Done() {
		return fmt.Errorf("%w: %d bytes after the last tick of the chunk of ticks %d-%d", ErrBadReplay, len(c.Input)-p.pos, c.First, c.First+c.Ticks-1)
	}
	return nil
}

// Ticks returns how many ticks the chunks read so far hold.
func (rr *ReplayReader) Ticks() uint64 { return rr.ticks }

func (rr *ReplayReader) truncated() error {
	return fmt.Errorf("%w: recording ends at tick %d: the rest was not written", ErrReplayTruncated, rr.ticks)
}

// readByte reads one byte of the current record.
func (rr *ReplayReader) readByte() byte {
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

func (rr *ReplayReader) fixed(n int) uint64 {
	var v uint64
	for i := range n {
		v |= uint64(rr.readByte()) << (8 * i)
	}
	return v
}

// uvarint reads a uvarint and checks it against max, naming what it is.
func (rr *ReplayReader) uvarint(max uint64, what string) uint64 {
	var v uint64
	for shift := uint(0); rr.err == nil; shift += 7 {
		b := rr.readByte()
		if shift == 63 && b > 1 {
			rr.err = fmt.Errorf("%w: %s: bad varint after tick %d", ErrBadReplay, what, rr.ticks)
			return 0
		}
		v |= uint64(b&0x7f) << shift
		if b < 0x80 {
			break
		}
	}
	if rr.err == nil && v > max {
		rr.err = fmt.Errorf("%w: %s is %d, over the limit of %d (after tick %d)", ErrBadReplay, what, v, max, rr.ticks)
	}
	return v
}

// bytes reads a length-prefixed field of at most max bytes.
func (rr *ReplayReader) bytes(max uint64, what string) []byte {
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
func (rr *ReplayReader) checksum(what string) {
	body := len(rr.buf)
	sum := uint32(rr.fixed(4))
	if rr.err == nil && crc32.ChecksumIEEE(rr.buf[:body]) != sum {
		rr.err = fmt.Errorf("%w: %s: checksum mismatch (corrupt)", ErrBadReplay, what)
	}
}

// ReadReplay reads a whole replay held in memory: the header, every
// chunk's input joined, every hash, and the end record. It is for small
// files and tests; players of real files use ReplayReader.
func ReadReplay(data []byte) (ReplayHeader, []byte, []TickHash, ReplayEnd, error) {
	rr, err := NewReplayReader(bytes.NewReader(data))
	if err != nil {
		return ReplayHeader{}, nil, nil, ReplayEnd{}, err
	}
	var in []byte
	var hs []TickHash
	for {
		c, err := rr.Next()
		if err == io.EOF {
			return rr.Header, in, hs, rr.End, nil
		}
		if err != nil {
			return rr.Header, in, hs, ReplayEnd{Ticks: rr.ticks}, err
		}
		in = append(in, c.Input...)
		hs = append(hs, c.Hashes...)
	}
}
