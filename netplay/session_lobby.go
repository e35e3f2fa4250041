package netplay

import (
	"cmp"
	"fmt"
	"net/netip"
	"time"

	"github.com/fixstep/fixstep/engine"
)

// Lobby seats the players of a match before it starts, so that no peer
// needs another's address up front: a host that knows how many players
// its match has (SessionConfig.Players) waits for callers, and a joiner that
// knows only the host's address (SessionConfig.Host) calls it. Each caller of
// the same game takes the next free seat, in the order they call: players
// 2, 3 and 4 (indices 1 to 3). Once every seat is taken by a caller
// ready to play (its Sim is the host's), the host sends each caller the
// roster, every player's address as the host sees it; Config then
// returns a SessionConfig with every address, and the sessions make
// their mesh, peer to peer, as if the addresses had been known from the
// start. The host relays nothing: its part ends when every caller's
// session has called it.
//
// A joiner learns the player count from the host (Players, once seated),
// before it builds its world; once built, it must call SetSim with the
// world's Sim (engine.Fingerprint of it; 0 where Sim is not used), which
// the host checks before the seat counts as taken. A joiner's
// SessionConfig.Players, when set, is the count it asks for: a host of another
// count refuses it.
//
// The lobby speaks the session's protocol (wire_session.go: the sit and the seat):
// a caller whose version, tick rate, input size, Params or Sim differs is
// refused, naming the field, and the host goes on waiting (SessionStats.Refused);
// a caller that finds every seat taken stops with a *SeatError. A seat is
// free again when its caller is silent before the table is full, for
// DisconnectTimeout once it is ready, for HandshakeTimeout before (it may
// be building its world, loading what it draws); once the roster went
// out, a caller whose session does not call the host within
// HandshakeTimeout stops the host's Poll with a *DisconnectError
// (Handshake). A joiner whose host does not answer for HandshakeTimeout
// stops the same way. Datagrams are hostile as in a Session: a sit is as
// large as any answer to it, a seat must carry the joiner's nonce and
// come from the host's address, forged and malformed ones are counted
// (SessionStats.PacketsStale, PacketsBad, PacketsUnknown) and change nothing.
// The first well-formed sit wins a seat, as with Accept.
//
// Spectators call the host's Session, once the match started: a hello
// during the lobby is dropped, and the spectator's calls go on. A Lobby
// is driven like a Session, by the caller's loop: Poll until Done, then
// NewSession with Config on the same transport; or give it to
// NewLobbySession, and the session polls it. The roster holds the
// addresses the host sees: joiners that cannot reach each other there
// (behind different NATs) cannot play, as nothing is relayed. A Lobby is
// not safe for concurrent use.
type Lobby struct {
	cfg    SessionConfig // as given, for Config
	c      SessionConfig // defaults filled in
	tr     Transport
	clock  engine.Clock
	host   bool
	nonce  uint32
	params uint64
	err    error
	begun  bool
	start  time.Duration
	in     [MaxPacket]byte
	out    [MaxPacket]byte
	pk     packet
	stats  SessionStats

	// The host's.
	seats [MaxPeers]lobbySeat // 1 to Players-1
	full  bool                // every seat taken and ready: the roster goes out

	// The joiner's.
	sim       uint64
	ready     bool // SetSim was called
	hostNonce uint32
	seat      int // 0 before seated
	players   int // 0 before seated
	roster    [MaxPeers]netip.AddrPort
	done      bool
	lastSit   time.Duration
	sitSent   bool
	lastRecv  time.Duration
}

// lobbySeat is a host's seat for a joiner.
type lobbySeat struct {
	addr     netip.AddrPort // zero: free
	nonce    uint32
	lastRecv time.Duration
	ready    bool // its Sim is ours
	playing  bool // its session called: it has the roster
}

// NewLobby returns the lobby of a host (cfg.Host unset: it seats
// cfg.Players players, 2 to MaxPeers, itself player 1) or of a joiner
// (cfg.Host is the host's address), over tr, or an error naming the first
// invalid SessionConfig field. cfg is what NewSession will get, without Local,
// Addrs or Spectate; Config returns it with them.
func NewLobby(cfg SessionConfig, tr Transport) (*Lobby, error) {
	l := &Lobby{cfg: cfg, tr: tr, host: !cfg.Host.IsValid()}
	v := cfg
	if cfg.Spectate || cfg.Local != 0 || len(cfg.Addrs) != 0 {
		return nil, fmt.Errorf("netplay: a Lobby's SessionConfig has no Spectate, Local or Addrs: it finds them")
	}
	v.Players = cmp.Or(v.Players, 2) // a joiner's: any, the host says
	if v.Players >= 2 && v.Players <= MaxPeers {
		v.Addrs = make([]netip.AddrPort, v.Players)
		for i := range v.Addrs {
			v.Addrs[i] = seat(i + 1) // stand-ins, for the checks only
		}
	}
	c, err := v.withDefaults()
	if err != nil {
		return nil, err
	}
	l.c, l.params, l.sim = c, paramsHash(c.Params), c.Sim
	l.clock, l.nonce = cmp.Or[engine.Clock](c.Clock, engine.NewMonoClock()), newNonce(c.Seed, 0x6a09e667f3bcc909)
	if l.host {
		l.players = c.Players
	}
	return l, nil
}

// SetSim gives a joiner its SessionConfig.Sim, once it built its world for
// Players: its seat counts as taken once the host found it the same.
// Until then the host holds the seat, and sends no roster.
func (l *Lobby) SetSim(sim uint64) { l.sim, l.ready = sim, true }

// Players returns the match's player count: the host's SessionConfig.Players,
// or, for a joiner, 0 until the host seated it.
func (l *Lobby) Players() int { return l.players }

// Local returns this peer's player: 0 for the host, a joiner's seat (1
// to Players-1) once seated, else -1.
func (l *Lobby) Local() int {
	if l.host {
		return 0
	}
	if l.seat == 0 {
		return -1
	}
	return l.seat
}

// Done reports whether the lobby's work is over: a joiner has the roster;
// a host sent it and every joiner's session called.
func (l *Lobby) Done() bool {
	if !l.host {
		return l.done
	}
	if !l.full {
		return false
	}
	for k := 1; k < l.players; k++ {
		if !l.seats[k].playing {
			return false
		}
	}
	return true
}

// Stats returns the lobby's counts of datagrams (the Packets and Bytes
// fields, Refused).
func (l *Lobby) Stats() *SessionStats { return &l.stats }

// Config returns the SessionConfig of this peer's Session: the one NewLobby got,
// with Players, Local and every player's address. Call it once Done.
func (l *Lobby) Config() SessionConfig {
	c := l.cfg
	c.Players, c.Local, c.Host = l.players, l.Local(), netip.AddrPort{}
	c.Addrs = make([]netip.AddrPort, l.players)
	if !l.host {
		c.Sim = l.sim
	}
	for p := range c.Addrs {
		switch {
		case p == c.Local:
		case l.host:
			c.Addrs[p] = l.seats[p].addr
		case p == 0:
			c.Addrs[p] = l.cfg.Host
		default:
			c.Addrs[p] = l.roster[p]
		}
	}
	return c
}

// Poll reads what arrived, answers it, and sends what is due (a joiner
// calls the host every 100 ms until it has the roster). It returns why
// the lobby stopped, the same error on every later call: a refusal
// (*FingerprintError, *SeatError) or a *DisconnectError. Call it every
// few milliseconds until Done.
func (l *Lobby) Poll() error {
	if l.err != nil {
		return l.err
	}
	now := l.clock.Now()
	if !l.begun {
		l.begun, l.start, l.lastRecv = true, now, now
	}
	for range maxReads {
		n, from, ok := l.tr.ReadFrom(l.in[:])
		if !ok {
			break
		}
		l.stats.PacketsIn++
		l.stats.BytesIn += uint64(n)
		if l.host {
			l.hostRead(from, n, now)
		} else {
			l.joinRead(from, n, now)
		}
		if l.err != nil {
			return l.err
		}
	}
	if l.host {
		l.hostWatch(now)
	} else {
		l.joinSend(now)
	}
	return l.err
}

// hostRead handles a datagram of n bytes from a caller.
func (l *Lobby) hostRead(from netip.AddrPort, n int, now time.Duration) {
	k := l.seatOf(from)
	pk := &l.pk
	err := pk.decode(l.in[:n])
	switch {
	case err == errVersion && (pk.kind == kindSit || pk.kind == kindHello):
		// A joiner of another version (before 3, a joiner's first word
		// was a hello) learns why, instead of waiting out its timeout.
		l.refuse(from, n, fieldVersion, ProtocolVersion, uint64(pk.version))
	case err == errJoin:
		l.refuse(from, n, fieldHost, 0, 0) // a client looking for a server
	case err != nil:
		l.stats.PacketsBad++
	case pk.kind == kindSit:
		l.onSit(k, from, n, now)
	case k > 0 && l.full && pk.kind == kindHello:
		l.seats[k].playing, l.seats[k].lastRecv = true, now // its session calls: it has the roster
	case k > 0:
		l.stats.PacketsStale++
	default:
		l.stats.PacketsUnknown++ // a spectator too early, or a stranger
	}
}

// onSit seats a caller, or answers its sit again, or refuses it.
func (l *Lobby) onSit(k int, from netip.AddrPort, n int, now time.Duration) {
	pk := &l.pk
	if k > 0 && pk.nonce != l.seats[k].nonce {
		l.stats.PacketsStale++ // a forgery, or a restarted caller: the seat is its first nonce's
		return
	}
	if k < 0 {
		if field, ours, theirs := l.differs(pk); field != 0 {
			l.refuse(from, n, field, ours, theirs)
			return
		}
		if k = l.free(); k < 0 {
			l.refuse(from, n, fieldTable, uint64(l.players), 0)
			return
		}
		l.seats[k] = lobbySeat{addr: from, nonce: pk.nonce}
	}
	st := &l.seats[k]
	st.lastRecv = now
	if pk.hflags&sitReady != 0 && !st.ready {
		if pk.sim != l.sim {
			l.refuse(from, n, fieldSim, l.sim, pk.sim)
			*st = lobbySeat{} // not full yet, as this seat was not ready
			return
		}
		st.ready = true
		l.full = true
		for j := 1; j < l.players; j++ {
			l.full = l.full && l.seats[j].ready
		}
	}
	l.answer(k, n)
}

// differs returns the first field of sit pk that does not match this
// host's match, with both values, or 0.
func (l *Lobby) differs(pk *packet) (field uint8, ours, theirs uint64) {
	switch {
	case int(pk.tps) != l.c.TPS:
		return fieldTickRate, uint64(l.c.TPS), uint64(pk.tps)
	case pk.players != 0 && int(pk.players) != l.players:
		return fieldPlayers, uint64(l.players), uint64(pk.players)
	case int(pk.isize) != l.c.InputSize:
		return fieldInputSize, uint64(l.c.InputSize), uint64(pk.isize)
	case pk.params != l.params:
		return fieldParams, l.params, pk.params
	}
	return 0, 0, 0
}

// seatOf returns the seat of addr, or -1.
func (l *Lobby) seatOf(addr netip.AddrPort) int {
	for k := 1; k < l.players; k++ {
		if l.seats[k].addr == addr {
			return k
		}
	}
	return -1
}

// free returns the first free seat, or -1.
func (l *Lobby) free() int {
	if l.full {
		return -1
	}
	for k := 1; k < l.players; k++ {
		if !l.seats[k].addr.IsValid() {
			return k
		}
	}
	return -1
}

// answer sends seat k's caller its seat, with the roster once the table
// is full, in a datagram no larger than its sit of n bytes.
func (l *Lobby) answer(k, n int) {
	st := &l.seats[k]
	pk := &l.pk
	*pk = packet{token: st.nonce, nonce: l.nonce, player: uint8(k), players: uint8(l.players), seated: 1}
	for j := 1; j < l.players; j++ {
		if l.seats[j].addr.IsValid() {
			pk.seated++
		}
	}
	if l.full {
		pk.hflags = seatRoster
		for j := 1; j < l.players; j++ {
			pk.roster[j] = l.seats[j].addr
		}
	}
	if seatLen <= n {
		l.write(pk.appendSeat(l.out[:0]), st.addr)
	}
}

// refuse answers a sit of n bytes with a refuse of field, if that is no
// larger, and goes on waiting.
func (l *Lobby) refuse(to netip.AddrPort, n int, field uint8, ours, theirs uint64) {
	if field == fieldHost {
		l.stats.Probes++ // a server's probe: answered, not refused
	} else {
		l.stats.Refused++
	}
	if refuseLen <= n {
		l.write(appendRefuse(l.out[:0], field, ours, theirs), to)
	}
}

// hostWatch frees the seats of callers gone silent before the table was
// full, and stops the lobby when one that had the roster does not call.
func (l *Lobby) hostWatch(now time.Duration) {
	for k := 1; k < l.players; k++ {
		st := &l.seats[k]
		switch silence := now - st.lastRecv; {
		case !st.addr.IsValid() || st.playing:
		case !l.full && (st.ready && silence > l.c.DisconnectTimeout || silence > l.c.HandshakeTimeout):
			*st = lobbySeat{} // a caller not ready yet may be building its world: it has HandshakeTimeout
		case l.full && silence > l.c.HandshakeTimeout:
			l.err = &DisconnectError{Player: k, Addr: st.addr, Silence: silence, Handshake: true}
			return
		}
	}
}

// joinRead handles a datagram of n bytes: only the host's count.
func (l *Lobby) joinRead(from netip.AddrPort, n int, now time.Duration) {
	if from != l.cfg.Host {
		l.stats.PacketsUnknown++ // another joiner's session, early, or a stranger
		return
	}
	pk := &l.pk
	if err := pk.decode(l.in[:n]); err != nil {
		l.stats.PacketsBad++
		return
	}
	switch {
	case l.done, pk.kind == kindRefuse && pk.field == fieldHost: // the latter answers a probe, not us
		l.stats.PacketsStale++
	case pk.kind == kindRefuse && pk.field == fieldTable:
		l.err = &SeatError{Addr: from, Players: int(min(max(pk.ours, 2), MaxPeers))}
	case pk.kind == kindRefuse && pk.field != fieldSeats && pk.field != fieldLate:
		l.err = &FingerprintError{Player: 0, Addr: from, Field: fieldNames[pk.field], Ours: pk.theirs, Theirs: pk.ours, Refused: true}
	case pk.kind != kindSeat || pk.token != l.nonce:
		l.stats.PacketsStale++
	case l.seat != 0 && (int(pk.players) != l.players || pk.nonce != l.hostNonce),
		l.cfg.Players != 0 && int(pk.players) != l.cfg.Players:
		l.stats.PacketsBad++ // the host does not change its match (a seat may change, freed while silent)
	default:
		l.hostNonce, l.seat, l.players, l.lastRecv = pk.nonce, int(pk.player), int(pk.players), now
		if pk.hflags&seatRoster != 0 {
			l.roster, l.done = pk.roster, true
		}
	}
}

// joinSend calls the host every helloEvery until the roster came, and
// stops the lobby when the host has been silent for HandshakeTimeout.
func (l *Lobby) joinSend(now time.Duration) {
	if l.done {
		return
	}
	if silence := now - l.lastRecv; silence > l.c.HandshakeTimeout {
		l.err = &DisconnectError{Player: 0, Addr: l.cfg.Host, Silence: silence, Handshake: true}
		return
	}
	if l.sitSent && now-l.lastSit < helloEvery {
		return
	}
	pk := &l.pk
	*pk = packet{nonce: l.nonce, echo: l.hostNonce, players: uint8(l.cfg.Players), player: uint8(l.seat),
		isize: uint8(l.c.InputSize), tps: uint32(l.c.TPS), params: l.params}
	if l.ready {
		pk.hflags, pk.sim = sitReady, l.sim
	}
	l.sitSent, l.lastSit = true, now
	l.write(pk.appendSit(l.out[:0]), l.cfg.Host)
}

// write sends b to addr, counting it; a transport that cannot send stops
// the lobby.
func (l *Lobby) write(b []byte, to netip.AddrPort) {
	if err := l.tr.WriteTo(b, to); err != nil {
		l.err = fmt.Errorf("netplay: send to %v: %w", to, err)
		return
	}
	l.stats.PacketsOut++
	l.stats.BytesOut += uint64(len(b))
}
