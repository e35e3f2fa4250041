package netplay

import "testing"

// The encoders of every kind, for the decoders' fuzz tests' round trips:
// what decodes encodes back to the same bytes.

// encode appends p in its kind's layout, inputs included: the fuzz test's
// round trip.
func (p *packet) encode(dst []byte) []byte {
	switch p.kind {
	case kindHello:
		return p.appendHello(dst)
	case kindRefuse:
		dst = appendRefuse(dst, p.field, p.ours, p.theirs)
		dst[2] = p.version
		return dst
	case kindInput:
		return append(p.appendInputHead(dst), p.inputs...)
	case kindBye:
		return appendBye(dst, p.token, p.reason, p.tick, p.hash)
	case kindSit:
		return p.appendSit(dst)
	case kindSeat:
		return p.appendSeat(dst)
	case kindOffer:
		return appendOffer(dst, p.token, p.state, int(p.length), p.hash)
	case kindGot:
		return appendGot(dst, p.token, p.state, p.have, p.mask)
	case kindDrop:
		return p.appendDrop(dst)
	case kindChunk:
		dst = appendHeader(dst, kindChunk, p.token)
		dst = le.AppendUint32(dst, p.state)
		dst = le.AppendUint32(dst, p.index)
		dst = le.AppendUint32(dst, p.length)
		return append(dst, p.data...)
	}
	return dst
}

// encode appends p in its kind's layout: the fuzz test's round trip.
func (p *sPacket) encode(dst []byte) []byte {
	switch p.kind {
	case kindJoin:
		return p.appendJoin(dst)
	case kindCookie:
		return appendCookie(dst, p.token, p.cookie, p.players)
	case kindWelcome:
		return p.appendWelcome(dst)
	case kindChunk:
		dst = appendHeader(dst, kindChunk, p.token)
		dst = le.AppendUint32(dst, p.state)
		dst = le.AppendUint32(dst, p.index)
		dst = le.AppendUint32(dst, p.size)
		return append(dst, p.data...)
	case kindUpdate:
		return append(p.appendUpdateHead(dst), p.inputs...)
	case kindFinal:
		return append(p.appendFinalHead(dst), p.inputs...)
	}
	return dst
}

// A drop datagram's fields are checked: dropped players within four,
// decided ones among them, zero for the others, and a token.
func TestDropDecode(t *testing.T) {
	p := packet{token: 7, dropped: 0b1010, decided: 0b0010}
	p.dtick[1], p.dhave[1], p.dtick[3], p.dhave[3] = 300, 300, 290, 295
	good := p.appendDrop(nil)
	var q packet
	if len(good) != dropLen || q.decode(good) != nil || q.dropped != p.dropped || q.decided != p.decided || q.dtick != p.dtick || q.dhave != p.dhave {
		t.Fatalf("round trip: %+v from % x", q, good)
	}
	for name, mod := range map[string]func(b []byte) []byte{
		"no token":             func(b []byte) []byte { b[4] = 0; return b },
		"a fifth player":       func(b []byte) []byte { b[8] |= 1 << 4; return b },
		"decided, not dropped": func(b []byte) []byte { b[9] |= 1; return b },
		"padding":              func(b []byte) []byte { b[11] = 1; return b },
		"a tick of no one":     func(b []byte) []byte { b[12] = 1; return b },
		"what no one has":      func(b []byte) []byte { b[16+16] = 1; return b },
		"short":                func(b []byte) []byte { return b[:len(b)-1] },
		"long":                 func(b []byte) []byte { return append(b, 0) },
	} {
		if err := q.decode(mod(append([]byte(nil), good...))); err == nil {
			t.Errorf("%s: decoded", name)
		}
	}
	// An input datagram's empty seats must be among the players it carries.
	in := packet{token: 7, flags: flagSeats, seats: 0b100, count: 1, per: 2, size: 1}
	b := append(in.appendInputHead(nil), 0, 0)
	if err := q.decode(b); err == nil {
		t.Errorf("seats %#b of a datagram of players 1 and 2: decoded", in.seats)
	}
	in.per = 3
	b = append(in.appendInputHead(nil), 0, 0, 0)
	if err := q.decode(b); err != nil || q.seats != 0b100 || len(q.inputs) != 3 {
		t.Errorf("seats %#b of players 1 to 3: %v, %+v", in.seats, err, q)
	}
}
