package netplay

import "net/netip"

// Accept is a Transport for a host that does not know its peers'
// addresses before they call: its spectators', and, in a two-player
// game, its joiner's, who listen on any port. (A Lobby seats the
// players of a match of any size; app's -host seats them with one and
// its spectators with an Accept.) The host's SessionConfig names
// the joiner by a stand-in address, Unknown, and its spectators by
// SpectatorSeat(0), SpectatorSeat(1) and on. The first hello from an
// address takes a seat: a player's hello the joiner's, a spectator's the
// first free spectator seat. From then on datagrams from that address
// read as from its stand-in, and datagrams to the stand-in go to it.
// Datagrams to an empty seat are dropped (the session resends its
// hellos); datagrams from addresses without a seat pass as they are, so
// the session ignores them as strangers.
//
// Under a Session, a seat goes only to a hello whose fingerprint is the
// session's (tick rate, players, input size, params, build) and whose
// player is the one awaited: garbage shaped like a hello takes none. A
// caller with another fingerprint is refused, naming the difference, and
// the session goes on waiting (SessionStats.Refused counts them). A spectator
// that finds every seat taken (or none offered) is refused, and stops
// with a *SeatError saying why; one calling after the first ticks of the
// match is seated and sent the host's state (see SessionConfig.Spectators). A
// seat is free again when its spectator says goodbye, is dropped (silent,
// or never running on from the states sent to it), or never finishes the
// handshake within
// SessionConfig.DisconnectTimeout, so forged hellos hold seats for that long
// at most. Still, the
// first well-formed hello wins: someone who knows the game's fingerprint
// can take a seat before the friend it was meant for. Give every address
// in SessionConfig where that matters. Accept is not safe for concurrent use,
// like the Session that owns it.
type Accept struct {
	inner      Transport
	seats      [1 + MaxSpectators]netip.AddrPort // the callers: the joiner's, then the spectators'
	spectators int
	// seatable, set by the session over it, checks a hello before it
	// takes a seat.
	seatable func(hello []byte) (spectator, ok bool)
}

// Unknown is the stand-in address in SessionConfig.Addrs for the peer an Accept
// transport waits for: 0.0.0.0:0, which no datagram comes from.
var Unknown = seat(0)

// SpectatorSeat returns the stand-in address of spectator i, 0 to
// MaxSpectators-1, for the SessionConfig.Spectators of a host on an Accept
// transport: 0.0.0.0:(i+1), which no datagram comes from.
func SpectatorSeat(i int) netip.AddrPort { return seat(1 + i) }

func seat(k int) netip.AddrPort { return netip.AddrPortFrom(netip.IPv4Unspecified(), uint16(k)) }

// NewAccept returns a transport over inner that waits for its joiner's
// first hello, and for up to spectators spectators' (at most
// MaxSpectators).
func NewAccept(inner Transport, spectators int) *Accept {
	return &Accept{inner: inner, spectators: min(max(spectators, 0), MaxSpectators)}
}

// Peer returns the address the joiner called from, or the zero AddrPort
// before it called.
func (a *Accept) Peer() netip.AddrPort { return a.seats[0] }

// Caller returns the address of the caller seated at stand-in address
// addr (Unknown or a SpectatorSeat), or addr itself when it is no
// stand-in or its seat is empty: errors name peers by it.
func (a *Accept) Caller(addr netip.AddrPort) netip.AddrPort {
	if k := int(addr.Port()); addr.Addr().IsUnspecified() && k <= a.spectators && a.seats[k].IsValid() {
		return a.seats[k]
	}
	return addr
}

// ReadFrom reads the next datagram, a seated caller's as from its
// stand-in.
func (a *Accept) ReadFrom(b []byte) (int, netip.AddrPort, bool) {
	n, from, ok := a.inner.ReadFrom(b)
	if !ok || from.Addr().IsUnspecified() {
		return n, from, ok
	}
	k := a.find(from)
	if k < 0 && isHello(b[:n]) {
		spectator, ok := b[17] == spectatorIndex, true
		if a.seatable != nil {
			spectator, ok = a.seatable(b[:n])
		}
		if ok {
			k = a.free(spectator)
		}
		if k >= 0 {
			a.seats[k] = from
		}
	}
	if k >= 0 {
		from = seat(k)
	}
	return n, from, true
}

// find returns the seat of addr, or -1.
func (a *Accept) find(addr netip.AddrPort) int {
	for k := range 1 + a.spectators {
		if a.seats[k] == addr {
			return k
		}
	}
	return -1
}

// release frees the seat of stand-in address addr, if it is one: its
// caller's datagrams are a stranger's again, and the next caller may take
// it. The session releases a spectator's seat when it leaves, is dropped,
// is refused, or never finishes the handshake.
func (a *Accept) release(addr netip.AddrPort) {
	if k := int(addr.Port()); addr.Addr().IsUnspecified() && k >= 1 && k <= a.spectators {
		a.seats[k] = netip.AddrPort{}
	}
}

// free returns the free seat for a caller, or -1.
func (a *Accept) free(spectator bool) int {
	if !spectator {
		if a.seats[0].IsValid() {
			return -1
		}
		return 0
	}
	for k := 1; k <= a.spectators; k++ {
		if !a.seats[k].IsValid() {
			return k
		}
	}
	return -1
}

// WriteTo sends b; to a stand-in, it goes to the seat's caller, or
// nowhere before one called.
func (a *Accept) WriteTo(b []byte, to netip.AddrPort) error {
	if to.Addr().IsUnspecified() {
		k := int(to.Port())
		if k > a.spectators || !a.seats[k].IsValid() {
			return nil
		}
		to = a.seats[k]
	}
	return a.inner.WriteTo(b, to)
}

// isHello reports whether b has a hello's size and header (wire_session.go); the
// session checks the rest.
func isHello(b []byte) bool {
	return len(b) == helloLen && b[0] == 'f' && b[1] == 'x' && b[3] == kindHello
}
