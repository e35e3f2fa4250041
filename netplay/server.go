package netplay

import (
	"bytes"
	"cmp"
	"compress/flate"
	"errors"
	"fmt"
	"net/netip"
	"time"

	"github.com/fixstep/fixstep/engine"
)

// checkpoint is a state the server saved before a tick, kept for
// clients that need it.
type checkpoint struct {
	tick     int
	hash     uint64
	state    []byte
	packed   []byte // state compressed, for sending (packedOK)
	packedOK bool
	users    int // transfers sending it
}

// sclient is a server's client: a seated player or a spectator.
type sclient struct {
	on      bool
	addr    netip.AddrPort
	nonce   uint32 // the client's: the token of datagrams to it
	token   uint32 // ours: the token of its datagrams
	secret  uint64 // its session secret: a join with it takes the seat back
	seat    int    // -1: a spectator
	heard   time.Duration
	ack     int // the next tick of final inputs it needs
	recv    int // the next tick of its input we have not got
	in      []byte
	inTick  []int // which tick each row of in holds
	last    []byte
	lead    float64 // how early its inputs arrive, in ticks
	leadOK  bool
	sentTo  int           // the end of the rows sent last
	ackSeen int           // the ack when it last moved
	ackAt   time.Duration // when
	sentAt  time.Duration // when
	rt      roundTrip     // to the client
	row     int           // resyncs in a row
	hashed  int           // the last checkpoint whose hash it sent
	xfer    int           // the checkpoint being sent, -1 none
	xferSt  int           // its tick, once the client acked the welcome
	lastSt  int           // the tick of the last state sent
	vTick   int           // the tick of its first check after a state
	vHash   uint64        // our hash of the state before vTick
	vOK     bool          // vHash is taken
	vDone   bool          // it sent its hash of vTick
	x       sender        // the transfer's slices sent, and acknowledged
	welAt   time.Duration // when the transfer's first welcome went out
	welSent time.Duration // when a welcome last went out
	acked   int           // the slices of the transfer it acknowledged
	credit  int           // the slices it may still be sent before it acknowledges more
	progAt  time.Duration // when its acknowledgements last moved (or its transfer waited its turn)
	done    int           // bye done sends left, at the end
}

// Server runs a match that it owns: the game headless at the fixed tick,
// the clients' inputs (see Client). It is the engine.Game an engine.Loop
// runs (with engine.Headless, or any platform: its Draw draws the game).
//
// Each tick the server reads what the clients sent, and runs the next
// tick with every seat's input: a seated player's that arrived in time,
// or, when it did not, the player's last one repeated, and that
// replacement is final (ServerStats.InputsReplaced). An empty seat's input
// is zero, and engine.Inputs says which seats are taken: a join or a
// leave is an input like any other, the same for every client and in the
// recording. The server never waits for a client.
//
// It sends each client the final inputs of every tick, and every
// HashEvery ticks the hash of its state; a client that joins, falls too
// far behind or finds its hash differs is sent the server's state, in
// acknowledged slices, then the inputs since. A client that keeps
// diverging is dropped with a reason.
//
// Datagrams are hostile until proved otherwise: a join is answered, the
// first time, with a cookie the server does not store (a MAC of the
// address, port and nonce under a rotating key from crypto/rand), smaller
// than the join, and only a join that returns the cookie takes a seat; a
// seat is given back only to its session secret, or once its client is
// silent; one address takes SeatsPerAddr seats; a transfer goes only as
// fast as it is acknowledged, within TransferRate; a client's inputs
// count for its own seat only; malformed datagrams are counted and
// dropped. In steady state an Update allocates nothing, and its datagrams
// carry no world state, only inputs, and of those what changed: about 22
// kbit/s per client at 4 players and 37 at 32, on links of 66 to 201 ms,
// whatever the world's size (BENCHMARKS.md).
type Server struct {
	hooks
	cfg   ServerConfig
	game  engine.Game
	saver engine.Saver
	tr    Transport
	clock engine.Clock
	rec   TickListener

	players, size int
	ticks         tickTime
	params        []byte // cfg.Params
	jar           cookieJar
	xferBits      int // the transfer budget left this tick, in bits
	xferTurn      int // the client whose turn comes first in the budget

	tick    int
	empty   uint32 // the empty seats now
	hist    []byte // keepTicks rows of players·size: final inputs
	zeroRow []byte // a row of zero inputs: what a key row's changes are from
	mask    [keepTicks]uint32
	last    []byte // each seat's last final input
	taken   []int  // the client index of each seat, -1 none
	clients []sclient
	cps     []checkpoint // checkpoints of them, more while every one is being sent
	newest  int          // the newest checkpoint, -1 none
	hashes  [8]tickHash
	scratch []byte // a state saved to be hashed
	zw      *flate.Writer
	zbuf    bytes.Buffer

	err   error
	ended bool
	endAt time.Duration
	final uint64

	stats ServerStats
	rbuf  [MaxPacket + 1]byte
	wbuf  []byte
	sp    sPacket
	pk    packet
}

var _ Match = (*Server)(nil)

// NewServer makes a server of the game on the transport. The game must
// implement engine.Saver; the server never calls its Input.
func NewServer(cfg ServerConfig, game engine.Game, tr Transport) (*Server, error) {
	c, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	saver, ok := game.(engine.Saver)
	if !ok {
		return nil, errors.New("netplay: a server's game must implement engine.Saver")
	}
	s := &Server{hooks: findHooks(game), cfg: c, game: game, saver: saver, tr: tr,
		players: c.Players, size: c.InputSize, newest: -1, jar: newCookieJar()}
	s.clock = cmp.Or[engine.Clock](c.Clock, engine.NewMonoClock())
	s.ticks = newTickTime(c.TPS)
	s.params = []byte(c.Params)
	s.hist = make([]byte, keepTicks*s.players*s.size)
	s.zeroRow = make([]byte, s.players*s.size)
	s.last = make([]byte, s.players*s.size)
	s.taken = make([]int, s.players)
	for i := range s.taken {
		s.taken[i] = -1
	}
	s.empty = uint32(1<<s.players - 1)
	s.cps = make([]checkpoint, checkpoints)
	s.clients = make([]sclient, s.players+c.Spectators)
	for i := range s.clients {
		cl := &s.clients[i]
		cl.in = make([]byte, aheadLen*s.size)
		cl.inTick = make([]int, aheadLen)
		cl.last = make([]byte, s.size)
		cl.xfer = -1
	}
	s.wbuf = make([]byte, 0, MaxPacket)
	return s, nil
}

// SetTickListener sets who hears every tick once it ran (a recording:
// replay.RecordSession), with every seat's input and which seats were
// taken. Every tick the server runs is final.
func (s *Server) SetTickListener(r TickListener) { s.rec = r }

// Stats returns what the server has counted.
func (s *Server) Stats() *ServerStats { return &s.stats }

// Tick returns the server's next tick.
func (s *Server) Tick() uint64 { return uint64(s.tick) }

// MatchStats returns the figures every role counts: ServerStats' own.
func (s *Server) MatchStats() *MatchStats { return &s.stats.MatchStats }

// Settings returns the match's seats, tick rate, input size and Params.
func (s *Server) Settings() Settings {
	return Settings{Players: s.players, TPS: s.cfg.TPS, InputSize: s.size, Params: s.cfg.Params}
}

// Err returns why the server stopped, or nil: engine.ErrStopped at the
// match's end.
func (s *Server) Err() error { return s.err }

// Running reports true: a server runs its ticks from the first Update,
// waiting for no one.
func (s *Server) Running() bool { return true }

// SetTimeScaler does nothing: the server is the clock its clients keep
// to, and it never changes its loop's time scale.
func (s *Server) SetTimeScaler(TimeScaler) {}

// Config returns the server's configuration, defaults filled in.
func (s *Server) Config() ServerConfig { return s.cfg }

// Report is the server's part of a stats line.
func (s *Server) Report() string {
	st := &s.stats
	return fmt.Sprintf(" players=%d spectators=%d joins=%d leaves=%d inputs_replaced=%d inputs_late=%d resyncs=%d dropped=%d stalled=%d hashes_checked=%d down_kbps_per_client=%.1f tick_us_p99=%d packets_bad=%d packets_stale=%d packets_unknown=%d refused=%d probes=%d",
		st.Players, st.Spectators, st.Joins, st.Leaves, st.InputsReplaced, st.InputsLate, st.Resyncs, st.Dropped, st.Stalled, st.Hashes,
		st.DownKbpsPerClient(s.cfg.TPS), st.TickP99()/time.Microsecond, st.PacketsBad, st.PacketsStale, st.PacketsUnknown, st.Refused, st.Probes)
}

// row returns the final inputs of tick f.
func (s *Server) row(f int) []byte {
	n := s.players * s.size
	o := f % keepTicks * n
	return s.hist[o : o+n : o+n]
}

// free returns a checkpoint no transfer uses, other than the newest.
func (s *Server) free() int {
	for i := range s.cps {
		if i != s.newest && s.cps[i].users == 0 {
			return i
		}
	}
	// Every one is being sent (joiners of a large state, slower than
	// HashEvery each): one more, rather than overwrite a state being
	// sent. The slots stay: they serve the next joiners.
	s.cps = append(s.cps, checkpoint{})
	return len(s.cps) - 1
}

// checkpoint saves the state before the next tick, and hashes it.
func (s *Server) checkpoint() {
	i := s.free()
	cp := &s.cps[i]
	cp.state = s.saver.Save(cp.state[:0])
	cp.tick, cp.hash, cp.packedOK = s.tick, engine.StateHash(cp.state), false
	s.newest = i
	s.hashes[s.tick/s.cfg.HashEvery%len(s.hashes)] = tickHash{tick: s.tick, hash: cp.hash, ok: true}
}

// hashAt returns the server's hash of the state before tick c.
func (s *Server) hashAt(c int) (uint64, bool) {
	h := s.hashes[c/s.cfg.HashEvery%len(s.hashes)]
	return h.hash, h.ok && h.tick == c
}

// write sends b to cl.
func (s *Server) write(b []byte, cl *sclient) { s.send(b, cl.addr) }

// send sends b to an address, counting it.
func (s *Server) send(b []byte, to netip.AddrPort) {
	s.stats.PacketsOut++
	s.stats.BytesOut += uint64(len(b))
	s.tr.WriteTo(b, to)
}

// leave frees cl's seat: from the next tick the seat is empty. reason is
// the bye it was dropped with (0: it left, went silent or came back).
func (s *Server) leave(cl *sclient, reason uint8) {
	if !cl.on {
		return
	}
	if cl.xfer >= 0 {
		s.cps[cl.xfer].users--
	}
	if cl.seat >= 0 {
		s.taken[cl.seat] = -1
		s.empty |= 1 << cl.seat
	}
	cl.on = false
	s.stats.Leaves++
	if reason == byeStalled {
		s.stats.Stalled++
	}
}

// drop tells cl why it is dropped (a bye of reason with tick, three
// times, in case of loss) and frees its seat.
func (s *Server) drop(cl *sclient, reason uint8, tick uint32) {
	for range 3 {
		s.write(appendBye(s.wbuf[:0], cl.nonce, reason, tick, 0), cl)
	}
	s.leave(cl, reason)
}

// seatInputs returns a tick's inputs: row holds every seat's, and bit p
// of empty marks seat p as empty.
func seatInputs(row []byte, size int, empty uint32) engine.Inputs {
	return engine.NewInputs(row, size, 0).WithEmptySeats(empty)
}

// clientAt returns the client at address a, or nil.
func (s *Server) clientAt(a netip.AddrPort) *sclient {
	for i := range s.clients {
		if cl := &s.clients[i]; cl.on && cl.addr == a {
			return cl
		}
	}
	return nil
}

// index returns cl's index in s.clients.
func (s *Server) index(cl *sclient) int {
	for i := range s.clients {
		if &s.clients[i] == cl {
			return i
		}
	}
	return -1
}
