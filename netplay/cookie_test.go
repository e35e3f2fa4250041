package netplay

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"net/netip"
	"testing"
	"time"

	"github.com/fixstep/fixstep/internal/fnv"
)

// fnvPrime is FNV-1a's 64-bit prime.
const fnvPrime = fnv.Prime

// oldCookie is the join cookie before version 5: FNV-1a seeded with the
// key, then a linear fold to 32 bits. Kept here to show how it broke.
func oldCookie(key uint64, a netip.AddrPort, nonce uint32) uint32 {
	h := key
	for _, c := range oldCookieBytes(a, nonce) {
		h = (h ^ uint64(c)) * fnvPrime
	}
	return oldFold(h)
}

func oldCookieBytes(a netip.AddrPort, nonce uint32) []byte {
	ip := a.Addr().As16()
	return append(ip[:], byte(a.Port()), byte(a.Port()>>8), byte(nonce), byte(nonce>>8), byte(nonce>>16), byte(nonce>>24))
}

func oldFold(h uint64) uint32 {
	h ^= h >> 29
	return uint32(h ^ h>>32)
}

// unfold returns every h whose fold is c and whose low 32 bits are lo:
// the fold is linear, c = lo ^ lo>>29 ^ x ^ x<<3 ^ x>>29 with x the high
// half, solved bit by bit for each guess of x's top 3 bits.
func unfold(c, lo uint32) []uint64 {
	var out []uint64
	r := c ^ lo ^ lo>>29
	for top := range uint32(8) {
		y := r ^ top // x ^ x<<3
		var x uint32
		for j := range 32 {
			bit := y >> j & 1
			if j >= 3 {
				bit ^= x >> (j - 3) & 1
			}
			x |= bit << j
		}
		if x>>29 == top {
			out = append(out, uint64(x)<<32|uint64(lo))
		}
	}
	return out
}

// recoverOldKey is the key recovery of issue 37: from (nonce, cookie)
// answers to joins from one's own address a, it guesses the low 32 bits
// of the hash state before the first answer's fold (here only those in
// [from, from+n): the whole 2^32 took two minutes on two cores), solves
// the fold for the high half, runs the hash back through the nonce, the
// port and the address to the key, and keeps a key that answers every
// other sample.
func recoverOldKey(a netip.AddrPort, nonces []uint32, cookies []uint32, from uint32, n int) (uint64, bool) {
	inv := uint64(fnvPrime)
	for range 5 { // Newton's iteration: the inverse of the prime mod 2^64
		inv *= 2 - fnvPrime*inv
	}
	for k := range n {
		for _, h := range unfold(cookies[0], from+uint32(k)) {
			b := oldCookieBytes(a, nonces[0])
			for i := len(b) - 1; i >= 0; i-- {
				h = h*inv ^ uint64(b[i])
			}
			ok := true
			for i := 1; i < len(nonces) && ok; i++ {
				ok = oldCookie(h, a, nonces[i]) == cookies[i]
			}
			if ok {
				return h, true
			}
		}
	}
	return 0, false
}

// The old cookie fell to 16 join answers: the recovery finds its key and
// predicts the cookie of a join from a victim's address, 5 of 5. The
// same recovery, given 16 of today's cookies (their low halves), finds
// no key: a cookie is HMAC-SHA-256 (crypto/hmac) under a key from
// crypto/rand, truncated to 64 bits, and nothing about one predicts
// another.
func TestCookieKeyRecovery(t *testing.T) {
	own := netip.MustParseAddrPort("203.0.113.9:40000")
	victim := netip.MustParseAddrPort("10.0.2.1:7000")
	nonces := make([]uint32, 16)
	for i := range nonces {
		nonces[i] = uint32(i + 1)
	}
	// The old cookie, under a key the attacker does not know.
	const key uint64 = 0x9e3779b97f4a7c15
	old := make([]uint32, 16)
	for i, n := range nonces {
		old[i] = oldCookie(key, own, n)
	}
	h := key
	for _, c := range oldCookieBytes(own, nonces[0]) {
		h = (h ^ uint64(c)) * fnvPrime
	}
	from := uint32(h) - 1<<15 // a window of the search around the truth
	got, ok := recoverOldKey(own, nonces, old, from, 1<<16)
	predicted := 0
	for n := range uint32(5) {
		if ok && oldCookie(got, victim, 5000+n) == oldCookie(key, victim, 5000+n) {
			predicted++
		}
	}
	t.Logf("old cookie: key recovered %v, %d of 5 victim cookies predicted", ok, predicted)
	if !ok || predicted != 5 {
		t.Fatalf("the recovery does not break the old cookie (key %x, %v): the test proves nothing", got, ok)
	}
	// Today's: the server's answers to 16 joins.
	jar := newCookieJar()
	clk := 40 * time.Second
	cur := make([]uint32, 16)
	for i, n := range nonces {
		cur[i] = uint32(jar.cookie(clk, own, n))
	}
	if _, ok := recoverOldKey(own, nonces, cur, uint32(cur[0])-1<<15, 1<<16); ok {
		t.Error("the old recovery found a key for today's cookies")
	}
}

// A cookie is HMAC-SHA-256, truncated, of the address (16 bytes), the
// port and the nonce under the key of its 30-second epoch, from
// crypto/rand (two jars' keys differ); it is valid in its epoch and the
// next, not after, nor for another address or nonce; and a server answers
// a join whose cookie expired with a fresh challenge, not a seat.
func TestCookieIsARotatedMAC(t *testing.T) {
	a := netip.MustParseAddrPort("10.0.2.1:7000")
	jar, other := newCookieJar(), newCookieJar()
	at := 5 * time.Second
	c := jar.cookie(at, a, 42)
	msg := make([]byte, 0, 22)
	ip := a.Addr().As16()
	msg = append(msg, ip[:]...)
	msg = binary.LittleEndian.AppendUint16(msg, a.Port())
	msg = binary.LittleEndian.AppendUint32(msg, 42)
	m := hmac.New(sha256.New, jar.keys[0][:])
	m.Write(msg)
	if want := binary.LittleEndian.Uint64(m.Sum(nil)); c != want {
		t.Errorf("cookie %016x, want HMAC-SHA-256 %016x", c, want)
	}
	k0 := jar.keys[0]
	if other.cookie(at, a, 42) == c || k0 == other.keys[0] || k0 == [32]byte{} {
		t.Error("two servers' keys agree, or a key is zero: not from crypto/rand")
	}
	for _, v := range []struct {
		at    time.Duration
		a     netip.AddrPort
		nonce uint32
		want  bool
	}{
		{at, a, 42, true},
		{29 * time.Second, a, 42, true},
		{31 * time.Second, a, 42, true},  // the next epoch
		{59 * time.Second, a, 42, true},  // its end
		{61 * time.Second, a, 42, false}, // two epochs on: its key is gone
		{31 * time.Second, a, 43, false}, // another nonce
		{31 * time.Second, netip.MustParseAddrPort("10.0.2.1:7001"), 42, false},
	} {
		if v.at > 60*time.Second {
			jar.cookie(v.at, a, 1) // a join in that epoch made its key
		}
		if got := jar.valid(v.at, v.a, v.nonce, c); got != v.want {
			t.Errorf("a cookie of %v, at %v for %v nonce %d: valid %v, want %v", at, v.at, v.a, v.nonce, got, v.want)
		}
	}
	if jar.keys[0] == k0 {
		t.Error("the key of the epoch 60 s on is the first's: keys do not rotate")
	}

	// A join that returns a cookie 61 s old is challenged again.
	w := newSWorld(t, ServerConfig{Players: 2}, 0, 36)
	r := &rawClient{conn: w.net.Listen(clientAddr(3)), nonce: 9}
	stale := validCookie(w.srv.srv, clientAddr(3), 9)
	w.run(61 * time.Second)
	w.net.Listen(clientAddr(4)).WriteTo(testJoin(1, 0, false), serverAddr) // a join of this epoch
	w.run(20 * time.Millisecond)
	r.conn.WriteTo(testJoin(r.nonce, stale, false), serverAddr)
	w.run(20 * time.Millisecond)
	var buf [MaxPacket + 1]byte
	n, _, ok := r.conn.ReadFrom(buf[:])
	var sp sPacket
	var pk packet
	kind, err := decodeAny(buf[:n], &sp, &pk)
	if !ok || err != nil || kind != kindCookie || sp.cookie == stale || w.srv.srv.Stats().Joins != 0 {
		t.Errorf("a join with an expired cookie: answered %v kind %d (%v), %d joins; want a fresh cookie, no seat", ok, kind, err, w.srv.srv.Stats().Joins)
	}
}
