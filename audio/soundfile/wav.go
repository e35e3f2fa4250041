package soundfile

import (
	"fmt"
)

// WAV format tags (the fmt chunk's first field).
const (
	wavPCM        = 0x0001
	wavFloat      = 0x0003
	wavExtensible = 0xFFFE
)

// wavTagNames names the format tags found in WAV files that SDL would
// decode or that people have, for the refusal's message.
var wavTagNames = map[uint16]string{
	0x0002: "MS ADPCM",
	0x0006: "A-law",
	0x0007: "µ-law",
	0x0011: "IMA ADPCM",
	0x0031: "GSM 6.10",
	0x0050: "MPEG",
	0x0055: "MP3",
}

// wavMaxChunks is how many chunks SDL 2.26 reads before it gives up on a
// WAV file (SDL_WAVE_CHUNK_LIMIT's default); the walk stops there too.
const wavMaxChunks = 10000

// wavChunk is a chunk's header: its id, where its data begins in the file
// and its size field.
type wavChunk struct {
	id  string
	pos int64
	len int64
}

// parseWAV reads a RIFF WAVE file's fmt and data chunks the way SDL 2.26's
// SDL_LoadWAV_RW finds them, so the sizes it returns are those SDL will
// allocate: chunks are walked from byte 12 with their pad byte, within the
// RIFF size (all of the file when that size is 0), until the first fmt and
// the first data chunk are both found. The data chunk's size is clamped to
// what the file holds (dataLen; ClampData writes the clamped size back
// before SDL reads it, so SDL allocates no more).
func parseWAV(b []byte) (Info, error) {
	n := int64(len(b))
	riffEnd := 8 + int64(le32(b[4:]))
	if riffEnd == 8 {
		riffEnd = 8 + 0xFFFFFFFF
	}
	var fmtc, data wavChunk
	cur := wavChunk{pos: 12}
	for count := 0; ; count++ {
		next := cur.pos + cur.len + cur.len&1
		if riffEnd <= next {
			break
		}
		if count >= wavMaxChunks {
			return Info{}, fmt.Errorf("WAV file of more than %d chunks", wavMaxChunks)
		}
		if next+8 > n {
			break // SDL stops at the end of the file too
		}
		cur = wavChunk{id: string(b[next : next+4]), pos: next + 8, len: int64(le32(b[next+4:]))}
		switch {
		case cur.id == "fmt " && fmtc.id == "" && data.id != "":
			return Info{}, fmt.Errorf("WAV file with its fmt chunk after its data chunk (at byte %d)", next)
		case cur.id == "fmt " && fmtc.id == "":
			fmtc = cur
		case cur.id == "data" && data.id == "":
			data = cur
		}
		if fmtc.id != "" && data.id != "" {
			break
		}
	}
	switch {
	case fmtc.id == "" && data.id == "":
		return Info{}, fmt.Errorf("WAV file without fmt and data chunks (truncated at %d bytes?)", n)
	case fmtc.id == "":
		return Info{}, fmt.Errorf("WAV file without a fmt chunk")
	case data.id == "":
		return Info{}, fmt.Errorf("WAV file without a data chunk (truncated at %d bytes?)", n)
	}
	s, err := parseWAVFormat(b, fmtc)
	if err != nil {
		return Info{}, err
	}
	align := int64(s.channels * s.bits / 8)
	s.declared = data.len
	s.dataSize = int(data.pos - 4)
	s.dataLen = min(data.len, n-data.pos)
	s.frames = s.dataLen / align
	s.duration = seconds(float64(s.frames) / float64(s.rate))
	return s, nil
}

// parseWAVFormat reads a fmt chunk as SDL 2.26 does (at most its first
// 1046 bytes) and accepts what SDL_mixer can play without a decoder: PCM of
// 8, 16, 24 or 32 bits and 32-bit IEEE float, plain or in
// WAVE_FORMAT_EXTENSIBLE, 1 to 8 channels, with the block alignment that
// the channels and bits make.
func parseWAVFormat(b []byte, c wavChunk) (Info, error) {
	end := min(c.pos+c.len, c.pos+1046, int64(len(b)))
	f := b[c.pos:end]
	if c.len < 16 || len(f) < 16 {
		return Info{}, fmt.Errorf("WAV fmt chunk of %d bytes (%d in the file), want 16 or more", c.len, len(f))
	}
	tag := le16(f)
	s := Info{
		channels: int(le16(f[2:])),
		rate:     int(le32(f[4:])),
		bits:     int(le16(f[14:])),
	}
	blockAlign := int(le16(f[12:]))
	if tag == wavExtensible {
		// SDL wants 40 bytes and an extension of 22; the sub-format is a
		// GUID whose first two bytes are the format tag.
		if len(f) < 40 || le16(f[16:]) < 22 {
			return Info{}, fmt.Errorf("WAV fmt chunk of WAVE_FORMAT_EXTENSIBLE in %d bytes, want 40", len(f))
		}
		guid := f[24:40]
		const tail = "\x00\x00\x00\x00\x10\x00\x80\x00\x00\xAA\x00\x38\x9B\x71"
		if string(guid[2:]) != tail {
			return Info{}, fmt.Errorf("WAV of WAVE_FORMAT_EXTENSIBLE with sub-format GUID %x: want PCM or IEEE float", guid)
		}
		tag = le16(guid)
	}
	switch {
	case tag == wavPCM && s.bits != 8 && s.bits != 16 && s.bits != 24 && s.bits != 32:
		return Info{}, fmt.Errorf("WAV of %d-bit PCM: want 8, 16, 24 or 32 bits", s.bits)
	case tag == wavFloat && s.bits != 32:
		return Info{}, fmt.Errorf("WAV of %d-bit float: want 32 bits", s.bits)
	case tag != wavPCM && tag != wavFloat && wavTagNames[tag] != "":
		return Info{}, fmt.Errorf("WAV of %s (format tag 0x%04x): want PCM or IEEE float", wavTagNames[tag], tag)
	case tag != wavPCM && tag != wavFloat:
		return Info{}, fmt.Errorf("WAV of format tag 0x%04x: want PCM (1) or IEEE float (3)", tag)
	case s.channels < 1 || s.channels > maxChannels:
		return Info{}, fmt.Errorf("WAV of %d channels: want 1 to %d", s.channels, maxChannels)
	case s.rate < minRate || s.rate > maxRate:
		return Info{}, fmt.Errorf("WAV at %d Hz: want %d to %d Hz", s.rate, minRate, maxRate)
	case blockAlign != s.channels*s.bits/8:
		return Info{}, fmt.Errorf("WAV fmt chunk with a block of %d bytes: %d channels of %d bits make %d",
			blockAlign, s.channels, s.bits, s.channels*s.bits/8)
	}
	s.float = tag == wavFloat
	return s, nil
}

// clampWAVData writes the data chunk's size that s read back into b when
// the file holds less than the chunk declares: SDL allocates the declared
// size before it reads, so a 100-byte file could make it allocate 4 GiB.
// The samples SDL reads do not change.
func clampWAVData(b []byte, s Info) {
	if s.ogg || s.declared == s.dataLen {
		return
	}
	v := uint32(s.dataLen)
	b[s.dataSize], b[s.dataSize+1], b[s.dataSize+2], b[s.dataSize+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
}
