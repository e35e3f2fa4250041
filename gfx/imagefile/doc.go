// Package imagefile works out, from an image file's header, what decoding
// it will cost before any pixel is decoded: what gfx.Renderer.LoadTexture
// checks against its limit, so that a small file that says it is huge (an
// image bomb) costs no memory. It is pure Go (no cgo, no GL), so the
// check builds, tests and fuzzes anywhere.
//
// The cost, in bytes, is what Go's decoder allocates for the image, plus
// the 4 bytes a pixel of its RGBA8 texture:
//
//   - PNG: 4 bytes a pixel (8-bit gray, gray with alpha, RGB and RGBA all
//     may decode to NRGBA), 8 for 16-bit images (RGBA64 or NRGBA64), 1
//     for paletted ones; twice that for an interlaced file, whose passes
//     are decoded apart and then merged.
//   - JPEG: its YCbCr (or gray, or CMYK) planes as coded, in whole
//     blocks; 4 bytes a sample more for a progressive file, whose
//     coefficients (int32) are all held until the last scan; and a 4-byte
//     RGBA or CMYK copy for a 3- or 4-component file, which Go makes for
//     RGB and CMYK files. A JPEG whose frame header cannot be found as the
//     decoder finds it is counted at the worst the decoder allows.
//   - Another format a program registers with package image: its pixel
//     model's size only.
//
// The decoder's two rows of a PNG are counted too; its fixed buffers
// (zlib's window, Huffman tables, under 100 KiB) are not. A fuzz test
// decodes mutated files and checks that the decoder never allocates more
// than Cost counted.
package imagefile
