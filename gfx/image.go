//go:build cgo

package gfx

import (
	"bufio"
	"errors"
	"fmt"
	"image"
	_ "image/jpeg" // JPEG files for LoadTexture
	_ "image/png"  // PNG files for LoadTexture
	"io"
	"io/fs"

	"github.com/fixstep/fixstep/gfx/imagefile"
)

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

// decodeImage decodes path in fsys after checking from its header that it
// is at most maxSide pixels on each side and costs at most maxBytes.
func decodeImage(fsys fs.FS, path string, maxSide int, maxBytes int64) (image.Image, error) {
	file, err := fsys.Open(path)
	if err != nil {
		return nil, fmt.Errorf("gfx: load %s: %w", path, err)
	}
	defer func() { file.Close() }()
	br := bufio.NewReader(file)
	head, _ := br.Peek(imagefile.HeaderSize)
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
	cost, what := imagefile.Cost(cfg, format, head, file)
	if cost > maxBytes {
		size := "size unknown"
		if st, err := file.Stat(); err == nil {
			size = fmt.Sprintf("%d bytes", st.Size())
		}
		return nil, fmt.Errorf("gfx: load %s (%s): %s image %dx%d, %s: decoding and uploading it costs %s, over the limit of %s (Renderer.SetMaxImageBytes)",
			path, size, format, cfg.Width, cfg.Height, what, mib(cost), mib(maxBytes))
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
