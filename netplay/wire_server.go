package netplay

import "math/bits"

// The server's datagrams (Server and Client), beside the header, the
// refuse, the bye and the chunk (wire.go):
//
//	join (56 bytes; a client asks for a seat, or a probe for the match's
//	settings, until welcomed; larger than any answer sent before the
//	address is proven):
//	8  nonce u32     the client's, never 0
//	12 isize u8, flags u8 (1: a spectator; 2: a probe, which asks for
//	                 the settings and takes no seat), 2 zero bytes
//	16 tps u32
//	20 zero          4 bytes
//	24 params u64    FNV-1a of the Params
//	32 sim u64       the Sim fingerprint
//	40 cookie u64    0, then the cookie of the server's challenge
//	48 secret u64    0, or the session secret of a seat this client held
//	                 (a welcome's): the join takes that seat back at once
//
//	cookie (24 bytes; the challenge: the answer to a join without a valid
//	cookie; token: the client's nonce):
//	8  cookie u64    HMAC-SHA-256 of the join's address, port and nonce
//	                 under the server's key of the time, truncated: the
//	                 server keeps no state for it (a flood of joins from
//	                 forged addresses takes no seat and no memory, and
//	                 is answered with fewer bytes than it sent). The keys
//	                 come from crypto/rand and change every cookieEpoch;
//	                 a cookie is valid in its epoch and the next
//	16 players u8    the server's seats
//	17 zero          7 bytes
//
//	welcome (64 bytes + params; only to a join that returned its cookie;
//	token: the client's nonce):
//	8  secret u64    the seat's session secret, from crypto/rand: a join
//	                 that carries it takes the seat back (0: no seat)
//	16 token u32     the token of the client's datagrams to the server
//	20 seat u8       the client's seat, 0 to players-1; 0xff a spectator;
//	                 0xfe no seat: the settings only (to a probe, or to a
//	                 join whose params differ)
//	21 players u8    the server's seats
//	22 every u16     the ticks between the server's state hashes
//	24 tick u32      the server's next tick
//	28 state u32     the tick of the state that follows (the state before
//	                 that tick), in chunks
//	32 length u32    the length of its compression, in bytes
//	36 hash u64      its state hash (engine.StateHash)
//	44 end u32       the match's last tick + 1 (0: none)
//	48 verify u32    a tick soon after the state's whose hash the server
//	                 sends first, so a joiner is verified at once
//	52 raw u32       the state's length; length is that of its DEFLATE
//	                 compression (RFC 1951), which the chunks carry
//	56 tps u32       the server's tick rate
//	60 isize u8, 1 zero byte, plen u16
//	64 params        plen bytes: the server's Params, whole
//
//	update (client to server; token: the welcome's token):
//	8  ack u32       the next tick whose final inputs the client needs
//	12 ts u32, echo u32, hold u32   round trips, as in input
//	24 flags u8      1: hash valid, 2: resync (send me your state),
//	                 4: loading (state, have and mask are valid)
//	25 size u8       the input size
//	26 count u8      ticks of the client's own input carried
//	27 zero u8
//	28 hashTick u32, 32 hash u64    the client's hash of its final state
//	                 before hashTick
//	40 state u32     the state last received (or being received), 44 have u32: the slices
//	                 received in order, 48 mask u64: of the next 64, those
//	                 received (a selective ack; zero when none)
//	56 start u32     the tick of the first input carried
//	60 inputs        count·size bytes; while loading, count is 0 and the
//	                 rest of the datagram is a bitmap that goes on from
//	                 mask: bit d of byte k marks slice have+65+8k+d
//	                 received (the client sends it up to the last slice
//	                 received, at most chunkWindow past have: the server
//	                 knows of each slice of its window whether it arrived)
//
//	final (server to client; token: the client's nonce):
//	8  tick u32      the server's next tick
//	12 lead i16      how early the client's input of the server's last
//	                 tick arrived, in 1/8 ticks (negative: late)
//	14 flags u8      1: hash valid, 2: echo valid
//	15 players u8    the server's seats
//	16 ack u32       the next tick of the client's input the server needs
//	20 ts u32, echo u32, hold u32
//	32 hashTick u32, 36 hash u64    the server's hash of the state before
//	                 hashTick
//	44 start u32     the tick of the first row carried
//	48 count u8, size u8, 2 zero bytes
//	52 rows          count rows of ticks start, start+1, ...: each
//	                 row is the changes from the row before it
//
//	A row of the final kind is written as what changed: the seats whose
//	input differs from the row of the tick before, and the empty seats
//	when they differ, so that a tick where few players change their input
//	costs a few bytes, whatever the seats (inputs as changes, not every
//	seat's every tick):
//
//	mask             ceil((players+1)/8) bytes, little-endian bits: bit p
//	                 (p < players) set when seat p's input differs; bit
//	                 players set when the empty seats differ; no other
//	empty u32        when bit players is set: the row's empty seats, none
//	                 at or past players
//	inputs           size bytes for each seat of a set bit, in seat order:
//	                 its input (an empty seat's is zero)
//
//	The first row's changes are from the row of tick start-1, which the
//	client must hold already (final, or received); with the key flag (4)
//	they are from a row of zero inputs and no empty seat, as after a
//	state, where the client holds no row before start. A client that
//	holds no row start-1 cannot read the rows (it counts the datagram
//	stale) and waits for the next: the server sends each row twice, in
//	two datagrams that follow each other, and, when the client's
//	acknowledgement does not move for a retransmission timeout, every row
//	from the first the client lacks, whose row before it holds. A datagram
//	lost costs nothing; two in a row cost a timeout, as they did when
//	every row carried every seat.

// sPacket is one decoded server datagram: the fields of every server
// kind, and views of the datagram for data and inputs.
type sPacket struct {
	kind  uint8
	token uint32

	// join (and cookie's cookie, welcome's secret)
	nonce          uint32
	cookie, secret uint64
	isize, flags   uint8
	tps            uint32
	params, sim    uint64

	// welcome (secret, tps and isize as above; params in data)
	ctoken            uint32
	seat, players     uint8
	every             uint16
	tick, state, size uint32
	end, verify, raw  uint32
	hash              uint64

	// chunk (state as above; size is the state's length)
	index uint32
	data  []byte

	// update and final
	ack, ts, echo, hold uint32
	hashTick            uint32
	have                uint32
	mask                uint64
	lead                int16
	start               uint32
	count               uint8
	inputs              []byte
}

// decodeServer reads a server kind (the header is checked) into p,
// checking every length and count before it reads.
func (p *sPacket) decodeServer(b []byte, kind uint8, token uint32) error {
	p.kind, p.token = kind, token
	switch kind {
	case kindJoin:
		if len(b) != joinLen {
			return errLength
		}
		p.nonce = le.Uint32(b[8:])
		p.isize, p.flags = b[12], b[13]
		p.tps = le.Uint32(b[16:])
		p.params, p.sim = le.Uint64(b[24:]), le.Uint64(b[32:])
		p.cookie, p.secret = le.Uint64(b[40:]), le.Uint64(b[48:])
		if token != 0 || p.nonce == 0 || p.flags&^(joinSpectator|joinProbe) != 0 || !zero(b[14:16]) || !zero(b[20:24]) {
			return errField
		}
	case kindCookie:
		if len(b) != cookieLen {
			return errLength
		}
		p.cookie, p.players = le.Uint64(b[8:]), b[16]
		if token == 0 || p.cookie == 0 || p.players == 0 || p.players > MaxSeats || !zero(b[17:]) {
			return errField
		}
	case kindWelcome:
		if len(b) < welcomeHead {
			return errShort
		}
		p.secret, p.ctoken = le.Uint64(b[8:]), le.Uint32(b[16:])
		p.seat, p.players = b[20], b[21]
		p.every = le.Uint16(b[22:])
		p.tick, p.state, p.size = le.Uint32(b[24:]), le.Uint32(b[28:]), le.Uint32(b[32:])
		p.hash, p.end, p.verify, p.raw = le.Uint64(b[36:]), le.Uint32(b[44:]), le.Uint32(b[48:]), le.Uint32(b[52:])
		p.tps, p.isize = le.Uint32(b[56:]), b[60]
		plen := int(le.Uint16(b[62:]))
		seated := p.seat != seatNone
		if token == 0 || p.players == 0 || p.players > MaxSeats || p.every == 0 || b[61] != 0 ||
			p.seat >= p.players && p.seat != seatSpectator && p.seat != seatNone ||
			seated != (p.secret != 0) || seated != (p.ctoken != 0) ||
			p.tps == 0 || p.isize == 0 || int(p.isize) > maxInputSize {
			return errField
		}
		if len(b) != welcomeHead+plen {
			return errLength
		}
		p.data = b[welcomeHead:]
	case kindChunk:
		var err error
		p.state, p.index, p.size, p.data, err = decodeChunk(b)
		return err
	case kindUpdate:
		if len(b) < updateHead {
			return errShort
		}
		p.ack = le.Uint32(b[8:])
		p.ts, p.echo, p.hold = le.Uint32(b[12:]), le.Uint32(b[16:]), le.Uint32(b[20:])
		p.flags, p.isize, p.count = b[24], b[25], b[26]
		p.hashTick, p.hash = le.Uint32(b[28:]), le.Uint64(b[32:])
		p.state, p.have, p.mask = le.Uint32(b[40:]), le.Uint32(b[44:]), le.Uint64(b[48:])
		p.start = le.Uint32(b[56:])
		if p.flags&^(updateHash|updateResync|updateLoading) != 0 || p.isize == 0 || int(p.isize) > maxInputSize || b[27] != 0 {
			return errField
		}
		if p.flags&updateLoading != 0 && p.count != 0 {
			return errField
		}
		if p.flags&updateLoading == 0 && len(b) != updateHead+int(p.count)*int(p.isize) {
			return errLength
		}
		p.inputs = b[updateHead:]
	case kindFinal:
		if len(b) < finalHead {
			return errShort
		}
		p.tick, p.lead = le.Uint32(b[8:]), int16(le.Uint16(b[12:]))
		p.flags, p.players = b[14], b[15]
		p.ack = le.Uint32(b[16:])
		p.ts, p.echo, p.hold = le.Uint32(b[20:]), le.Uint32(b[24:]), le.Uint32(b[28:])
		p.hashTick, p.hash = le.Uint32(b[32:]), le.Uint64(b[36:])
		p.start = le.Uint32(b[44:])
		p.count, p.isize = b[48], b[49]
		if p.flags&^(finalHash|finalEcho|finalKey) != 0 || p.players == 0 || p.players > MaxSeats ||
			p.isize == 0 || int(p.isize) > maxInputSize || !zero(b[50:52]) {
			return errField
		}
		p.inputs = b[finalHead:]
		return checkRows(p.inputs, int(p.count), int(p.players), int(p.isize))
	default:
		return errKind
	}
	return nil
}

// maskLen is the length of a final row's mask of changes: a bit for each
// of players seats, and one for the empty seats.
func maskLen(players int) int { return players/8 + 1 }

// checkRows checks that b holds exactly count final rows of players
// seats of size bytes, each as changes (see the final kind): every mask
// bit a seat's or the empty seats', every empty seat one of the players,
// no byte left over. The work is linear in b.
func checkRows(b []byte, count, players, size int) error {
	nb := maskLen(players)
	for range count {
		if len(b) < nb {
			return errLength
		}
		m := rowMask(b, nb)
		if m>>(players+1) != 0 {
			return errField
		}
		n := nb + bits.OnesCount64(m&(1<<players-1))*size
		if m>>players&1 != 0 {
			if len(b) < nb+4 {
				return errLength
			}
			if uint64(le.Uint32(b[nb:]))>>players != 0 {
				return errField
			}
			n += 4
		}
		if len(b) < n {
			return errLength
		}
		b = b[n:]
	}
	if len(b) != 0 {
		return errLength
	}
	return nil
}

// rowMask reads a row's mask of changes, nb bytes.
func rowMask(b []byte, nb int) uint64 {
	var m uint64
	for i, c := range b[:nb] {
		m |= uint64(c) << (8 * i)
	}
	return m
}

// appendRow appends row (every seat's input, size bytes each) with its
// empty seats as the changes from prev and prevEmpty (see the final
// kind), if it fits in max bytes, and reports whether it did.
func appendRow(dst []byte, max int, prev, row []byte, prevEmpty, empty uint32, players, size int) ([]byte, bool) {
	nb := maskLen(players)
	var m uint64
	n := nb
	for p := range players {
		if string(row[p*size:(p+1)*size]) != string(prev[p*size:(p+1)*size]) {
			m |= 1 << p
			n += size
		}
	}
	if empty != prevEmpty {
		m |= 1 << players
		n += 4
	}
	if len(dst)+n > max {
		return dst, false
	}
	for i := range nb {
		dst = append(dst, byte(m>>(8*i)))
	}
	if empty != prevEmpty {
		dst = le.AppendUint32(dst, empty)
	}
	for p := range players {
		if m>>p&1 != 0 {
			dst = append(dst, row[p*size:(p+1)*size]...)
		}
	}
	return dst, true
}

// readRow applies the row of changes at the start of b (checked by
// checkRows) to row and empty, the row before it, and returns the rest
// of b.
func readRow(b, row []byte, empty *uint32, players, size int) []byte {
	nb := maskLen(players)
	m := rowMask(b, nb)
	b = b[nb:]
	if m>>players&1 != 0 {
		*empty = le.Uint32(b)
		b = b[4:]
	}
	for p := range players {
		if m>>p&1 != 0 {
			copy(row[p*size:(p+1)*size], b[:size])
			b = b[size:]
		}
	}
	return b
}

// decodeAny reads the header of b and, for a server kind, the rest into
// sp; for the peer-to-peer kinds it serves (refuse, bye) it fills pk.
func decodeAny(b []byte, sp *sPacket, pk *packet) (kind uint8, err error) {
	if len(b) < headerLen {
		return 0, errShort
	}
	if len(b) > MaxPacket {
		return 0, errLong
	}
	if b[0] != 'f' || b[1] != 'x' {
		return 0, errMagic
	}
	kind = b[3]
	switch kind {
	case kindJoin, kindCookie, kindWelcome, kindChunk, kindUpdate, kindFinal:
		if b[2] != ProtocolVersion {
			return kind, errVersion
		}
		return kind, sp.decodeServer(b, kind, le.Uint32(b[4:]))
	case kindRefuse, kindBye:
		return kind, pk.decode(b)
	}
	return kind, errKind
}

// appendJoin appends a join: p's nonce, isize, flags, tps, params, sim,
// cookie and secret.
func (p *sPacket) appendJoin(dst []byte) []byte {
	dst = appendHeader(dst, kindJoin, 0)
	dst = le.AppendUint32(dst, p.nonce)
	dst = append(dst, p.isize, p.flags, 0, 0)
	dst = le.AppendUint32(dst, p.tps)
	dst = le.AppendUint32(dst, 0)
	dst = le.AppendUint64(dst, p.params)
	dst = le.AppendUint64(dst, p.sim)
	dst = le.AppendUint64(dst, p.cookie)
	return le.AppendUint64(dst, p.secret)
}

// appendCookie appends the challenge to the client of nonce token.
func appendCookie(dst []byte, token uint32, cookie uint64, players uint8) []byte {
	dst = appendHeader(dst, kindCookie, token)
	dst = le.AppendUint64(dst, cookie)
	return append(dst, players, 0, 0, 0, 0, 0, 0, 0)
}

// appendWelcome appends p as a welcome, its params (p.data) included.
func (p *sPacket) appendWelcome(dst []byte) []byte {
	dst = appendHeader(dst, kindWelcome, p.token)
	dst = le.AppendUint64(dst, p.secret)
	dst = le.AppendUint32(dst, p.ctoken)
	dst = append(dst, p.seat, p.players)
	dst = le.AppendUint16(dst, p.every)
	dst = le.AppendUint32(dst, p.tick)
	dst = le.AppendUint32(dst, p.state)
	dst = le.AppendUint32(dst, p.size)
	dst = le.AppendUint64(dst, p.hash)
	dst = le.AppendUint32(dst, p.end)
	dst = le.AppendUint32(dst, p.verify)
	dst = le.AppendUint32(dst, p.raw)
	dst = le.AppendUint32(dst, p.tps)
	dst = append(dst, p.isize, 0)
	dst = le.AppendUint16(dst, uint16(len(p.data)))
	return append(dst, p.data...)
}

// appendUpdateHead appends p's fixed update fields; the caller appends
// count·size bytes of inputs.
func (p *sPacket) appendUpdateHead(dst []byte) []byte {
	dst = appendHeader(dst, kindUpdate, p.token)
	dst = le.AppendUint32(dst, p.ack)
	dst = le.AppendUint32(dst, p.ts)
	dst = le.AppendUint32(dst, p.echo)
	dst = le.AppendUint32(dst, p.hold)
	dst = append(dst, p.flags, p.isize, p.count, 0)
	dst = le.AppendUint32(dst, p.hashTick)
	dst = le.AppendUint64(dst, p.hash)
	dst = le.AppendUint32(dst, p.state)
	dst = le.AppendUint32(dst, p.have)
	dst = le.AppendUint64(dst, p.mask)
	return le.AppendUint32(dst, p.start)
}

// appendFinalHead appends p's fixed final fields; the caller appends
// count rows.
func (p *sPacket) appendFinalHead(dst []byte) []byte {
	dst = appendHeader(dst, kindFinal, p.token)
	dst = le.AppendUint32(dst, p.tick)
	dst = le.AppendUint16(dst, uint16(p.lead))
	dst = append(dst, p.flags, p.players)
	dst = le.AppendUint32(dst, p.ack)
	dst = le.AppendUint32(dst, p.ts)
	dst = le.AppendUint32(dst, p.echo)
	dst = le.AppendUint32(dst, p.hold)
	dst = le.AppendUint32(dst, p.hashTick)
	dst = le.AppendUint64(dst, p.hash)
	dst = le.AppendUint32(dst, p.start)
	return append(dst, p.count, p.isize, 0, 0)
}
