package netplay

import (
	"bytes"
	"compress/flate"
	"errors"
	"fmt"
	"math/bits"
	"net/netip"
	"time"

	"github.com/fixstep/fixstep/engine"
)

// Server limits and defaults.
const (
	// MaxServerSpectators is the most spectators a Server feeds.
	MaxServerSpectators = 32
	// DefaultMaxResyncs is how many times in a row a Server sends a
	// client its state before it drops the client as diverged.
	DefaultMaxResyncs = 3
	// keepTicks is how many ticks of final inputs a Server keeps: a joiner
	// must receive its state and start asking for inputs within that.
	keepTicks = 1024
	// aheadLen is how many ticks past the server's tick a client's input
	// may be for; later ones are dropped.
	aheadLen = 64
	// checkpoints is how many saved states a Server keeps for transfers.
	checkpoints = 4
	// verifyTicks is how many ticks after a client is sent a state the
	// server hashes its state for that client: the first check of a
	// joiner, a quarter second in at 60 TPS, rather than at the next
	// HashEvery.
	verifyTicks = 15
	// sendEvery is how many ticks apart a Server sends a client its
	// final inputs in steady state.
	sendEvery = 2
	// DefaultTransferRate is the ServerConfig.TransferRate a zero value
	// means: 32 Mbit/s, four joiners at a time at the most a Server sends
	// one (chunksPerTick, 7.8 Mbit/s at 60 TPS).
	DefaultTransferRate = 32_000_000
	// DefaultSeatsPerAddr is the ServerConfig.SeatsPerAddr a zero value
	// means.
	DefaultSeatsPerAddr = 4
)

// ServerConfig sets up a Server. InputSize must be set; every other zero
// field means its default.
type ServerConfig struct {
	// Players is the number of seats, 1 to MaxSeats. Zero means 2.
	Players int
	// Spectators is how many spectators the server feeds, 0 to
	// MaxServerSpectators.
	Spectators int
	// InputSize is the game's per-tick input size, 1 to
	// engine.MaxInputSize.
	InputSize int
	// TPS is the loop's tick rate. Zero means engine.DefaultTPS.
	TPS int
	// Params and Sim are the game's, as in SessionConfig: a client whose differ
	// is refused, naming the field.
	Params string
	Sim    uint64
	// HashEvery is how many ticks apart the server saves its state,
	// hashes it and sends the hash to its clients. Zero means TPS.
	HashEvery int
	// EndTick ends the match after that many ticks: the server sends the
	// end state's hash to every client, waits for them to have every
	// input (at most DisconnectTimeout), and its Update returns
	// engine.ErrStopped. Zero: the match runs until the loop stops.
	EndTick uint64
	// DisconnectTimeout is the silence after which a client's seat is
	// freed. Zero means 2 s.
	DisconnectTimeout time.Duration
	// MaxResyncs is how many times in a row the server sends a client its
	// state, the client's hash differing each time, before it drops the
	// client. Zero means DefaultMaxResyncs.
	MaxResyncs int
	// TransferRate is the most the server spends sending states (joins,
	// resyncs) to all its clients together, in bits per second of UDP
	// payload: joiners share it evenly, each at most chunksPerTick slices
	// a tick, and wait their turn beyond it. Zero means
	// DefaultTransferRate.
	TransferRate int
	// SeatsPerAddr is how many seats (players' and spectators' together)
	// clients from one address may take: one IPv4 address, or one IPv6
	// /64 network (what one subscriber is given). A join past it is
	// refused, naming the limit. Zero means DefaultSeatsPerAddr.
	SeatsPerAddr int
	// Clock is the server's time. Nil means the real monotonic clock.
	Clock engine.Clock
}

// withDefaults returns c with its zero fields set, or an error naming the
// field out of range.
func (c ServerConfig) withDefaults() (ServerConfig, error) {
	if c.Players == 0 {
		c.Players = 2
	}
	if c.TPS == 0 {
		c.TPS = engine.DefaultTPS
	}
	if c.HashEvery == 0 {
		c.HashEvery = c.TPS
	}
	if c.DisconnectTimeout == 0 {
		c.DisconnectTimeout = DefaultDisconnectTimeout
	}
	if c.MaxResyncs == 0 {
		c.MaxResyncs = DefaultMaxResyncs
	}
	if c.TransferRate == 0 {
		c.TransferRate = DefaultTransferRate
	}
	if c.SeatsPerAddr == 0 {
		c.SeatsPerAddr = DefaultSeatsPerAddr
	}
	switch {
	case c.Players < 1 || c.Players > MaxSeats:
		return c, fmt.Errorf("netplay: ServerConfig.Players = %d: must be 1 to %d", c.Players, MaxSeats)
	case c.Spectators < 0 || c.Spectators > MaxServerSpectators:
		return c, fmt.Errorf("netplay: ServerConfig.Spectators = %d: must be 0 to %d", c.Spectators, MaxServerSpectators)
	case c.InputSize < 1 || c.InputSize > maxInputSize:
		return c, fmt.Errorf("netplay: ServerConfig.InputSize = %d: must be 1 to %d", c.InputSize, maxInputSize)
	case c.TPS < 1 || c.TPS > engine.MaxTPS:
		return c, fmt.Errorf("netplay: ServerConfig.TPS = %d: must be 1 to %d", c.TPS, engine.MaxTPS)
	case c.HashEvery < 1 || c.HashEvery > 1<<16-1 || c.HashEvery*checkpoints >= keepTicks:
		return c, fmt.Errorf("netplay: ServerConfig.HashEvery = %d: must be 1 to %d", c.HashEvery, keepTicks/checkpoints-1)
	case c.DisconnectTimeout < 0:
		return c, fmt.Errorf("netplay: ServerConfig.DisconnectTimeout = %v: must not be negative", c.DisconnectTimeout)
	case c.MaxResyncs < 1:
		return c, fmt.Errorf("netplay: ServerConfig.MaxResyncs = %d: must be at least 1", c.MaxResyncs)
	case c.EndTick >= 1<<31:
		return c, fmt.Errorf("netplay: ServerConfig.EndTick = %d: must be under 2^31", c.EndTick)
	case len(c.Params) > MaxServerParams:
		return c, fmt.Errorf("netplay: ServerConfig.Params is %d bytes: must be at most %d, what a welcome carries", len(c.Params), MaxServerParams)
	case c.TransferRate < minTransferRate:
		return c, fmt.Errorf("netplay: ServerConfig.TransferRate = %d: must be at least %d bits/s", c.TransferRate, minTransferRate)
	case c.SeatsPerAddr < 1:
		return c, fmt.Errorf("netplay: ServerConfig.SeatsPerAddr = %d: must be at least 1", c.SeatsPerAddr)
	}
	return c, nil
}

// ServerStats is what a Server has counted. Its MatchStats' Hashes and
// Desyncs count clients' hashes compared with the server's, equal and not.
type ServerStats struct {
	MatchStats
	// Players and Spectators are the seats and spectator seats taken now.
	Players, Spectators int
	// Joins counts clients seated (players and spectators), Leaves those
	// that left, went silent past DisconnectTimeout or were dropped.
	Joins, Leaves uint64
	// InputsReplaced counts seated players' inputs that did not arrive in
	// time for their tick and were replaced by the player's last one;
	// InputsLate counts inputs that arrived after their tick ran.
	InputsReplaced, InputsLate uint64
	// Resyncs counts the states sent to clients whose hash differed (or
	// that fell too far behind); Dropped the clients dropped for
	// diverging MaxResyncs times in a row; Stalled those dropped for
	// acknowledging nothing new for DisconnectTimeout while the server had
	// a state or inputs to send them (a transfer or a stream that makes no
	// progress ends there).
	Resyncs, Dropped, Stalled uint64
	// StatesSent counts states sent (joins, resyncs), ChunksSent their
	// slices, resends included.
	StatesSent, ChunksSent uint64
	// Refused counts joins refused (another game, no seat free, the
	// address's seats taken); Probes the probes answered with the
	// settings (Probe).
	Refused, Probes uint64
	// BytesFinal counts the bytes of final inputs sent (the steady
	// downstream, states excluded).
	BytesFinal             uint64
	tickUS                 [tickBuckets]uint32
	tickCount, clientTicks uint64
}

// The buckets of the server's tick times: 1 µs each below 32 µs, then 32
// a doubling (each 3 % wide at most), up to 2^32 µs (71 minutes), so no
// time a tick can take is cut short.
const (
	tickSub     = 32
	tickBuckets = tickSub + 27*tickSub
)

// tickBucket returns the bucket of a tick time of us µs.
func tickBucket(us uint64) int {
	if us < tickSub {
		return int(us)
	}
	us = min(us, 1<<32-1)
	e := bits.Len64(us) - 6 // us>>e is in [32, 64)
	return tickSub + e*tickSub + int(us>>e) - tickSub
}

// tickTop returns the largest time, in µs, of bucket i.
func tickTop(i int) uint64 {
	if i < tickSub {
		return uint64(i)
	}
	e := (i - tickSub) / tickSub
	return (uint64(tickSub+(i-tickSub)%tickSub)+1)<<e - 1
}

// TickP99 returns the 99th percentile of the server's Update times (game
// tick included), rounded up to its bucket's top: to 1 µs under 32 µs,
// and to 3 % above, however long a tick took.
func (st *ServerStats) TickP99() time.Duration {
	want := st.tickCount - st.tickCount/100
	var seen uint64
	for i, n := range st.tickUS {
		seen += uint64(n)
		if seen >= want && n > 0 {
			return time.Duration(tickTop(i)) * time.Microsecond
		}
	}
	return 0
}

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
// dropped. In steady state an Update allocates nothing.
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
	s := &Server{hooks: findHooks(game), cfg: c, game: game, saver: saver, tr: tr, clock: c.Clock,
		players: c.Players, size: c.InputSize, newest: -1, jar: newCookieJar()}
	if s.clock == nil {
		s.clock = engine.NewMonoClock()
	}
	s.ticks = newTickTime(c.TPS)
	s.params = []byte(c.Params)
	s.hist = make([]byte, keepTicks*s.players*s.size)
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

// Update runs one tick of the match (see Server). It returns the game's
// errors, and engine.ErrStopped once a match with an EndTick is over.
func (s *Server) Update(t engine.Tick) error {
	if s.err != nil {
		return s.err
	}
	if err := s.ticks.check(t, "ServerConfig.TPS"); err != nil {
		s.err = err
		return err
	}
	now := s.clock.Now()
	s.poll(now)
	s.watch(now)
	if s.cfg.EndTick > 0 && uint64(s.tick) >= s.cfg.EndTick {
		return s.ending(now)
	}
	if s.tick%s.cfg.HashEvery == 0 {
		s.checkpoint()
	}
	s.verifyHashes()
	if err := s.run(t); err != nil {
		s.err = err
		return err
	}
	if s.cfg.EndTick > 0 && uint64(s.tick) == s.cfg.EndTick {
		s.scratch = s.saver.Save(s.scratch[:0])
		s.final = engine.StateHash(s.scratch)
		s.endAt = now
	}
	s.sendAll(now)
	d := s.clock.Now() - now
	s.stats.tickUS[tickBucket(uint64(d/time.Microsecond))]++
	s.stats.tickCount++
	s.fill()
	return nil
}

// run runs the server's next tick on the inputs it has.
func (s *Server) run(t engine.Tick) error {
	f := s.tick
	row := s.row(f)
	for seat := range s.players {
		dst := row[seat*s.size : (seat+1)*s.size]
		ci := s.taken[seat]
		if ci < 0 {
			clear(dst)
			continue
		}
		cl := &s.clients[ci]
		if i := f % aheadLen; cl.inTick[i] == f {
			copy(dst, cl.in[i*s.size:(i+1)*s.size])
		} else {
			copy(dst, cl.last)
			s.stats.InputsReplaced++
		}
		copy(cl.last, dst)
	}
	s.mask[f%keepTicks] = s.empty
	in := seatInputs(row, s.size, s.empty)
	t = s.ticks.tick(t, f, false)
	t.Input = in
	if err := s.game.Update(t); err != nil {
		return err
	}
	if s.rec != nil {
		var st []byte
		if n := s.newest; n >= 0 && s.cps[n].tick == f {
			st = s.cps[n].state
		}
		if err := s.rec.Confirmed(uint64(f), in, st); err != nil {
			return fmt.Errorf("netplay: record tick %d: %w", f, err)
		}
	}
	s.tick++
	for i := range s.clients {
		if cl := &s.clients[i]; cl.on {
			s.stats.clientTicks++
		}
	}
	return nil
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

// verifyHashes hashes the state for the clients whose first check is
// this tick.
func (s *Server) verifyHashes() {
	var h uint64
	done := false
	for i := range s.clients {
		cl := &s.clients[i]
		if !cl.on || cl.vOK || cl.vTick != s.tick {
			continue
		}
		if !done {
			if n := s.newest; n >= 0 && s.cps[n].tick == s.tick {
				h = s.cps[n].hash
			} else {
				s.scratch = s.saver.Save(s.scratch[:0])
				h = engine.StateHash(s.scratch)
			}
			done = true
		}
		cl.vHash, cl.vOK = h, true
	}
}

// hashAt returns the server's hash of the state before tick c.
func (s *Server) hashAt(c int) (uint64, bool) {
	h := s.hashes[c/s.cfg.HashEvery%len(s.hashes)]
	return h.hash, h.ok && h.tick == c
}

// ending runs the match's end: no tick runs; the clients get their last
// inputs and the end state's hash, then the server stops.
func (s *Server) ending(now time.Duration) error {
	if !s.ended {
		s.ended = true
		for i := range s.clients {
			s.clients[i].done = 3
		}
	}
	s.sendAll(now)
	left := false
	for i := range s.clients {
		cl := &s.clients[i]
		if !cl.on {
			continue
		}
		if cl.ack >= s.tick && cl.xfer < 0 && cl.done > 0 {
			s.write(appendBye(s.wbuf[:0], cl.nonce, byeDone, uint32(s.tick), s.final), cl)
			cl.done--
		}
		if cl.done > 0 {
			left = true
		}
	}
	s.fill()
	if left && now-s.endAt < s.cfg.DisconnectTimeout {
		return nil
	}
	s.err = engine.ErrStopped
	return s.err
}

// Close tells every client the server stops, and stops: later Updates
// return ErrClosed. It does not close the transport.
func (s *Server) Close() error {
	if s.err == nil || errors.Is(s.err, engine.ErrStopped) {
		for i := range s.clients {
			if cl := &s.clients[i]; cl.on && s.err == nil {
				for range 3 {
					s.write(appendBye(s.wbuf[:0], cl.nonce, byeQuit, uint32(s.tick), 0), cl)
				}
			}
		}
		s.err = ErrClosed
	}
	return nil
}

// Begin reads the clients' datagrams between ticks, so that a handshake
// is answered at once, then runs the game's Begin, if it has one.
func (s *Server) Begin(f engine.Frame) error {
	if s.err != nil {
		return s.err
	}
	s.poll(s.clock.Now())
	return s.beginGame(f) // Local -1: a server plays no seat
}

// fill refreshes the stats that are states.
func (s *Server) fill() {
	st := &s.stats
	st.Tick, st.Confirmed, st.TimeScale = uint64(s.tick), uint64(s.tick), 1
	st.Players, st.Spectators = 0, 0
	for i := range s.clients {
		if cl := &s.clients[i]; cl.on {
			if cl.seat >= 0 {
				st.Players++
			} else {
				st.Spectators++
			}
		}
	}
}

// DownKbpsPerClient is the mean downstream of final inputs to a client,
// in kbit/s of UDP payload plus 28 bytes of IPv4 and UDP headers per
// datagram, over the client-ticks the server ran.
func (st *ServerStats) DownKbpsPerClient(tps int) float64 {
	if st.clientTicks == 0 {
		return 0
	}
	return float64(st.BytesFinal) * 8 / 1000 / (float64(st.clientTicks) / float64(tps))
}

// Report is the server's part of a stats line.
func (s *Server) Report() string {
	st := &s.stats
	return fmt.Sprintf(" players=%d spectators=%d joins=%d leaves=%d inputs_replaced=%d inputs_late=%d resyncs=%d dropped=%d stalled=%d hashes_checked=%d down_kbps_per_client=%.1f tick_us_p99=%d packets_bad=%d packets_stale=%d packets_unknown=%d refused=%d probes=%d",
		st.Players, st.Spectators, st.Joins, st.Leaves, st.InputsReplaced, st.InputsLate, st.Resyncs, st.Dropped, st.Stalled, st.Hashes,
		st.DownKbpsPerClient(s.cfg.TPS), st.TickP99()/time.Microsecond, st.PacketsBad, st.PacketsStale, st.PacketsUnknown, st.Refused, st.Probes)
}

// seatInputs returns a tick's inputs: row holds every seat's, and bit p
// of empty marks seat p as empty.
func seatInputs(row []byte, size int, empty uint32) engine.Inputs {
	return engine.NewInputs(row, size, 0).WithEmptySeats(empty)
}
