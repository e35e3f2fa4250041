//go:build cgo

package gfx

import (
	"math"

	"github.com/go-gl/gl/v3.3-core/gl"
)

// A sprite's texture region (the rectangle of its atlas page it shows, in
// the page's texture coordinates) is not in its instance: the instance
// holds the region's index in a table the GPU reads (a texture buffer of
// RGBA32F texels, u0, v0, u1, v1), 4 bytes instead of 16. Regions are
// few (a texture, a sprite-sheet frame, a glyph: the same ones frame after
// frame), so the table is written once for each and then read by every
// sprite that shows it.
//
// The table is a stream (see stream) whose elements stay valid across
// batches and frames until the stream leaves its part: a direct-mapped
// cache from a region's rectangle to its index finds them, and is emptied
// (a new stamp) whenever the stream moves on, after the batch that refers
// to the part's regions is drawn. So a region costs the CPU a comparison
// with the last sprite's (a run of one texture) or a hash and a
// comparison (textures in turn), and 16 bytes once.

// region is one entry of the table: u0, v0, u1, v1.
type region [4]float32

const (
	// minRegions and maxRegions bound the region stream's part: 4 Ki
	// regions in all at most, 1 MiB, what every GL 3.3 driver takes in a
	// texture buffer (GL_MAX_TEXTURE_BUFFER_SIZE is at least 64 Ki
	// texels).
	minRegions = 256
	maxRegions = 1 << 14
	// regionCacheBits is the log2 of the cache's entries: 1,024, room
	// for a game's textures, frames and glyphs of a frame without many
	// collisions (a collision writes the region again: harmless).
	regionCacheBits = 10
	// snapBit marks an instance whose texture is Nearest: on a linear
	// page the shader samples it at texel centers. The region index is
	// the word's other 31 bits.
	snapBit = 1 << 31
)

// regionEntry is a cached region: its rectangle, its index in the table,
// and the stamp it is valid under.
type regionEntry struct {
	rect  region
	index uint32
	stamp uint64
}

// regionCache maps rectangles to their indices in the table.
type regionCache struct {
	stamp   uint64 // the current stamp: entries of another are stale
	last    region // the last rectangle looked up, and its index
	lastIdx uint32
	lastOK  bool // last is valid under stamp
	entries [1 << regionCacheBits]regionEntry
}

// clear makes every entry stale.
func (c *regionCache) clear() {
	c.stamp++
	c.lastOK = false
}

// hashRegion spreads a rectangle's bits over the cache's entries.
func hashRegion(u0, v0, u1, v1 float32) uint32 {
	h := math.Float32bits(u0)*0x9e3779b1 + math.Float32bits(v0)
	h = h*0x85ebca77 + math.Float32bits(u1)
	h = h*0xc2b2ae3d + math.Float32bits(v1)
	h *= 0x27d4eb2f
	return h >> (32 - regionCacheBits)
}

// region returns the index in the table of the rectangle from (u0, v0) to
// (u1, v1), adding it when the cache does not hold it. Draw has its first
// comparison, with the last rectangle, inline. (Four floats, not a
// region: an array built in memory and read back whole stalls the CPU's
// store forwarding, a fifth of Draw's time.)
func (r *Renderer) region(u0, v0, u1, v1 float32) uint32 {
	c := &r.regionCache
	if c.lastOK && u0 == c.last[0] && v0 == c.last[1] && u1 == c.last[2] && v1 == c.last[3] {
		return c.lastIdx
	}
	return r.regionSlow(u0, v0, u1, v1)
}

// regionSlow is region past its comparison with the last rectangle.
func (r *Renderer) regionSlow(u0, v0, u1, v1 float32) uint32 {
	c := &r.regionCache
	e := &c.entries[hashRegion(u0, v0, u1, v1)]
	if e.stamp != c.stamp || e.rect[0] != u0 || e.rect[1] != v0 || e.rect[2] != u1 || e.rect[3] != v1 {
		rect := region{u0, v0, u1, v1}
		i := r.addRegion(rect) // may clear the cache: stamp after
		*e = regionEntry{rect: rect, index: i, stamp: c.stamp}
	}
	c.last[0], c.last[1], c.last[2], c.last[3] = u0, v0, u1, v1
	c.lastIdx, c.lastOK = e.index, true
	return e.index
}

// addRegion writes rect into the table and returns its index. When the
// table's part is full, the sprites queued (which refer to its regions)
// are drawn first, and the cache is cleared as the stream moves on.
func (r *Renderer) addRegion(rect region) uint32 {
	g := &r.regions
	if g.n == len(g.win) {
		if g.left() == 0 {
			r.flushSprites()
		}
		if g.win != nil {
			g.commit()
		}
		if g.open(1) {
			r.regionCache.clear()
		}
	}
	i := g.head + g.n
	g.win[g.n] = rect
	g.n++
	return uint32(i)
}

// bindRegions commits the regions written since the last draw, points
// the region texture at the table's buffer (a new one after the stream
// grew or shrank) and binds it to texture unit 1, for a sprite draw.
func (r *Renderer) bindRegions() {
	if r.regions.win != nil {
		r.regions.commit()
	}
	gl.ActiveTexture(gl.TEXTURE1)
	gl.BindTexture(gl.TEXTURE_BUFFER, r.regionTex)
	if r.regionTexGen != r.regions.gen {
		r.regionTexGen = r.regions.gen
		gl.TexBuffer(gl.TEXTURE_BUFFER, gl.RGBA32F, r.regions.buf.id)
	}
	gl.ActiveTexture(gl.TEXTURE0)
}
