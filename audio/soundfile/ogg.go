package soundfile

import (
	"bytes"
	"fmt"
)

// oggStream is one logical Vorbis stream of an Ogg file (a chained file
// has one after the other), from its identification header on.
type oggStream struct {
	serial     uint32
	channels   int
	rate       int
	blocksize1 int   // the long block, in samples: a packet decodes to at most half of it per channel
	granule    int64 // the highest granule position of its pages: samples per channel, by its pages
	packets    int64
	at         int // where its first page is, in bytes

	// Its three header packets, read as libogg reassembles them: how many
	// are complete, whether one goes on to the next page, the page
	// sequence number expected, and the setup header's segments so far.
	headers int
	pending bool
	nextSeq uint32
	setup   [][]byte
	tables  int64 // what building the decoder from its setup header takes, in bytes
}

// headerPage reads a page of s's until its three header packets are
// complete, and its setup header when it is. It wants the pages in
// sequence and continued where a packet goes on (libogg would drop a
// packet cut by a gap and vorbisfile refuse the file, or skip what a
// page continues; a strict reader reads the same header libvorbis does).
func (s *oggStream) headerPage(page []byte, p int, flags byte, seq uint32, lacing []byte) error {
	if s.headers >= 3 {
		return nil
	}
	if seq != s.nextSeq {
		return fmt.Errorf("Ogg Vorbis headers with page %d at byte %d where page %d belongs", seq, p, s.nextSeq)
	}
	if continued := flags&1 != 0; continued != s.pending {
		return fmt.Errorf("Ogg Vorbis headers with a page at byte %d whose continuation flag is wrong", p)
	}
	s.nextSeq++
	off := 27 + len(lacing)
	for _, l := range lacing {
		if s.headers == 2 {
			s.setup = append(s.setup, page[off:off+int(l)])
		}
		off += int(l)
		s.pending = l == 255
		if l == 255 {
			continue
		}
		if s.headers++; s.headers == 3 {
			setup, err := parseVorbisSetup(bytes.Join(s.setup, nil))
			if err == nil {
				err = setup.check()
			}
			if err != nil {
				return fmt.Errorf("Vorbis setup header of the stream at byte %d: %w", s.at, err)
			}
			s.setup, s.tables = nil, setup.bytes
			return nil
		}
	}
	return nil
}

// parseOgg reads every page of an Ogg file, and the identification header
// of each logical stream, which must be Vorbis. The file must be pages and
// nothing else, each with its checksum right: libogg skips junk and pages
// whose checksum is wrong, looking for the next page wherever "OggS"
// appears, and a parser that did not do the same could count other packets
// than libvorbis decodes. Being strict, parseOgg sees the pages libogg sees.
//
// The duration is what the granule positions say: the last granule of a
// stream is its length in samples per channel. A file can misstate it,
// and libvorbis decodes each audio packet whatever the granule positions
// say (it trims only at the end of a stream), so maxSeconds bounds what the
// packets can decode to: a packet decodes to at most half a long block per
// channel.
func parseOgg(b []byte) (Info, error) {
	var streams []*oggStream
	var orphans int64 // packets on pages of no stream begun so far
	last := map[uint32]*oggStream{}
	for p := 0; p < len(b); {
		page, err := oggPage(b, p)
		if err != nil {
			return Info{}, err
		}
		flags := page[5]
		granule := int64(le64(page[6:]))
		serial := le32(page[14:])
		lacing := page[27 : 27+int(page[26])]
		if flags&0x02 != 0 { // the first page of a logical stream
			s, err := vorbisIdent(page, p)
			if err != nil {
				return Info{}, err
			}
			s.serial, s.at, s.nextSeq = serial, p, le32(page[18:])
			streams = append(streams, s)
			last[serial] = s
		} else if p == 0 {
			return Info{}, fmt.Errorf("Ogg file whose first page begins no stream")
		}
		var packets int64
		for _, l := range lacing {
			if l < 255 {
				packets++ // a lacing value under 255 ends a packet
			}
		}
		if s := last[serial]; s != nil {
			if err := s.headerPage(page, p, flags, le32(page[18:]), lacing); err != nil {
				return Info{}, err
			}
			s.packets += packets
			if granule > s.granule { // -1, no position, is never above
				s.granule = granule
			}
		} else {
			orphans += packets
		}
		p += len(page)
	}
	for _, s := range streams {
		if s.headers < 3 {
			return Info{}, fmt.Errorf("Ogg Vorbis stream at byte %d ends before its three header packets", s.at)
		}
	}
	info := Info{ogg: true, channels: streams[0].channels, rate: streams[0].rate}
	var secs, worst float64
	for _, s := range streams {
		secs += float64(s.granule) / float64(s.rate)
		perPacket := float64(s.blocksize1/2) / float64(s.rate)
		info.maxSeconds += float64(s.packets) * perPacket
		info.packets += s.packets
		info.tables += s.tables
		worst = max(worst, perPacket)
	}
	info.maxSeconds += float64(orphans) * worst
	info.packets += orphans
	info.duration = seconds(secs)
	return info, nil
}

// oggPage returns the page that begins at byte p of b, checked: capture
// pattern, version 0, header, segment table and body all in b, checksum.
func oggPage(b []byte, p int) ([]byte, error) {
	rest := b[p:]
	switch {
	case !bytes.HasPrefix(rest, []byte("OggS")):
		return nil, fmt.Errorf("Ogg file with no page at byte %d (it reads %s)", p, quoteStart(rest))
	case len(rest) < 27:
		return nil, fmt.Errorf("Ogg file truncated in the page header at byte %d", p)
	case rest[4] != 0:
		return nil, fmt.Errorf("Ogg page of version %d at byte %d, want 0", rest[4], p)
	}
	head := 27 + int(rest[26])
	if len(rest) < head {
		return nil, fmt.Errorf("Ogg file truncated in the segment table of the page at byte %d", p)
	}
	size := head
	for _, l := range rest[27:head] {
		size += int(l)
	}
	if len(rest) < size {
		return nil, fmt.Errorf("Ogg file truncated in the page at byte %d (%d of its %d bytes)", p, len(rest), size)
	}
	page := rest[:size]
	if sum, stored := oggCRC(page), le32(page[22:]); sum != stored {
		return nil, fmt.Errorf("Ogg page at byte %d with a wrong checksum (%08x, its bytes make %08x)", p, stored, sum)
	}
	return page, nil
}

// vorbisIdent reads the identification header that is the first packet of
// a stream's first page (at byte p of the file), as libvorbis checks it. The
// first page of the file must hold it alone, 30 bytes in one segment: that
// is what the specification asks, and what SDL_mixer looks at (byte 28) to
// tell Vorbis from Opus.
func vorbisIdent(page []byte, p int) (*oggStream, error) {
	lacing := page[27 : 27+int(page[26])]
	size, end := 0, false
	for _, l := range lacing {
		size += int(l)
		if l < 255 {
			end = true
			break
		}
	}
	h := page[27+len(lacing) : 27+len(lacing)+size]
	switch {
	case !bytes.HasPrefix(h, []byte("\x01vorbis")):
		return nil, fmt.Errorf("%s at byte %d: want Ogg Vorbis", oggCodec(h), p)
	case p == 0 && (len(lacing) != 1 || lacing[0] != 30):
		return nil, fmt.Errorf("Ogg file whose first page is not one 30-byte identification header")
	case !end:
		return nil, fmt.Errorf("Ogg stream at byte %d whose first packet does not end on its first page", p)
	}
	if len(h) < 30 {
		return nil, fmt.Errorf("Vorbis identification header at byte %d of %d bytes, want 30", p, len(h))
	}
	s := &oggStream{channels: int(h[11]), rate: int(le32(h[12:]))}
	short, long := int(h[28]&15), int(h[28]>>4)
	switch {
	case le32(h[7:]) != 0:
		return nil, fmt.Errorf("Vorbis stream at byte %d of version %d, want 0", p, le32(h[7:]))
	case s.channels < 1 || s.channels > maxChannels:
		return nil, fmt.Errorf("Ogg Vorbis stream at byte %d of %d channels: want 1 to %d", p, s.channels, maxChannels)
	case s.rate < minRate || s.rate > maxRate:
		return nil, fmt.Errorf("Ogg Vorbis stream at byte %d at %d Hz: want %d to %d Hz", p, s.rate, minRate, maxRate)
	case short < 6 || long < short || long > 13 || h[29]&1 == 0:
		return nil, fmt.Errorf("Vorbis identification header at byte %d with blocks of 2^%d and 2^%d samples, or no framing bit", p, short, long)
	}
	s.blocksize1 = 1 << long
	return s, nil
}

// oggCodec names the codec of a stream by its first packet.
func oggCodec(h []byte) string {
	switch {
	case bytes.HasPrefix(h, []byte("OpusHead")):
		return "an Ogg Opus stream"
	case bytes.HasPrefix(h, []byte("\x7fFLAC")):
		return "an Ogg FLAC stream"
	case bytes.HasPrefix(h, []byte("Speex   ")):
		return "an Ogg Speex stream"
	case bytes.HasPrefix(h, []byte("\x80theora")):
		return "an Ogg Theora (video) stream"
	}
	return fmt.Sprintf("an Ogg stream of an unknown codec (its first packet begins %s)", quoteStart(h))
}

// oggCRCTable is the table of Ogg's CRC-32: polynomial 0x04c11db7, most
// significant bit first, no reflection, initial value 0 (hash/crc32 has
// only the reflected kind).
var oggCRCTable = func() (t [256]uint32) {
	for i := range t {
		r := uint32(i) << 24
		for range 8 {
			if r&0x80000000 != 0 {
				r = r<<1 ^ 0x04c11db7
			} else {
				r <<= 1
			}
		}
		t[i] = r
	}
	return t
}()

// oggCRC is the checksum of an Ogg page, computed with its checksum field
// (bytes 22 to 25) as zero.
func oggCRC(page []byte) uint32 {
	var c uint32
	for i, v := range page {
		if i >= 22 && i < 26 {
			v = 0
		}
		c = c<<8 ^ oggCRCTable[byte(c>>24)^v]
	}
	return c
}
