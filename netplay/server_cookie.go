package netplay

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"hash"
	"net/netip"
	"time"
)

// cookieEpoch is how long a server keeps one cookie key: a cookie is
// valid in the epoch it was made in and the next, 30 to 60 s, long enough
// for a handshake over the worst link, too short to be worth hoarding.
const cookieEpoch = 30 * time.Second

// cookieJar makes and checks a server's cookies: HMAC-SHA-256, truncated
// to 64 bits, of an address, its port and a client's nonce, under a key
// from crypto/rand that changes every cookieEpoch (the current key and
// the one before are kept). It keeps no state per address, and makes a
// cookie without allocating.
type cookieJar struct {
	macs   [2]hash.Hash // by epoch parity
	keys   [2][32]byte  // their keys
	epochs [2]int64     // the epoch of each, -1 none
	msg    [22]byte
	sum    []byte
}

func newCookieJar() cookieJar {
	return cookieJar{epochs: [2]int64{-1, -1}, sum: make([]byte, 0, sha256.Size)}
}

// mac returns the cookie of a and nonce under the key of epoch e (made
// when e is new), or 0 when that key is gone.
func (j *cookieJar) mac(e int64, a netip.AddrPort, nonce uint32) uint64 {
	if e < 0 {
		return 0
	}
	k := e & 1
	if j.epochs[k] != e {
		if e <= j.epochs[k] || e < j.epochs[k^1] {
			return 0 // an older epoch's key, dropped
		}
		// crypto/rand never fails (it crashes the program first); a key
		// never reaches a game's state, and must differ on every run.
		rand.Read(j.keys[k][:]) //fixvet:ignore a cookie key, not simulation
		j.macs[k], j.epochs[k] = hmac.New(sha256.New, j.keys[k][:]), e
	}
	ip := a.Addr().As16()
	copy(j.msg[:16], ip[:])
	le.PutUint16(j.msg[16:], a.Port())
	le.PutUint32(j.msg[18:], nonce)
	h := j.macs[k]
	h.Reset()
	h.Write(j.msg[:])
	j.sum = h.Sum(j.sum[:0])
	if c := le.Uint64(j.sum); c != 0 {
		return c
	}
	return 1
}

// cookie returns the cookie a join of nonce from a gets at now.
func (j *cookieJar) cookie(now time.Duration, a netip.AddrPort, nonce uint32) uint64 {
	return j.mac(int64(now/cookieEpoch), a, nonce)
}

// valid reports whether c is a cookie made for a and nonce in this epoch
// or the one before.
func (j *cookieJar) valid(now time.Duration, a netip.AddrPort, nonce uint32, c uint64) bool {
	if c == 0 {
		return false
	}
	e := int64(now / cookieEpoch)
	var want [8]byte
	for _, x := range []int64{e, e - 1} {
		if x < 0 || j.epochs[x&1] != x {
			continue // that epoch's key was never made, or is gone
		}
		le.PutUint64(want[:], j.mac(x, a, nonce))
		var got [8]byte
		le.PutUint64(got[:], c)
		if hmac.Equal(want[:], got[:]) {
			return true
		}
	}
	return false
}
