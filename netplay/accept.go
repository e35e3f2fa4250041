package netplay

import "net/netip"

// Accept is a Transport for a host that does not know its peer's address
// before the peer calls: a two-player game's -host, where the joiner
// listens on any port. The host's Config.Addrs names the peer by a
// stand-in address (Unknown); the first hello from any address makes that
// address the peer's, and from then on datagrams from it read as from the
// stand-in, and datagrams to the stand-in go to it. Until then those are
// dropped (the session resends its hellos). Datagrams from other addresses
// pass as they are, so the session ignores them as strangers.
//
// The first hello wins: a stranger who calls first takes the seat, and
// the session then refuses or times out. Give both addresses in Config
// where that matters. Accept is not safe for concurrent use, like the
// Session that owns it.
type Accept struct {
	inner Transport
	peer  netip.AddrPort // the caller's address, once known
}

// Unknown is the stand-in address in Config.Addrs for the peer an Accept
// transport waits for: 0.0.0.0:0, which no datagram comes from.
var Unknown = netip.AddrPortFrom(netip.IPv4Unspecified(), 0)

// NewAccept returns a transport over inner that waits for its peer's
// first hello.
func NewAccept(inner Transport) *Accept { return &Accept{inner: inner} }

// Peer returns the address the peer called from, or the zero AddrPort
// before it called.
func (a *Accept) Peer() netip.AddrPort { return a.peer }

// ReadFrom reads the next datagram, the peer's as from Unknown.
func (a *Accept) ReadFrom(b []byte) (int, netip.AddrPort, bool) {
	n, from, ok := a.inner.ReadFrom(b)
	if !ok {
		return n, from, ok
	}
	if !a.peer.IsValid() && isHello(b[:n]) && from != Unknown {
		a.peer = from
	}
	if a.peer.IsValid() && from == a.peer {
		from = Unknown
	}
	return n, from, true
}

// WriteTo sends b; to Unknown, it goes to the peer, or nowhere before the
// peer called.
func (a *Accept) WriteTo(b []byte, to netip.AddrPort) error {
	if to == Unknown {
		if !a.peer.IsValid() {
			return nil
		}
		to = a.peer
	}
	return a.inner.WriteTo(b, to)
}

// isHello reports whether b has a hello's size and header (wire.go); the
// session checks the rest.
func isHello(b []byte) bool {
	return len(b) == helloLen && b[0] == 'f' && b[1] == 'x' && b[3] == kindHello
}
