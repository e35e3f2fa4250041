package imagefile

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"io"
)

// HeaderSize is how many bytes of a PNG file hold its signature and IHDR
// chunk, which the decoder requires first: what Cost wants in head.
const HeaderSize = 33

// Cost works out what loading an image of format ("png", "jpeg" or
// another registered with package image) and cfg (image.DecodeConfig's)
// costs, in bytes, before any pixel is decoded: what Go's decoder
// allocates for it, plus the 4 bytes a pixel of its RGBA8 texture (see the
// package doc). head holds the file's first HeaderSize bytes (or fewer);
// a JPEG's frame header is read from r, the file from its start. what is
// the decoded form the cost was worked out for, in words for an error
// ("8-bit RGBA, interlaced", "progressive, 3 components").
func Cost(cfg image.Config, format string, head []byte, r io.Reader) (bytes int64, what string) {
	c := imageCost(cfg, format, head, r)
	return c.bytes, c.what
}

// cost is what loading an image takes, in bytes, and the decoded form it
// was worked out for, in words for errors.
type cost struct {
	bytes int64
	what  string
}

// imageCost works out what loading an image of format and cfg costs, as
// DefaultMaxImageBytes says: head holds the file's first HeaderSize bytes
// (or fewer), and a JPEG's frame header is read from r, the file from its
// start.
func imageCost(cfg image.Config, format string, head []byte, r io.Reader) cost {
	switch format {
	case "png":
		return pngCost(head, cfg)
	case "jpeg":
		return jpegCost(r, cfg)
	}
	return modelCost(cfg)
}

// rgbaBytes is the size of a w×h RGBA8 texture.
func rgbaBytes(cfg image.Config) int64 { return 4 * int64(cfg.Width) * int64(cfg.Height) }

// pngCost works out a PNG's cost from its IHDR chunk (head, the file's
// first HeaderSize bytes).
func pngCost(head []byte, cfg image.Config) cost {
	w, h := int64(cfg.Width), int64(cfg.Height)
	if len(head) < HeaderSize {
		return cost{8*w*h*2 + rgbaBytes(cfg), "of unknown depth"}
	}
	depth, colorType, interlaced := int64(head[24]), head[25], head[28] == 1
	channels, name := int64(4), "RGBA"
	switch colorType {
	case 0:
		channels, name = 1, "gray"
	case 2:
		channels, name = 3, "RGB"
	case 3:
		channels, name = 1, "paletted"
	case 4:
		channels, name = 2, "gray and alpha"
	}
	px := int64(4) // Gray, RGBA or NRGBA: NRGBA when a tRNS chunk, not in the header, says so
	switch {
	case colorType == 3:
		px = 1
	case depth == 16:
		px = 8
	}
	bytes := px * w * h
	what := fmt.Sprintf("%d-bit %s", depth, name)
	if interlaced {
		bytes *= 2
		what += ", interlaced"
	}
	rows := 2 * (1 + (channels*depth*w+7)/8) // the decoder's current and previous row
	return cost{bytes + rows + rgbaBytes(cfg), what}
}

// jpegFrame is what a JPEG's start-of-frame segment says.
type jpegFrame struct {
	progressive bool
	width       int
	height      int
	hv          [][2]int // each component's sampling factors
}

// jpegCost works out a JPEG's cost from its frame header, read from r (the
// file from its start). If the header cannot be found as the decoder
// would find it, it assumes the worst the decoder allows for the file's
// component count: progressive, no subsampling, blocks of 32×16 pixels.
func jpegCost(r io.Reader, cfg image.Config) cost {
	w, h := int64(cfg.Width), int64(cfg.Height)
	n := int64(3)
	switch cfg.ColorModel {
	case color.GrayModel:
		n = 1
	case color.CMYKModel:
		n = 4
	}
	f, ok := readJPEGFrame(r)
	if !ok || f.width != cfg.Width || f.height != cfg.Height || int64(len(f.hv)) != n {
		samples := n * (w + 31) * (h + 15)
		bytes := 5 * samples
		if n >= 3 {
			bytes += 4 * w * h
		}
		return cost{bytes + rgbaBytes(cfg), components(n) + ", frame not found: assumed progressive"}
	}
	h0, v0 := int64(f.hv[0][0]), int64(f.hv[0][1])
	mxx := (w + 8*h0 - 1) / (8 * h0) // blocks of whole MCUs, as the decoder allocates
	myy := (h + 8*v0 - 1) / (8 * v0)
	var samples int64
	for _, c := range f.hv {
		samples += 64 * mxx * myy * int64(c[0]) * int64(c[1])
	}
	bytes := samples
	what := "baseline, " + components(n)
	if f.progressive {
		bytes += 4 * samples
		what = "progressive, " + components(n)
	}
	if n >= 3 { // an RGB or CMYK file is converted to RGBA or CMYK: count it
		bytes += 4 * w * h
	}
	return cost{bytes + rgbaBytes(cfg), what}
}

func components(n int64) string {
	if n == 1 {
		return "1 component"
	}
	return fmt.Sprintf("%d components", n)
}

// readJPEGFrame walks a JPEG's segments as image/jpeg does, to its first
// start-of-frame segment (baseline, extended or progressive), and returns
// what it says. The sampling factors are checked against the ranges the
// decoder accepts; ok is false for anything else.
func readJPEGFrame(r io.Reader) (f jpegFrame, ok bool) {
	br := bufio.NewReader(r)
	var b [2]byte
	if _, err := io.ReadFull(br, b[:]); err != nil || b != [2]byte{0xff, 0xd8} {
		return f, false
	}
	for {
		if _, err := io.ReadFull(br, b[:]); err != nil {
			return f, false
		}
		for b[0] != 0xff { // extraneous data, skipped as the decoder does
			c, err := br.ReadByte()
			if err != nil {
				return f, false
			}
			b[0], b[1] = b[1], c
		}
		marker := b[1]
		if marker == 0 {
			continue
		}
		for marker == 0xff {
			c, err := br.ReadByte()
			if err != nil {
				return f, false
			}
			marker = c
		}
		if marker == 0xd9 || marker == 0xda { // EOI, or SOS before a frame
			return f, false
		}
		if 0xd0 <= marker && marker <= 0xd7 { // RST: no length
			continue
		}
		if _, err := io.ReadFull(br, b[:]); err != nil {
			return f, false
		}
		n := int(binary.BigEndian.Uint16(b[:])) - 2
		if n < 0 {
			return f, false
		}
		if marker < 0xc0 || marker > 0xc2 {
			if _, err := br.Discard(n); err != nil {
				return f, false
			}
			continue
		}
		seg := make([]byte, n)
		if _, err := io.ReadFull(br, seg); err != nil || n < 6 {
			return f, false
		}
		comps := int(seg[5])
		if comps != 1 && comps != 3 && comps != 4 || n != 6+3*comps {
			return f, false
		}
		f.progressive = marker == 0xc2
		f.height = int(binary.BigEndian.Uint16(seg[1:]))
		f.width = int(binary.BigEndian.Uint16(seg[3:]))
		for i := range comps {
			hv := seg[7+3*i]
			h, v := int(hv>>4), int(hv&15)
			if comps == 1 {
				h, v = 1, 1 // the decoder ignores a gray image's factors
			}
			if h < 1 || h > 4 || v < 1 || v > 4 {
				return f, false
			}
			f.hv = append(f.hv, [2]int{h, v})
		}
		return f, true
	}
}

// modelCost is the cost of an image of a format that another package
// registered: its pixel model's size, unknown models at 8 bytes a pixel.
func modelCost(cfg image.Config) cost {
	px := int64(8)
	switch cfg.ColorModel {
	case color.GrayModel, color.AlphaModel:
		px = 1
	case color.Gray16Model, color.Alpha16Model:
		px = 2
	case color.YCbCrModel:
		px = 3
	case color.RGBAModel, color.NRGBAModel, color.CMYKModel:
		px = 4
	}
	if _, ok := cfg.ColorModel.(color.Palette); ok {
		px = 1
	}
	return cost{px*int64(cfg.Width)*int64(cfg.Height) + rgbaBytes(cfg), fmt.Sprintf("%d bytes a pixel decoded", px)}
}
