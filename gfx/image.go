package gfx

import (
	"errors"
	"fmt"
	"image"
	_ "image/jpeg" // JPEG files for LoadTexture
	_ "image/png"  // PNG files for LoadTexture
	"io/fs"
)

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
// size in its header before decoding it, so an oversized file costs no
// memory. Errors name the file: missing, an unknown format, corrupt, or
// too large.
func (r *Renderer) LoadTexture(fsys fs.FS, path string, f Filter) (Texture, error) {
	img, err := decodeImage(fsys, path, r.atlas.maxTex)
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
// is at most maxSide pixels on each side.
func decodeImage(fsys fs.FS, path string, maxSide int) (image.Image, error) {
	file, err := fsys.Open(path)
	if err != nil {
		return nil, fmt.Errorf("gfx: load %s: %w", path, err)
	}
	cfg, format, err := image.DecodeConfig(file)
	file.Close()
	if err != nil {
		return nil, fmt.Errorf("gfx: load %s: %w", path, imageError(err))
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > maxSide || cfg.Height > maxSide {
		return nil, fmt.Errorf("gfx: load %s: %s image %dx%d: each side must be 1 to %d pixels (the driver's maximum texture size)",
			path, format, cfg.Width, cfg.Height, maxSide)
	}
	// fs.File need not seek: open it again for the pixels.
	if file, err = fsys.Open(path); err != nil {
		return nil, fmt.Errorf("gfx: load %s: %w", path, err)
	}
	defer file.Close()
	img, _, err := image.Decode(file)
	if err != nil {
		return nil, fmt.Errorf("gfx: load %s: %s: %w", path, format, imageError(err))
	}
	return img, nil
}

func imageError(err error) error {
	if errors.Is(err, image.ErrFormat) {
		return errors.New("not a PNG or JPEG image (unknown format)")
	}
	return err
}
