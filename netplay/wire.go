package netplay

import (
	"cmp"
	"encoding/binary"
	"errors"
	"math/rand/v2"

	"github.com/fixstep/fixstep/engine"
	"github.com/fixstep/fixstep/internal/fnv"
)

// The wire format. Every datagram starts with an 8-byte header:
//
//	0  "fx"          magic, 2 bytes
//	2  version       ProtocolVersion, 1 byte
//	3  kind          1 hello, 2 refuse, 3 input, 4 bye, 5 sit, 6 seat, 15
//	                 drop; a server's: 7 join, 8 welcome, 9 chunk, 10 update,
//	                 11 final, 14 cookie; a late spectator's: 12 offer, 13 got
//	                 (and 9 chunk)
//	4  token         u32: the receiver's handshake nonce (0 in hello, refuse
//	                 and sit)
//
// All integers are little-endian. After the header, the kinds every
// role speaks (the peer-to-peer ones: wire_session.go; a server's and its
// clients': wire_server.go):
//
//	refuse (25 bytes; the answer to a hello whose fingerprint differs; its
//	layout is the same in every protocol version):
//	8  field u8      what differs: 1 version, 2 tick rate, 3 players,
//	                 4 input size, 5 params, 6 simulation, 7 player,
//	                 8 spectator seats (all taken; ours: how many, 0
//	                 when none are offered), 9 too late (a Server's
//	                 whose match is over; ours and theirs: its tick. A
//	                 peer-to-peer host sends it no more: it sends a late
//	                 spectator its state), 10 table (every player's seat
//	                 is taken; ours: the players), 11 host (a peer-to-peer
//	                 host answers a server's join: the caller should
//	                 -join or -spectate), 12 address (a Server's: the
//	                 seats one address may take are taken; ours: how
//	                 many)
//	9  ours u64      the refuser's value
//	17 theirs u64    the value the hello carried
//
//	bye (21 bytes; a peer leaves):
//	8  reason u8     1 quit, 2 desync, 3 done (the match reached its end),
//	                 4 gone (another player vanished: the sender stops),
//	                 5 diverged (a server drops a client), 6 stalled (a
//	                 server drops a client that acknowledges nothing)
//	9  tick u32      the tick a desync names; the end tick, for done; the
//	                 player that vanished, for gone
//	13 hash u64      for done, the state hash of the game's state after the end
//	                 tick (the state before tick EndTick); 0 otherwise,
//	                 or when the sender's desync check is off
//
//	chunk (20 bytes + data; a slice of a state; token: the client's nonce,
//	or a late spectator's, from its peer-to-peer host: see wire_session.go's offer):
//	8  state u32     the state's tick
//	12 index u32     the slice's index: it holds bytes index·chunkData on
//	16 length u32    the state's length
//	20 data          up to chunkData bytes
//
// Version 2 added the bye's hash and the refuse fields 8 (spectator
// seats) and 9 (too late to watch); version 3 the sit and the seat, the
// refuse field 10 (table) and the bye reason 4 (gone); version 4 the
// server's kinds (wire_server.go), the bye reason 5 (diverged), and the
// late spectator's offer and got; version 5 the server's cookie kind (a
// MAC of 64 bits), the join's secret and probe, the welcome's secret,
// token and settings, the refuse field 12 (address) and the bye reason 6
// (stalled); version 6 the drop (players agree on the tick a lost
// player's seat is empty from), an input's empty seats (flag 4), inputs
// one player passes on for another it drops, the final's rows as changes
// (its key flag), and an update's bitmap as long as the server's window
// (chunkWindow).

// Protocol limits.
const (
	// MaxPacket is the largest datagram the session sends or accepts, in
	// bytes: 508 is the largest UDP payload that every IPv4 path carries
	// without fragmentation (576-byte minimum reassembly, less headers).
	MaxPacket = 508
	// MaxPeers is the most players a session connects, peer to peer: a
	// seat's roster holds that many addresses.
	MaxPeers = 4
	// maxInputSize is engine.MaxInputSize, for the decoders' bounds.
	maxInputSize = engine.MaxInputSize
	// ProtocolVersion is the version of the wire format this package
	// speaks. Peers of other versions are refused.
	ProtocolVersion = 6
)

// Datagram kinds.
const (
	kindHello  = 1
	kindRefuse = 2
	kindInput  = 3
	kindBye    = 4
	kindSit    = 5
	kindSeat   = 6
	kindOffer  = 12 // a state for a late spectator follows in chunks (kindChunk)
	kindGot    = 13 // a late spectator's acknowledgement of chunks
	kindDrop   = 15 // a player's account of the players it drops
)

// Sizes of the fixed parts.
const (
	headerLen = 8
	helloLen  = 40
	refuseLen = 25
	inputHead = 50
	byeLen    = 21
	sitLen    = 88
	seatLen   = 88
	offerLen  = 24
	gotLen    = 24
	dropLen   = 12 + 8*MaxPeers
	addrLen   = 18 // a roster address: u8[16] IP, u16 port
)

// Sit and seat flags.
const (
	sitReady   = 1 // the sit's sim is the joiner's
	seatRoster = 1 // the seat carries the roster
)

// Input packet flags.
const (
	flagHash = 1 << iota
	flagEcho
	flagSeats // the empty seats of the rows carried follow the fixed fields
)

// Bye reasons.
const (
	byeQuit   = 1
	byeDesync = 2
	byeDone   = 3 // the match ended at the bye's tick (SessionConfig.EndTick)
	byeGone   = 4 // the player of the bye's tick vanished: the sender stops
	// byeDiverged: a Server drops a client whose state kept differing
	// from its own; tick is how many times in a row it was sent the
	// server's state.
	byeDiverged = 5
	// byeStalled: a Server drops a client that acknowledged nothing new
	// for DisconnectTimeout while it had data to send it; tick is the
	// server's tick.
	byeStalled = 6
)

// Refuse fields: what differs between two peers' fingerprints.
const (
	fieldVersion = 1 + iota
	fieldTickRate
	fieldPlayers
	fieldInputSize
	fieldParams
	fieldSim
	fieldPlayer
	fieldSeats // not a fingerprint's: no spectator seat is free
	fieldLate  // not a fingerprint's: the match is too far along to watch
	fieldTable // not a fingerprint's: every player's seat is taken
	fieldHost  // not a fingerprint's: a server's join came to a peer-to-peer host
	fieldAddr  // not a fingerprint's: a Server's seats for one address are taken
)

// spectatorIndex is a hello's player byte for a spectator.
const spectatorIndex = 0xff

// Why a datagram was dropped. The values are compared, never wrapped, so
// a malformed datagram costs no allocation.
var (
	errShort   = errors.New("netplay: datagram too short")
	errLong    = errors.New("netplay: datagram too long")
	errMagic   = errors.New("netplay: not a fixstep datagram")
	errVersion = errors.New("netplay: other protocol version")
	errKind    = errors.New("netplay: unknown datagram kind")
	errLength  = errors.New("netplay: datagram length does not match its counts")
	errField   = errors.New("netplay: field out of range")
	errJoin    = errors.New("netplay: a server's join, to a peer-to-peer host")
)

var le = binary.LittleEndian

// newNonce returns a handshake nonce, never 0, drawn from seed (0: a
// random one) and salt, so that roles of one seed (a lobby and its
// session) draw different ones.
func newNonce(seed, salt uint64) uint32 {
	seed = cmp.Or(seed, rand.Uint64())
	rng := rand.NewPCG(seed, seed^salt)
	for {
		if n := uint32(rng.Uint64()); n != 0 {
			return n
		}
	}
}

// paramsHash is the hash of a game's Params that a hello, a sit and a
// join carry: FNV-1a, 64 bits.
func paramsHash(params string) uint64 { return fnv.String(fnv.Offset, params) }

// appendHeader appends the 8-byte header of kind to dst.
func appendHeader(dst []byte, kind uint8, token uint32) []byte {
	dst = append(dst, 'f', 'x', ProtocolVersion, kind)
	return le.AppendUint32(dst, token)
}

// appendRefuse appends a refuse of field.
func appendRefuse(dst []byte, field uint8, ours, theirs uint64) []byte {
	dst = appendHeader(dst, kindRefuse, 0)
	dst = append(dst, field)
	dst = le.AppendUint64(dst, ours)
	return le.AppendUint64(dst, theirs)
}

// appendBye appends a bye.
func appendBye(dst []byte, token uint32, reason uint8, tick uint32, hash uint64) []byte {
	dst = appendHeader(dst, kindBye, token)
	dst = append(dst, reason)
	dst = le.AppendUint32(dst, tick)
	return le.AppendUint64(dst, hash)
}

// zeros pads sits and empty roster entries without allocating.
var zeros [sitLen]byte

// zero reports whether b is all zero bytes.
func zero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// Server datagram kinds.
const (
	kindJoin    = 7
	kindWelcome = 8
	kindChunk   = 9
	kindUpdate  = 10
	kindFinal   = 11
	kindCookie  = 14
)

// Sizes of the server datagrams' fixed parts.
const (
	joinLen     = 56
	cookieLen   = 24
	welcomeHead = 64
	chunkHead   = 20
	updateHead  = 60
	finalHead   = 52
	// chunkData is the most state bytes one chunk carries.
	chunkData = MaxPacket - chunkHead
	// MaxServerParams is the longest ServerConfig.Params, in bytes: what
	// a welcome carries whole.
	MaxServerParams = MaxPacket - welcomeHead
)

// Join, welcome and update flags.
const (
	joinSpectator = 1
	joinProbe     = 2
	updateHash    = 1
	updateResync  = 2
	updateLoading = 4
	finalHash     = 1
	finalEcho     = 2
	finalKey      = 4 // the first row's changes are from zero inputs, not the row before
)

// Welcome seats that are not seats.
const (
	seatSpectator = 0xff
	seatNone      = 0xfe
)

// MaxSeats is the most players a Server seats.
const MaxSeats = 32

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

// chunks returns how many chunks carry n bytes of state (at least one).
func chunks(n int) int {
	if n <= 0 {
		return 1
	}
	return (n + chunkData - 1) / chunkData
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
