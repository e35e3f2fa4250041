package imagefile_test

import (
	"bytes"
	"fmt"
	"image"
	"image/png"

	"github.com/fixstep/fixstep/gfx/imagefile"
)

// Work out what loading a PNG costs from its header, before decoding it.
func ExampleCost() {
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewNRGBA(image.Rect(0, 0, 640, 480))); err != nil {
		fmt.Println(err)
		return
	}
	b := buf.Bytes()
	cfg, format, err := image.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		fmt.Println(err)
		return
	}
	cost, what := imagefile.Cost(cfg, format, b[:imagefile.HeaderSize], bytes.NewReader(b))
	fmt.Printf("%s %dx%d, %s: %d bytes\n", format, cfg.Width, cfg.Height, what, cost)
	// Output:
	// png 640x480, 8-bit RGBA: 2462722 bytes
}
