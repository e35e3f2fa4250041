package soundfile

import (
	"errors"
	"fmt"
	"math/bits"
)

// A Vorbis setup header (the third header packet) holds the codebooks,
// floors and residues the decoder builds its tables from. libvorbis 1.3.7
// sizes those tables by the header's numbers, which a few bytes can make
// large: a codebook of 2^23 entries of 20-bit codes takes 8 bytes to
// write, and vorbis_book_init_decode then allocates some 13 bytes an entry
// and puts 12 bytes an entry on the stack with alloca (a stack overflow
// past about 700000 entries on an 8 MiB stack); a codebook's values take
// 4 bytes per entry and dimension, up to 2^24 of them, for each of up to
// 256 codebooks; a residue's decode map grows with its partitions raised to
// its phrase book's dimension. vorbisSetup reads the header as libvorbis
// does, up to its residues, and adds up what building the decoder takes.

// Limits on a Vorbis setup header: the most entries used in one codebook
// (libvorbis's encoders use at most a few thousand), and the most memory
// its tables may take, for a sound or music alike. Real files take well
// under 1 MiB.
const (
	maxVorbisEntries    = 1 << 14
	maxVorbisSetupBytes = 16 << 20
)

// vorbisSetup is what building a decoder from a setup header takes.
type vorbisSetup struct {
	bytes      int64 // heap, in bytes
	maxEntries int   // the most entries used in one codebook: 12 bytes each on the stack
}

// errVorbisEnd is a setup header that ends before its residues.
var errVorbisEnd = errors.New("ends early")

// bitReader reads a Vorbis packet's bits, least significant first.
type bitReader struct {
	b   []byte
	pos int // in bits
}

// read reads n bits, 0 to 32.
func (r *bitReader) read(n int) (uint32, error) {
	if r.pos+n > 8*len(r.b) {
		return 0, errVorbisEnd
	}
	var v uint64 // the 5 bytes that hold n bits from any bit of the first
	for i, k := r.pos/8, 0; k < 5 && i+k < len(r.b); k++ {
		v |= uint64(r.b[i+k]) << (8 * k)
	}
	v >>= r.pos % 8
	r.pos += n
	return uint32(v & (1<<n - 1)), nil
}

// left is the whole bytes left to read, as libvorbis counts them.
func (r *bitReader) left() int64 { return int64(len(r.b) - (r.pos+7)/8) }

// ilog is Vorbis's ilog: the bits needed to write v (0 for 0).
func ilog(v uint32) int { return bits.Len32(v) }

// parseVorbisSetup reads a setup header's codebooks, time domain
// transforms, floors and residues, as libvorbis 1.3.7 checks them, and
// adds up the memory the decoder's tables take.
func parseVorbisSetup(p []byte) (vorbisSetup, error) {
	var s vorbisSetup
	if len(p) < 7 || string(p[:7]) != "\x05vorbis" {
		return s, fmt.Errorf("is not a Vorbis setup header")
	}
	r := &bitReader{b: p[7:]}
	n, err := r.read(8)
	if err != nil {
		return s, err
	}
	type book struct {
		entries, dim uint32
		mapped       bool
	}
	books := make([]book, n+1)
	for i := range books {
		bk, err := parseVorbisBook(r, &s)
		if err != nil {
			return s, fmt.Errorf("codebook %d %w", i, err)
		}
		books[i] = bk
	}
	count := func(bits int) (int, error) {
		v, err := r.read(bits)
		return int(v) + 1, err
	}
	bookOK := func(i uint32, err error) error {
		if err == nil && int(i) >= len(books) {
			return fmt.Errorf("names codebook %d of %d", i, len(books))
		}
		return err
	}
	times, err := count(6)
	for range times {
		if err == nil {
			var v uint32
			if v, err = r.read(16); err == nil && v != 0 {
				err = fmt.Errorf("has a time domain transform of type %d", v)
			}
		}
	}
	if err != nil {
		return s, fmt.Errorf("time domain transforms %w", err)
	}
	floors, err := count(6)
	for i := 0; i < floors && err == nil; i++ {
		if err = parseVorbisFloor(r, bookOK); err != nil {
			err = fmt.Errorf("floor %d %w", i, err)
		}
	}
	if err != nil {
		return s, err
	}
	residues, err := count(6)
	if err != nil {
		return s, fmt.Errorf("residues %w", err)
	}
	for i := range residues {
		// Type, begin, end, grouping, then the partitions and their
		// phrase book, whose dimension the decode map is raised to.
		var head [5]uint32
		for j, n := range []int{16, 24, 24, 24, 6} {
			if head[j], err = r.read(n); err != nil {
				return s, fmt.Errorf("residue %d %w", i, err)
			}
		}
		partitions := head[4] + 1
		group, err := r.read(8)
		if err = bookOK(group, err); err != nil {
			return s, fmt.Errorf("residue %d %w", i, err)
		}
		if head[0] > 2 {
			return s, fmt.Errorf("residue %d of type %d", i, head[0])
		}
		stages := 0
		for range partitions {
			c, err := r.read(3)
			if err != nil {
				return s, fmt.Errorf("residue %d %w", i, err)
			}
			if flag, err := r.read(1); err != nil {
				return s, fmt.Errorf("residue %d %w", i, err)
			} else if flag == 1 {
				high, err := r.read(5)
				if err != nil {
					return s, fmt.Errorf("residue %d %w", i, err)
				}
				c |= high << 3
			}
			stages += bits.OnesCount32(c)
		}
		for range stages {
			b, err := r.read(8)
			if err = bookOK(b, err); err != nil {
				return s, fmt.Errorf("residue %d %w", i, err)
			}
			if !books[b].mapped {
				return s, fmt.Errorf("residue %d names codebook %d, which has no values", i, b)
			}
		}
		g := books[group]
		vals := int64(1)
		for range g.dim {
			vals *= int64(partitions)
			if vals > int64(g.entries) {
				return s, fmt.Errorf("residue %d of %d partitions is over its phrase book of %d entries", i, partitions, g.entries)
			}
		}
		if g.dim < 1 {
			return s, fmt.Errorf("residue %d has a phrase book of dimension 0", i)
		}
		s.bytes += vals*(8+32+4*int64(g.dim)) + 64*int64(partitions) + 4096
	}
	return s, nil
}

// parseVorbisBook reads a codebook as vorbis_staticbook_unpack does and
// adds to s what it and its decoding tables take.
func parseVorbisBook(r *bitReader, s *vorbisSetup) (book struct {
	entries, dim uint32
	mapped       bool
}, err error) {
	var sync uint32
	if sync, err = r.read(24); err != nil {
		return book, err
	} else if sync != 0x564342 {
		return book, fmt.Errorf("does not begin with BCV")
	}
	dim, err := r.read(16)
	if err != nil {
		return book, err
	}
	entries, err := r.read(24)
	if err != nil {
		return book, err
	}
	if ilog(dim)+ilog(entries) > 24 {
		return book, fmt.Errorf("of %d entries of dimension %d: too many values", entries, dim)
	}
	used := int64(0)
	ordered, err := r.read(1)
	if err != nil {
		return book, err
	}
	if ordered == 0 {
		sparse, err := r.read(1)
		if err != nil {
			return book, err
		}
		if (int64(entries)*int64(5-4*sparse)+7)>>3 > r.left() {
			return book, errVorbisEnd
		}
		for range entries {
			if sparse == 1 {
				flag, err := r.read(1)
				if err != nil {
					return book, err
				}
				if flag == 0 {
					continue
				}
			}
			if _, err := r.read(5); err != nil {
				return book, err
			}
			used++
		}
	} else {
		length, err := r.read(5)
		if err != nil {
			return book, err
		}
		length++
		for i := uint32(0); i < entries; length++ {
			num, err := r.read(ilog(entries - i))
			if err != nil {
				return book, err
			}
			if length > 32 || num > entries-i || num > 0 && (num-1)>>(length-1) > 1 {
				return book, fmt.Errorf("of lengths that make no code")
			}
			i += num
			used += int64(num)
		}
	}
	maptype, err := r.read(4)
	if err != nil {
		return book, err
	}
	quantvals := int64(0)
	switch maptype {
	case 0:
	case 1, 2:
		var q [4]uint32
		for j, n := range []int{32, 32, 4, 1} {
			if q[j], err = r.read(n); err != nil {
				return book, err
			}
		}
		quant := int64(q[2]) + 1
		if maptype == 1 {
			quantvals = lookup1Values(int64(entries), int64(dim))
		} else {
			quantvals = int64(entries) * int64(dim)
		}
		if (quantvals*quant+7)>>3 > r.left() {
			return book, errVorbisEnd
		}
		r.pos += int(quantvals * quant)
	default:
		return book, fmt.Errorf("of value mapping type %d", maptype)
	}
	book.entries, book.dim, book.mapped = entries, dim, maptype != 0
	// The static book (lengths, quantized values as longs), then the
	// decoder's: codewords (and their sorting copy), values, index,
	// lengths, first-lookup table.
	s.bytes += int64(entries) + quantvals*8 + used*(4+4+4+1) + 1024
	if book.mapped {
		s.bytes += used * int64(dim) * 4
	}
	s.maxEntries = max(s.maxEntries, int(used))
	return book, nil
}

// lookup1Values is the greatest v with v^dim <= entries (Vorbis's
// lookup1_values), at least 1 as libvorbis makes it.
func lookup1Values(entries, dim int64) int64 {
	if dim == 0 || entries < 1 {
		return 0
	}
	lo, hi := int64(1), entries+1 // v^dim <= entries holds for lo, fails for hi
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		acc, over := int64(1), false
		for range dim {
			if acc > entries/mid {
				over = true
				break
			}
			acc *= mid
		}
		if over || acc > entries {
			hi = mid
		} else {
			lo = mid
		}
	}
	return lo
}

// parseVorbisFloor reads a floor of type 0 or 1 as libvorbis does.
func parseVorbisFloor(r *bitReader, bookOK func(uint32, error) error) error {
	kind, err := r.read(16)
	if err != nil {
		return err
	}
	switch kind {
	case 0:
		var f [6]uint32 // order, rate, bark map size, amplitude bits and offset, books
		for j, n := range []int{8, 16, 16, 6, 8, 4} {
			if f[j], err = r.read(n); err != nil {
				return err
			}
		}
		for range f[5] + 1 {
			if err := bookOK(r.read(8)); err != nil {
				return err
			}
		}
		return nil
	case 1:
		partitions, err := r.read(5)
		if err != nil {
			return err
		}
		classes := make([]uint32, partitions)
		maxClass := -1
		for j := range classes {
			if classes[j], err = r.read(4); err != nil {
				return err
			}
			maxClass = max(maxClass, int(classes[j]))
		}
		dims := make([]uint32, maxClass+1)
		for j := range dims {
			d, err := r.read(3)
			if err != nil {
				return err
			}
			dims[j] = d + 1
			subs, err := r.read(2)
			if err != nil {
				return err
			}
			if subs > 0 {
				if err := bookOK(r.read(8)); err != nil {
					return err
				}
			}
			for range 1 << subs {
				b, err := r.read(8)
				if err != nil {
					return err
				}
				if b > 0 {
					if err := bookOK(b-1, nil); err != nil {
						return err
					}
				}
			}
		}
		if _, err := r.read(2); err != nil {
			return err
		}
		rangeBits, err := r.read(4)
		if err != nil {
			return err
		}
		posts := 0
		for _, c := range classes {
			posts += int(dims[c])
			if posts > 63 {
				return fmt.Errorf("of more than 63 posts")
			}
			for range dims[c] {
				if _, err := r.read(int(rangeBits)); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return fmt.Errorf("of type %d", kind)
}

// checkSetup refuses a setup header that would crash or bloat the
// decoder.
func (s vorbisSetup) check() error {
	switch {
	case s.maxEntries > maxVorbisEntries:
		return fmt.Errorf("a codebook of %d entries, over the limit of %d (libvorbis puts 12 bytes an entry on the stack)",
			s.maxEntries, maxVorbisEntries)
	case s.bytes > maxVorbisSetupBytes:
		return fmt.Errorf("codebooks and residues that take %s to decode with, over the limit of %s",
			byteSize(s.bytes), byteSize(maxVorbisSetupBytes))
	}
	return nil
}
