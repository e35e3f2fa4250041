package netplay

import "net/netip"

// The peer-to-peer datagrams (Session, Lobby: wire.go has the header,
// the refuse, the bye and the chunk):
//
//	hello (40 bytes in all; the handshake, sent until answered, answered
//	with a hello of the same size):
//	8  nonce u32     the sender's, never 0
//	12 echo u32      the receiver's nonce as the sender knows it, 0 if not
//	16 players u8, player u8 (0xff: a spectator), input size u8, flags u8
//	20 tps u32
//	24 params u64    FNV-1a of SessionConfig.Params
//	32 sim u64       SessionConfig.Sim
//
//	input (50 bytes, 51 with seats, + inputs; inputs, acks, time sync,
//	RTT, desync hashes and keep-alives in one kind):
//	8  tick u32      the sender's next tick to simulate
//	12 adv i8        the sender's frame advantage over the receiver, 1/8 ticks
//	13 flags u8      1: hash valid, 2: echo valid, 4: seats follow
//	14 ack u32       the next tick of the receiver's inputs the sender needs
//	18 ts u32        the sender's clock, µs
//	22 echo u32      the last ts the sender got from the receiver
//	26 hold u32      µs between receiving echo and sending this
//	30 hashed u32    the ticks run by the confirmed state hashed (a multiple
//	                 of SessionConfig.HashEvery)
//	34 hash u64      the state hash (engine.StateHash) of the game's saved state
//	42 start u32     the tick of the first input carried
//	46 count u8      ticks of inputs carried
//	47 first u8      the player of the first input of each tick: the
//	                 sender's, or a player both drop (its inputs passed on)
//	48 per u8        players per tick (1 between players; all, to spectators)
//	49 size u8       the input size
//	50 seats u8      with flag 4 only: bit p, player p's seat is empty in
//	                 every tick carried (its input zero); a host tells its
//	                 spectators which players the others lost
//	50 or 51 inputs  count·per·size bytes, tick by tick
//
//	sit (88 bytes; a joiner asks a Lobby's host for a seat, until the
//	host sends the roster; as large as the answer, which is never larger):
//	8  nonce u32     the joiner's, never 0
//	12 echo u32      the host's nonce as the joiner knows it, 0 if not
//	16 players u8    the players the joiner asks for: 0 any, else 2 to 4
//	17 seat u8       the seat the host gave it, 0 before
//	18 input size u8, flags u8 (1: ready: sim is the joiner's, else 0)
//	20 tps u32
//	24 params u64    FNV-1a of SessionConfig.Params
//	32 sim u64       SessionConfig.Sim, once ready
//	40 zero          48 bytes
//
//	seat (88 bytes; the host's answer to a sit; token: the joiner's nonce):
//	8  nonce u32     the host's, never 0
//	12 seat u8       the joiner's player, 1 to players-1
//	13 players u8    2 to 4
//	14 seated u8     the players seated so far, the host included
//	15 flags u8      1: the roster follows (every seat is taken and ready)
//	16 roster        4 addresses of 18 bytes (IPv6 or IPv4-mapped u8[16],
//	                 port u16): player p's at 16+18p; zero for the host
//	                 (the joiner has its address), without the roster, and
//	                 past players
//
//	offer (24 bytes; a host to a spectator that finished the handshake
//	too late to be fed from tick 0, or fell too far behind; sent until a
//	got names its state; token: the spectator's nonce):
//	8  state u32     the tick of the state that follows (the state before
//	                 that tick), in chunks (kind 9, as a server's: state,
//	                 index, length, data); the inputs from that tick on
//	                 follow in input datagrams, as to any spectator
//	12 length u32    its length in bytes
//	16 hash u64      its state hash
//
//	got (24 bytes; a spectator to its host, while the state comes, and
//	again for a chunk or offer of a state it has loaded; token: the
//	host's nonce):
//	8  state u32     the offer's state
//	12 have u32      the chunks received in order
//	16 mask u64      of the next 64 chunks, those received (a selective
//	                 ack; zero when none)

//	drop (44 bytes; a player's account of the players it drops: those it
//	lost, or that another player drops; sent to the other players until
//	they all agree, and to a dropped one that still sends; token: the
//	receiver's nonce):
//	8  dropped u8    bit p: the sender drops player p, and takes no more
//	                 inputs from it
//	9  decided u8    bit p: of those, the ones whose seat is empty from an
//	                 agreed tick
//	10 zero u16
//	12 per player p, at 12+8p (zero for one not dropped):
//	   tick u32      decided: the tick p's seat is empty from; else the
//	                 sender's vote, how many of p's inputs it had when it
//	                 began to drop p
//	   have u32      how many of p's inputs the sender has now, passed on
//	                 ones included

// packet is one decoded datagram: fixed fields, and for an input packet
// the inputs as a view of the datagram (no copy).
type packet struct {
	version uint8
	kind    uint8
	token   uint32

	// hello
	nonce, echo            uint32
	players, player, isize uint8
	hflags                 uint8
	tps                    uint32
	params, sim            uint64

	// refuse
	field        uint8
	ours, theirs uint64

	// input
	tick                    uint32
	adv                     int8
	flags                   uint8
	ack                     uint32
	ts, echoTs, hold        uint32
	hashTick                uint32
	hash                    uint64
	start                   uint32
	count, first, per, size uint8
	seats                   uint8 // with flagSeats
	inputs                  []byte

	// bye
	reason uint8
	// bye's tick is in tick, its hash in hash

	// sit: nonce, echo, players, player (the seat), isize, hflags, tps,
	// params and sim as in a hello. seat: nonce, player (the seat),
	// players, hflags, and:
	seated uint8
	roster [MaxPeers]netip.AddrPort

	// drop
	dropped, decided uint8
	dtick, dhave     [MaxPeers]uint32

	// offer: state, length, and the hash in hash. chunk: state, index,
	// length, and a view of its data. got: state, have and mask.
	state, index, length uint32
	data                 []byte
	have                 uint32
	mask                 uint64
}

// decode reads b into p. It checks every length and count against b
// and the package limits before it reads, and keeps a view of b's inputs.
// A refuse is read whatever its version; other kinds must be of
// ProtocolVersion (errVersion, with p.version and p.kind filled in).
func (p *packet) decode(b []byte) error {
	if len(b) < headerLen {
		return errShort
	}
	if len(b) > MaxPacket {
		return errLong
	}
	if b[0] != 'f' || b[1] != 'x' {
		return errMagic
	}
	p.version, p.kind, p.token = b[2], b[3], le.Uint32(b[4:])
	if p.kind != kindRefuse && p.version != ProtocolVersion {
		return errVersion
	}
	switch p.kind {
	case kindHello:
		if len(b) != helloLen {
			return errLength
		}
		if p.token != 0 {
			return errField
		}
		p.nonce, p.echo = le.Uint32(b[8:]), le.Uint32(b[12:])
		p.players, p.player, p.isize, p.hflags = b[16], b[17], b[18], b[19]
		p.tps = le.Uint32(b[20:])
		p.params, p.sim = le.Uint64(b[24:]), le.Uint64(b[32:])
		if p.nonce == 0 {
			return errField
		}
	case kindRefuse:
		if len(b) != refuseLen {
			return errLength
		}
		if p.token != 0 {
			return errField
		}
		p.field, p.ours, p.theirs = b[8], le.Uint64(b[9:]), le.Uint64(b[17:])
		if p.field < fieldVersion || p.field > fieldAddr {
			return errField
		}
	case kindInput:
		if len(b) < inputHead {
			return errShort
		}
		p.tick = le.Uint32(b[8:])
		p.adv = int8(b[12])
		p.flags = b[13]
		p.ack = le.Uint32(b[14:])
		p.ts, p.echoTs, p.hold = le.Uint32(b[18:]), le.Uint32(b[22:]), le.Uint32(b[26:])
		p.hashTick, p.hash = le.Uint32(b[30:]), le.Uint64(b[34:])
		p.start = le.Uint32(b[42:])
		p.count, p.first, p.per, p.size = b[46], b[47], b[48], b[49]
		if p.flags&^(flagHash|flagEcho|flagSeats) != 0 || p.size == 0 || int(p.size) > maxInputSize ||
			p.per > MaxPeers || int(p.first)+int(p.per) > MaxPeers || (p.count > 0 && p.per == 0) {
			return errField
		}
		head := inputHead
		p.seats = 0
		if p.flags&flagSeats != 0 {
			if len(b) == inputHead {
				return errShort
			}
			p.seats, head = b[inputHead], inputHead+1
			if p.seats&^(uint8(1<<p.per-1)<<p.first) != 0 {
				return errField // a seat of no player carried
			}
		}
		if n := int(p.count) * int(p.per) * int(p.size); len(b) != head+n {
			return errLength
		}
		p.inputs = b[head:]
	case kindBye:
		if len(b) != byeLen {
			return errLength
		}
		p.reason, p.tick, p.hash = b[8], le.Uint32(b[9:]), le.Uint64(b[13:])
		if p.reason < byeQuit || p.reason > byeStalled || p.reason == byeGone && p.tick >= MaxPeers {
			return errField
		}
	case kindDrop:
		return p.decodeDrop(b)
	case kindSit:
		return p.decodeSit(b)
	case kindSeat:
		return p.decodeSeat(b)
	case kindJoin:
		if len(b) != joinLen {
			return errLength
		}
		return errJoin // answered with a refuse of fieldHost
	case kindOffer:
		if len(b) != offerLen {
			return errLength
		}
		p.state, p.length, p.hash = le.Uint32(b[8:]), le.Uint32(b[12:]), le.Uint64(b[16:])
		if p.token == 0 {
			return errField
		}
	case kindGot:
		if len(b) != gotLen {
			return errLength
		}
		p.state, p.have, p.mask = le.Uint32(b[8:]), le.Uint32(b[12:]), le.Uint64(b[16:])
		if p.token == 0 {
			return errField
		}
	case kindChunk:
		var err error
		p.state, p.index, p.length, p.data, err = decodeChunk(b)
		return err
	default:
		return errKind
	}
	return nil
}

// appendOffer appends an offer of a state of tick state.
func appendOffer(dst []byte, token, state uint32, length int, hash uint64) []byte {
	dst = appendHeader(dst, kindOffer, token)
	dst = le.AppendUint32(dst, state)
	dst = le.AppendUint32(dst, uint32(length))
	return le.AppendUint64(dst, hash)
}

// appendGot appends a got.
func appendGot(dst []byte, token, state, have uint32, mask uint64) []byte {
	dst = appendHeader(dst, kindGot, token)
	dst = le.AppendUint32(dst, state)
	dst = le.AppendUint32(dst, have)
	return le.AppendUint64(dst, mask)
}

// decodeDrop reads a drop: b has the header of one.
func (p *packet) decodeDrop(b []byte) error {
	if len(b) != dropLen {
		return errLength
	}
	p.dropped, p.decided = b[8], b[9]
	if p.token == 0 || p.dropped>>MaxPeers != 0 || p.decided&^p.dropped != 0 || b[10] != 0 || b[11] != 0 {
		return errField
	}
	for i := range MaxPeers {
		p.dtick[i], p.dhave[i] = le.Uint32(b[12+8*i:]), le.Uint32(b[16+8*i:])
		if p.dropped>>i&1 == 0 && (p.dtick[i] != 0 || p.dhave[i] != 0) {
			return errField
		}
	}
	return nil
}

// appendDrop appends p as a drop, with its token.
func (p *packet) appendDrop(dst []byte) []byte {
	dst = appendHeader(dst, kindDrop, p.token)
	dst = append(dst, p.dropped, p.decided, 0, 0)
	for i := range MaxPeers {
		dst = le.AppendUint32(dst, p.dtick[i])
		dst = le.AppendUint32(dst, p.dhave[i])
	}
	return dst
}

// appendHello appends p as a hello.
func (p *packet) appendHello(dst []byte) []byte {
	dst = appendHeader(dst, kindHello, 0)
	dst = le.AppendUint32(dst, p.nonce)
	dst = le.AppendUint32(dst, p.echo)
	dst = append(dst, p.players, p.player, p.isize, p.hflags)
	dst = le.AppendUint32(dst, p.tps)
	dst = le.AppendUint64(dst, p.params)
	return le.AppendUint64(dst, p.sim)
}

// appendInputHead appends p's fixed input fields, and its seats with
// flagSeats; the caller appends count·per·size bytes of inputs after
// them.
func (p *packet) appendInputHead(dst []byte) []byte {
	dst = appendHeader(dst, kindInput, p.token)
	dst = le.AppendUint32(dst, p.tick)
	dst = append(dst, byte(p.adv), p.flags)
	dst = le.AppendUint32(dst, p.ack)
	dst = le.AppendUint32(dst, p.ts)
	dst = le.AppendUint32(dst, p.echoTs)
	dst = le.AppendUint32(dst, p.hold)
	dst = le.AppendUint32(dst, p.hashTick)
	dst = le.AppendUint64(dst, p.hash)
	dst = le.AppendUint32(dst, p.start)
	dst = append(dst, p.count, p.first, p.per, p.size)
	if p.flags&flagSeats != 0 {
		dst = append(dst, p.seats)
	}
	return dst
}

// decodeSit reads a sit: b has the header of one.
func (p *packet) decodeSit(b []byte) error {
	if len(b) != sitLen {
		return errLength
	}
	p.nonce, p.echo = le.Uint32(b[8:]), le.Uint32(b[12:])
	p.players, p.player, p.isize, p.hflags = b[16], b[17], b[18], b[19]
	p.tps = le.Uint32(b[20:])
	p.params, p.sim = le.Uint64(b[24:]), le.Uint64(b[32:])
	switch {
	case p.token != 0 || p.nonce == 0 || p.hflags&^sitReady != 0 || p.hflags&sitReady == 0 && p.sim != 0,
		p.players == 1 || p.players > MaxPeers, p.player >= MaxPeers, !zero(b[40:]):
		return errField
	}
	return nil
}

// decodeSeat reads a seat: b has the header of one.
func (p *packet) decodeSeat(b []byte) error {
	if len(b) != seatLen {
		return errLength
	}
	p.nonce = le.Uint32(b[8:])
	p.player, p.players, p.seated, p.hflags = b[12], b[13], b[14], b[15]
	roster := p.hflags&seatRoster != 0
	switch {
	case p.token == 0 || p.nonce == 0 || p.hflags&^seatRoster != 0,
		p.players < 2 || p.players > MaxPeers, p.player < 1 || p.player >= p.players,
		p.seated < 2 || p.seated > p.players, roster && p.seated != p.players:
		return errField
	}
	for i := range MaxPeers {
		e := b[16+i*addrLen : 16+(i+1)*addrLen]
		if i == 0 || !roster || i >= int(p.players) {
			if !zero(e) {
				return errField
			}
			p.roster[i] = netip.AddrPort{}
			continue
		}
		a := netip.AddrPortFrom(netip.AddrFrom16([16]byte(e[:16])).Unmap(), le.Uint16(e[16:]))
		if a.Port() == 0 || a.Addr().IsUnspecified() {
			return errField
		}
		p.roster[i] = a
	}
	return nil
}

// appendSit appends p as a sit.
func (p *packet) appendSit(dst []byte) []byte {
	dst = appendHeader(dst, kindSit, 0)
	dst = le.AppendUint32(dst, p.nonce)
	dst = le.AppendUint32(dst, p.echo)
	dst = append(dst, p.players, p.player, p.isize, p.hflags)
	dst = le.AppendUint32(dst, p.tps)
	dst = le.AppendUint64(dst, p.params)
	dst = le.AppendUint64(dst, p.sim)
	return append(dst, zeros[:sitLen-40]...)
}

// appendSeat appends p as a seat, with its token (the joiner's nonce).
func (p *packet) appendSeat(dst []byte) []byte {
	dst = appendHeader(dst, kindSeat, p.token)
	dst = le.AppendUint32(dst, p.nonce)
	dst = append(dst, p.player, p.players, p.seated, p.hflags)
	for i := range MaxPeers {
		a := p.roster[i]
		if !a.IsValid() {
			dst = append(dst, zeros[:addrLen]...)
			continue
		}
		ip := a.Addr().As16()
		dst = le.AppendUint16(append(dst, ip[:]...), a.Port())
	}
	return dst
}
