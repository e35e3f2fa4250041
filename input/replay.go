package input

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
)

// ReplayVersion is the replay file format this build writes and reads.
const ReplayVersion = 1

var replayMagic = [8]byte{'F', 'X', 'S', 'T', 'E', 'P', 'R', 'P'}

// Replay is a recorded run: what is needed to run it again (the tick rate,
// the seed, the game's parameters), the per-tick input from a Recorder, and
// state hashes taken along the way so that a re-run can say at which tick it
// first diverged.
//
// On disk it is: the magic "FXSTEPRP", the format version (uint16), TPS
// (uint32), seed (uint64), then as length-prefixed fields the engine
// version, the game's parameters and the input stream, the tick count, the
// hashes as (tick, hash) pairs, and a CRC-32 (IEEE) of everything before
// it. Integers are little-endian or uvarints.
type Replay struct {
	TPS    uint32
	Seed   uint64
	Engine string // the engine version that recorded it
	Params string // the game's own settings, e.g. "n=300"
	Ticks  uint64 // ticks recorded
	Input  []byte // the Recorder's stream
	Hashes []TickHash
}

// TickHash is a game state hash after a tick (Tick counts ticks run).
type TickHash struct {
	Tick uint64
	Hash uint64
}

// MarshalBinary encodes the replay with its checksum.
func (r *Replay) MarshalBinary() ([]byte, error) {
	b := append([]byte(nil), replayMagic[:]...)
	b = binary.LittleEndian.AppendUint16(b, ReplayVersion)
	b = binary.LittleEndian.AppendUint32(b, r.TPS)
	b = binary.LittleEndian.AppendUint64(b, r.Seed)
	for _, s := range []string{r.Engine, r.Params} {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	b = binary.AppendUvarint(b, r.Ticks)
	b = binary.AppendUvarint(b, uint64(len(r.Input)))
	b = append(b, r.Input...)
	b = binary.AppendUvarint(b, uint64(len(r.Hashes)))
	for _, h := range r.Hashes {
		b = binary.AppendUvarint(b, h.Tick)
		b = binary.LittleEndian.AppendUint64(b, h.Hash)
	}
	return binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b)), nil
}

// ErrBadReplay is wrapped by every error UnmarshalBinary returns.
var ErrBadReplay = errors.New("bad replay file")

// UnmarshalBinary decodes a replay. A file that is not a replay, has
// another format version, is truncated or fails its checksum gives an error
// wrapping ErrBadReplay that says which.
func (r *Replay) UnmarshalBinary(data []byte) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrBadReplay, fmt.Sprintf(format, args...))
	}
	if len(data) < len(replayMagic) || !bytes.Equal(data[:len(replayMagic)], replayMagic[:]) {
		return bad("not a fixstep replay (no FXSTEPRP header)")
	}
	if len(data) < len(replayMagic)+2+4 {
		return bad("truncated: %d bytes", len(data))
	}
	if v := binary.LittleEndian.Uint16(data[8:]); v != ReplayVersion {
		return bad("format version %d; this build reads version %d", v, ReplayVersion)
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return bad("checksum mismatch: the file is truncated or corrupt")
	}
	d := decoder{data: body, pos: 10}
	r.TPS = d.uint32()
	r.Seed = d.uint64()
	r.Engine = string(d.bytes(d.uvarint()))
	r.Params = string(d.bytes(d.uvarint()))
	r.Ticks = d.uvarint()
	r.Input = append([]byte(nil), d.bytes(d.uvarint())...)
	n := d.uvarint()
	if n > uint64(len(body)) {
		d.fail("%d hashes in %d bytes", n, len(body))
	}
	r.Hashes = nil
	for i := uint64(0); i < n && d.err == nil; i++ {
		t := d.uvarint()
		h := d.uint64()
		if d.err == nil {
			r.Hashes = append(r.Hashes, TickHash{Tick: t, Hash: h})
		}
	}
	if d.err == nil && d.pos != len(body) {
		d.fail("%d bytes of trailing data", len(body)-d.pos)
	}
	if d.err != nil {
		return bad("%v", d.err)
	}
	return nil
}
