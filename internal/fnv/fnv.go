// Package fnv is FNV-1a, 64 bits, written once for the whole engine: the
// state hash (engine.StateHash), a physics world's hash, the determinism
// check's golden series, the hash of a game's Params in a handshake, a
// recording's running hash of its inputs. A hash is a uint64 that each
// function continues from, starting at Offset, so a hash of several parts
// needs no buffer, and nothing allocates (hash/fnv's New64a returns an
// interface).
package fnv

// Offset is FNV-1a's offset basis: the hash of nothing, where every hash
// starts.
const Offset uint64 = 14695981039346656037

// Prime is FNV's 64-bit prime, which each byte is multiplied by.
const Prime = 1099511628211

// Bytes continues hash h over b.
func Bytes(h uint64, b []byte) uint64 {
	for _, c := range b {
		h = (h ^ uint64(c)) * Prime
	}
	return h
}

// String continues hash h over s's bytes, without converting it.
func String(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * Prime
	}
	return h
}

// Uint64 continues hash h over v's 8 bytes, little-endian (low byte
// first), as if they were in a buffer.
func Uint64(h, v uint64) uint64 {
	for range 8 {
		h = (h ^ v&0xff) * Prime
		v >>= 8
	}
	return h
}
