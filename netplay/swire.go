package netplay

// The server's datagrams (Server and Client) share the 8-byte header, the
// refuse and the bye of the peer-to-peer format (wire.go), and add:
//
//	join (48 bytes; a client asks for a seat, until welcomed; as large as
//	the answer, which is never larger):
//	8  nonce u32     the client's, never 0
//	12 cookie u32    0, then the cookie of the server's first welcome
//	16 isize u8, flags u8 (1: a spectator), 2 zero bytes
//	20 tps u32
//	24 params u64    FNV-1a of the Params
//	32 sim u64       the Sim fingerprint
//	40 zero          8 bytes
//
//	welcome (48 bytes; token: the client's nonce):
//	8  cookie u32    the server's token for this client: a keyed hash of
//	                 its address and nonce, so that the first answer
//	                 keeps no state (a flood of joins from forged
//	                 addresses takes no seat and no memory)
//	12 seat u8       the client's seat, 0 to players-1; 0xff a spectator;
//	                 0xfe not yet seated (the cookie challenge)
//	13 players u8    the server's seats
//	14 every u16     the ticks between the server's state hashes
//	16 tick u32      the server's next tick
//	20 state u32     the tick of the state that follows (the state before
//	                 that tick), in chunks
//	24 length u32    the length of its compression, in bytes
//	28 hash u64      the state's FNV-1a hash
//	36 end u32       the match's last tick + 1 (0: none)
//	40 verify u32    a tick soon after the state's whose hash the server
//	                 sends first, so a joiner is verified at once
//	44 raw u32       the state's length; length is that of its DEFLATE
//	                 compression (RFC 1951), which the chunks carry
//
//	chunk (20 bytes + data; a slice of a state; token: the client's nonce,
//	or a late spectator's, from its peer-to-peer host: see wire.go's offer):
//	8  state u32     the state's tick
//	12 index u32     the slice's index: it holds bytes index·chunkData on
//	16 length u32    the state's length
//	20 data          up to chunkData bytes
//
//	update (client to server; token: the client's cookie):
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
//	60 inputs        count·size bytes
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
//	52 rows          count rows: u32 mask of the empty seats, then
//	                 players·size bytes of final inputs

import "net/netip"

// Server datagram kinds.
const (
	kindJoin    = 7
	kindWelcome = 8
	kindChunk   = 9
	kindUpdate  = 10
	kindFinal   = 11
)

// Sizes of the server datagrams' fixed parts.
const (
	joinLen    = 48
	welcomeLen = 48
	chunkHead  = 20
	updateHead = 60
	finalHead  = 52
	// chunkData is the most state bytes one chunk carries.
	chunkData = MaxPacket - chunkHead
)

// Join, welcome and update flags.
const (
	joinSpectator = 1
	updateHash    = 1
	updateResync  = 2
	updateLoading = 4
	finalHash     = 1
	finalEcho     = 2
)

// Welcome seats that are not seats.
const (
	seatSpectator = 0xff
	seatChallenge = 0xfe
)

// MaxSeats is the most players a Server seats.
const MaxSeats = 32

// sPacket is one decoded server datagram: the fields of every server
// kind, and views of the datagram for data and inputs.
type sPacket struct {
	kind  uint8
	token uint32

	// join
	nonce, cookie uint32
	isize, flags  uint8
	tps           uint32
	params, sim   uint64

	// welcome (cookie as above)
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
		p.nonce, p.cookie = le.Uint32(b[8:]), le.Uint32(b[12:])
		p.isize, p.flags = b[16], b[17]
		p.tps = le.Uint32(b[20:])
		p.params, p.sim = le.Uint64(b[24:]), le.Uint64(b[32:])
		if token != 0 || p.nonce == 0 || p.flags&^joinSpectator != 0 || !zero(b[18:20]) || !zero(b[40:]) {
			return errField
		}
	case kindWelcome:
		if len(b) != welcomeLen {
			return errLength
		}
		p.cookie, p.seat, p.players = le.Uint32(b[8:]), b[12], b[13]
		p.every = le.Uint16(b[14:])
		p.tick, p.state, p.size = le.Uint32(b[16:]), le.Uint32(b[20:]), le.Uint32(b[24:])
		p.hash, p.end, p.verify, p.raw = le.Uint64(b[28:]), le.Uint32(b[36:]), le.Uint32(b[40:]), le.Uint32(b[44:])
		if p.cookie == 0 || p.players == 0 || p.players > MaxSeats || p.every == 0 ||
			p.seat >= p.players && p.seat != seatSpectator && p.seat != seatChallenge {
			return errField
		}
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
		if len(b) != updateHead+int(p.count)*int(p.isize) {
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
		if p.flags&^(finalHash|finalEcho) != 0 || p.players == 0 || p.players > MaxSeats ||
			p.isize == 0 || int(p.isize) > maxInputSize || !zero(b[50:52]) {
			return errField
		}
		if len(b) != finalHead+int(p.count)*(4+int(p.players)*int(p.isize)) {
			return errLength
		}
		p.inputs = b[finalHead:]
	default:
		return errKind
	}
	return nil
}

// decodeChunk reads a chunk (the header is checked): a slice of a state,
// from a Server to its Client or from a host to a late spectator.
func decodeChunk(b []byte) (state, index, size uint32, data []byte, err error) {
	if len(b) < chunkHead {
		return 0, 0, 0, nil, errShort
	}
	state, index, size = le.Uint32(b[8:]), le.Uint32(b[12:]), le.Uint32(b[16:])
	data = b[chunkHead:]
	// Every chunk but the last is full; the last holds the rest.
	n := chunks(int(size))
	if int64(index) >= int64(n) {
		return 0, 0, 0, nil, errField
	}
	want := chunkData
	if int(index) == n-1 {
		want = int(size) - (n-1)*chunkData
	}
	if len(data) != want {
		return 0, 0, 0, nil, errLength
	}
	return state, index, size, data, nil
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
	case kindJoin, kindWelcome, kindChunk, kindUpdate, kindFinal:
		if b[2] != ProtocolVersion {
			return kind, errVersion
		}
		return kind, sp.decodeServer(b, kind, le.Uint32(b[4:]))
	case kindRefuse, kindBye:
		return kind, pk.decode(b)
	}
	return kind, errKind
}

// chunks returns how many chunks carry n bytes of state (at least one).
func chunks(n int) int {
	if n <= 0 {
		return 1
	}
	return (n + chunkData - 1) / chunkData
}

// appendJoin appends a join.
func appendJoin(dst []byte, nonce, cookie uint32, isize, flags uint8, tps uint32, params, sim uint64) []byte {
	dst = appendHeader(dst, kindJoin, 0)
	dst = le.AppendUint32(dst, nonce)
	dst = le.AppendUint32(dst, cookie)
	dst = append(dst, isize, flags, 0, 0)
	dst = le.AppendUint32(dst, tps)
	dst = le.AppendUint64(dst, params)
	dst = le.AppendUint64(dst, sim)
	var z [joinLen - 40]byte
	return append(dst, z[:]...)
}

// appendWelcome appends a welcome to the client of nonce token.
func appendWelcome(dst []byte, token, cookie uint32, seat, players uint8, every uint16, tick, state, size uint32, hash uint64, end, verify, raw uint32) []byte {
	dst = appendHeader(dst, kindWelcome, token)
	dst = le.AppendUint32(dst, cookie)
	dst = append(dst, seat, players)
	dst = le.AppendUint16(dst, every)
	dst = le.AppendUint32(dst, tick)
	dst = le.AppendUint32(dst, state)
	dst = le.AppendUint32(dst, size)
	dst = le.AppendUint64(dst, hash)
	dst = le.AppendUint32(dst, end)
	dst = le.AppendUint32(dst, verify)
	return le.AppendUint32(dst, raw)
}

// appendChunk appends slice index of a state of tick state.
func appendChunk(dst []byte, token, state uint32, index int, st []byte) []byte {
	dst = appendHeader(dst, kindChunk, token)
	dst = le.AppendUint32(dst, state)
	dst = le.AppendUint32(dst, uint32(index))
	dst = le.AppendUint32(dst, uint32(len(st)))
	lo := index * chunkData
	return append(dst, st[lo:min(lo+chunkData, len(st))]...)
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

// encode appends p in its kind's layout: the fuzz test's round trip.
func (p *sPacket) encode(dst []byte) []byte {
	switch p.kind {
	case kindJoin:
		return appendJoin(dst, p.nonce, p.cookie, p.isize, p.flags, p.tps, p.params, p.sim)
	case kindWelcome:
		return appendWelcome(dst, p.token, p.cookie, p.seat, p.players, p.every, p.tick, p.state, p.size, p.hash, p.end, p.verify, p.raw)
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

// cookieOf is the server's stateless token for a client's address and
// nonce: a keyed FNV-1a, never 0.
func cookieOf(key uint64, a netip.AddrPort, nonce uint32) uint32 {
	h := key
	ip := a.Addr().As16()
	for _, c := range ip {
		h = (h ^ uint64(c)) * 1099511628211
	}
	for _, c := range [6]byte{byte(a.Port()), byte(a.Port() >> 8), byte(nonce), byte(nonce >> 8), byte(nonce >> 16), byte(nonce >> 24)} {
		h = (h ^ uint64(c)) * 1099511628211
	}
	h ^= h >> 29
	if c := uint32(h ^ h>>32); c != 0 {
		return c
	}
	return 1
}
