package gfx

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/color"
	_ "image/jpeg" // JPEG files for LoadTexture
	_ "image/png"  // PNG files for LoadTexture
	"io"
	"io/fs"
)

// DefaultMaxImageBytes is the most memory LoadTexture lets one image file
// cost when the renderer's limit is not set (SetMaxImageBytes): 512 MiB.
// An image's cost is what Go's decoder allocates for it, worked out from
// the file's header before any pixel is decoded, plus the 4 bytes a pixel
// of its RGBA8 texture:
//
//   - PNG: 4 bytes a pixel (8-bit gray, gray with alpha, RGB and RGBA all
//     may decode to NRGBA), 8 for 16-bit images (RGBA64 or NRGBA64), 1
//     for paletted ones; twice that for an interlaced file, whose passes
//     are decoded apart and then merged.
//   - JPEG: its YCbCr (or gray, or CMYK) planes as coded, in whole
//     blocks; 4 bytes a sample more for a progressive file, whose
//     coefficients (int32) are all held until the last scan; and a 4-byte
//     RGBA or CMYK copy for a 3- or 4-component file, which Go makes for
//     RGB and CMYK files.
//   - Another format a program registers with package image: its pixel
//     model's size only.
//
// The decoder's two rows of a PNG are counted too; its fixed buffers
// (zlib's window, Huffman tables, under 100 KiB) are not.
//
// 512 MiB admits any PNG or JPEG of 4096×4096 (the costliest, a
// progressive CMYK JPEG, about 450 MiB), an 8-bit RGBA PNG of up to
// 8192×8190 and a progressive 4:2:0 JPEG of up to about 5800×5800, and
// keeps a process that loads one image under 1 GB at its peak. A
// 16384×16384 file of any kind needs a larger limit.
const DefaultMaxImageBytes = 512 << 20

// SetMaxImageBytes sets the most memory LoadTexture may spend on one image
// file, as DefaultMaxImageBytes counts it; a file that would cost more is
// refused before it is decoded. n <= 0 restores DefaultMaxImageBytes.
// TextureFromImage is not limited: its image is decoded already. Call it on
// the thread that owns the context.
func (r *Renderer) SetMaxImageBytes(n int64) {
	r.atlas.maxImageBytes = max(n, 0)
}

// MaxImageBytes returns the limit in force for LoadTexture, in bytes:
// DefaultMaxImageBytes unless SetMaxImageBytes changed it.
func (r *Renderer) MaxImageBytes() int64 {
	if n := r.atlas.maxImageBytes; n > 0 {
		return n
	}
	return DefaultMaxImageBytes
}

// TextureFromImage packs img into the renderer's atlas and returns it as a
// Texture drawn with filter f. Any image.Image works; its colors are
// premultiplied on the way (image.RGBA is premultiplied already, NRGBA and
// paletted images are converted), a strip of rows at a time, so a large
// image costs no full-size copy; its top-left pixel is the texture's top
// left, as in image files. An image up to 2046 pixels a side shares an
// atlas page; a larger one gets a page of its own, up to the driver's
// maximum texture size; larger is an error. A refused image leaves no
// page, GL object or buffer behind. Call it on the thread that owns the
// context; it allocates (load time, not frame time).
func (r *Renderer) TextureFromImage(img image.Image, f Filter) (Texture, error) {
	return r.atlas.add(img, f)
}

// LoadTexture reads the PNG or JPEG image at path in fsys (os.DirFS or an
// embed.FS) and packs it as TextureFromImage does. It checks the image's
// size in its header before decoding it: a side larger than the driver's
// maximum texture size, or a cost over MaxImageBytes, is refused before
// any pixel is decoded, so an image bomb (a small file that says it is
// huge) costs no memory. Errors name the file: missing, an unknown format,
// corrupt, or too large (with its size, its cost and the limit).
func (r *Renderer) LoadTexture(fsys fs.FS, path string, f Filter) (Texture, error) {
	img, err := decodeImage(fsys, path, r.atlas.maxTex, r.MaxImageBytes())
	if err != nil {
		return Texture{}, err
	}
	t, err := r.TextureFromImage(img, f)
	if err != nil {
		return Texture{}, fmt.Errorf("gfx: load %s: %w", path, err)
	}
	return t, nil
}

// pngHeader is how many bytes of a PNG file hold its signature and IHDR
// chunk, which the decoder requires first.
const pngHeader = 33

// decodeImage decodes path in fsys after checking from its header that it
// is at most maxSide pixels on each side and costs at most maxBytes.
func decodeImage(fsys fs.FS, path string, maxSide int, maxBytes int64) (image.Image, error) {
	file, err := fsys.Open(path)
	if err != nil {
		return nil, fmt.Errorf("gfx: load %s: %w", path, err)
	}
	defer func() { file.Close() }()
	br := bufio.NewReader(file)
	head, _ := br.Peek(pngHeader)
	head = append([]byte(nil), head...) // Peek's bytes last until the next read
	cfg, format, err := image.DecodeConfig(br)
	if err != nil {
		return nil, fmt.Errorf("gfx: load %s: %w", path, imageError(err))
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > maxSide || cfg.Height > maxSide {
		return nil, fmt.Errorf("gfx: load %s: %s image %dx%d: each side must be 1 to %d pixels (the driver's maximum texture size)",
			path, format, cfg.Width, cfg.Height, maxSide)
	}
	if format == "jpeg" { // its frame header is read from the start again
		if file, err = rewind(file, fsys, path); err != nil {
			return nil, fmt.Errorf("gfx: load %s: %w", path, err)
		}
	}
	c := imageCost(cfg, format, head, file)
	if c.bytes > maxBytes {
		size := "size unknown"
		if st, err := file.Stat(); err == nil {
			size = fmt.Sprintf("%d bytes", st.Size())
		}
		return nil, fmt.Errorf("gfx: load %s (%s): %s image %dx%d, %s: decoding and uploading it costs %s, over the limit of %s (Renderer.SetMaxImageBytes)",
			path, size, format, cfg.Width, cfg.Height, c.what, mib(c.bytes), mib(maxBytes))
	}
	if file, err = rewind(file, fsys, path); err != nil {
		return nil, fmt.Errorf("gfx: load %s: %w", path, err)
	}
	img, _, err := image.Decode(bufio.NewReader(file))
	if err != nil {
		return nil, fmt.Errorf("gfx: load %s: %s: %w", path, format, imageError(err))
	}
	return img, nil
}

// rewind returns file read again from its start: sought back when it can
// seek (os and embed files can), else closed and opened again.
func rewind(file fs.File, fsys fs.FS, path string) (fs.File, error) {
	if s, ok := file.(io.Seeker); ok {
		if _, err := s.Seek(0, io.SeekStart); err == nil {
			return file, nil
		}
	}
	file.Close()
	return fsys.Open(path)
}

func imageError(err error) error {
	if errors.Is(err, image.ErrFormat) {
		return errors.New("not a PNG or JPEG image (unknown format)")
	}
	return err
}

// mib formats n bytes in MiB or GiB.
func mib(n int64) string {
	if n >= 1<<30 {
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}

// cost is what loading an image takes, in bytes, and the decoded form it
// was worked out for, in words for errors.
type cost struct {
	bytes int64
	what  string
}

// imageCost works out what loading an image of format and cfg costs, as
// DefaultMaxImageBytes says: head holds the file's first pngHeader bytes
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
// first pngHeader bytes).
func pngCost(head []byte, cfg image.Config) cost {
	w, h := int64(cfg.Width), int64(cfg.Height)
	if len(head) < pngHeader {
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
