package netplay

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net/netip"
	"time"

	"github.com/fixstep/fixstep/engine"
)

// Client defaults and limits.
const (
	// DefaultClientPrediction is how many ticks past the server's last
	// final one a Client predicts before it stalls: enough for a 500 ms
	// round trip at 60 TPS.
	DefaultClientPrediction = 40
	// MaxClientPrediction is the largest ClientConfig.MaxPrediction.
	MaxClientPrediction = 96
	// DefaultLead is how many ticks before the server needs it a
	// client's input aims to arrive.
	DefaultLead = 3
	// clientRing is how many ticks of rows a Client keeps: a joiner that
	// loaded its state far behind takes the server's rows in bursts of
	// up to that many while it runs to the present (128 held it to about
	// 24 ticks a second of catching up at 151 ms).
	clientRing = 512
	// jumpTicks is how far from where it should be a client is before it
	// jumps there instead of changing its speed.
	jumpTicks = 12
)

// ClientConfig sets up a Client. Server and InputSize must be set; every
// other zero field means its default.
type ClientConfig struct {
	// Server is the server's address.
	Server netip.AddrPort
	// Spectate makes the client a spectator: it takes no seat, sends no
	// input, and runs final ticks only.
	Spectate bool
	// InputSize, TPS, Params and Sim must match the server's (see
	// ServerConfig): a server whose differ refuses the client, naming the
	// field.
	InputSize int
	TPS       int
	Params    string
	Sim       uint64
	// MaxPrediction is how many ticks past the last final one the client
	// predicts before it stalls. Zero means DefaultClientPrediction.
	MaxPrediction int
	// Lead is how many ticks before the server runs a tick the client's
	// input of it aims to arrive: a margin for jitter and loss. Zero
	// means DefaultLead.
	Lead float64
	// DisconnectTimeout is the silence from the server after which Update
	// returns a *DisconnectError. Zero means 2 s. HandshakeTimeout is how
	// long the client calls a server that does not answer. Zero means
	// 10 s.
	DisconnectTimeout time.Duration
	HandshakeTimeout  time.Duration
	// MaxState is the largest state the client accepts, in bytes. Zero
	// means DefaultMaxState.
	MaxState int
	// Clock is the client's time. Nil means the real monotonic clock.
	Clock engine.Clock
	// Seed seeds the handshake nonce. Zero means a random one.
	Seed uint64
	// Secret is the session secret of a seat an earlier client held on
	// this server (its Secret): the server gives this client that seat
	// back at once, from any address, rather than after the old client
	// times out. Zero asks for a free seat.
	Secret uint64
}

func (c ClientConfig) withDefaults() (ClientConfig, error) {
	if c.TPS == 0 {
		c.TPS = engine.DefaultTPS
	}
	if c.MaxPrediction == 0 {
		c.MaxPrediction = DefaultClientPrediction
	}
	if c.Lead == 0 {
		c.Lead = DefaultLead
	}
	if c.DisconnectTimeout == 0 {
		c.DisconnectTimeout = DefaultDisconnectTimeout
	}
	if c.HandshakeTimeout == 0 {
		c.HandshakeTimeout = DefaultHandshakeTimeout
	}
	if c.MaxState == 0 {
		c.MaxState = DefaultMaxState
	}
	switch {
	case !c.Server.IsValid() || c.Server.Port() == 0:
		return c, fmt.Errorf("netplay: ClientConfig.Server = %v: not an address and port", c.Server)
	case c.InputSize < 1 || c.InputSize > maxInputSize:
		return c, fmt.Errorf("netplay: ClientConfig.InputSize = %d: must be 1 to %d", c.InputSize, maxInputSize)
	case c.TPS < 1 || c.TPS > engine.MaxTPS:
		return c, fmt.Errorf("netplay: ClientConfig.TPS = %d: must be 1 to %d", c.TPS, engine.MaxTPS)
	case c.MaxPrediction < 1 || c.MaxPrediction > MaxClientPrediction:
		return c, fmt.Errorf("netplay: ClientConfig.MaxPrediction = %d: must be 1 to %d", c.MaxPrediction, MaxClientPrediction)
	case !(c.Lead >= 0 && c.Lead <= 30):
		return c, fmt.Errorf("netplay: ClientConfig.Lead = %v: must be 0 to 30 ticks", c.Lead)
	case c.DisconnectTimeout < 0 || c.HandshakeTimeout < 0:
		return c, fmt.Errorf("netplay: ClientConfig timeouts must not be negative")
	case c.MaxState < 1:
		return c, fmt.Errorf("netplay: ClientConfig.MaxState = %d: must be positive", c.MaxState)
	}
	return c, nil
}

// ClientStats is what a Client has counted.
type ClientStats struct {
	MatchStats
	// Seat is the client's seat, -1 for a spectator or before it has one.
	Seat int
	// Lead is how many ticks before the server needed them the client's
	// inputs arrived, as the server last said; the client sets its time
	// scale (MatchStats.TimeScale) to keep it near ClientConfig.Lead.
	// Jumps counts the times it was so far off that it jumped instead.
	Lead  float64
	Jumps uint64
	// Resyncs counts the states received after the first: the snaps,
	// each after a desync (MatchStats.Desyncs) or a fall too far behind.
	Resyncs uint64
}

// Client phases.
const (
	phaseCall = iota // joining: no seat yet
	phaseLoad        // receiving the server's state
	phasePlay        // running
)

// Client plays a match a Server owns: it is the engine.Game an
// engine.Loop runs, and runs the game inside it.
//
// It joins the server, which gives it a seat (or a spectator's place)
// and sends it the state of the match, in slices, and the final inputs
// since; the client loads the state, runs the ticks to the present as
// fast as the loop lets it, and from then runs as a Session does:
// predicting every seat's input it has not received from the server (its
// own is the one it read), and rolling back when the server's final
// inputs differ from its predictions, its own included (an input of
// its that arrived late was replaced). Its time sync keeps it just ahead
// of the server, so its inputs arrive Lead ticks before the server needs
// them: it changes the loop's time scale by at most 10 %, and jumps when
// it is more than a few ticks off.
//
// Every HashEvery ticks the server sends the hash of its state; a client
// whose state differs asks for the server's state, loads it and goes on
// (the snap back: ClientStats.Desyncs and Resyncs count them), and the
// game's Draw may ease the bodies it draws from where they were drawn
// (see the package doc).
type Client struct {
	rollback // its local is our seat: -1 for a spectator, or before we have one
	cfg      ClientConfig
	tr       Transport
	clock    engine.Clock

	nonce, token uint32 // ours, and the server's token of our datagrams (0 until seated)
	challenge    uint64 // the cookie the server challenged us with
	secret       uint64 // our seat's session secret
	set          Settings
	known        int  // the server's seats, from its first answer
	probing      bool // Probe runs: its join asks for the settings
	phase        int
	endT         int // the match's end tick, 0 none

	callStart, callAt time.Duration
	heard             time.Duration
	askAt             time.Duration // when catchup began
	verified          bool          // a hash matched since the last state

	st receiver // the server's state

	vTick     int         // the first check after a state: the server's hash of it comes first
	vMine     tickHash    // ours of it
	vSrv      tickHash    // the server's
	vDone     bool        // the server has ours: it sends its checkpoints' again
	srvHashes [8]tickHash // the server's hashes, by checkpoint
	lastSrv   int         // the newest checkpoint the server sent a hash of
	compared  int         // the newest checkpoint compared
	resyncAsk int         // the checkpoint that differed, asking for a state; -1 none

	srvTick  int
	srvAt    time.Duration
	srvAck   int // the next tick of our input the server needs
	lead     float64
	leadOK   bool
	rt       roundTrip // to the server
	endHash  uint64
	endKnown bool
	endHeard time.Duration
	err      error

	stats ClientStats
	rbuf  [MaxPacket + 1]byte
	wbuf  []byte
	sp    sPacket
	pk    packet
}

var _ Match = (*Client)(nil)

// NewClient makes a client of the game, to play on the server at
// cfg.Server over the transport. The game must implement engine.Saver,
// and unless it spectates, engine.Inputter.
func NewClient(cfg ClientConfig, game engine.Game, tr Transport) (*Client, error) {
	if _, ok := game.(engine.Saver); !ok {
		return nil, errors.New("netplay: a client's game must implement engine.Saver")
	}
	if _, ok := game.(engine.Inputter); !ok && !cfg.Spectate {
		return nil, errors.New("netplay: a client's game must implement engine.Inputter (or spectate)")
	}
	return newClient(cfg, game, tr)
}

// newClient makes a client; a nil game is a Probe's.
func newClient(cfg ClientConfig, game engine.Game, tr Transport) (*Client, error) {
	c, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	s := &Client{cfg: c, tr: tr, clock: c.Clock, st: receiver{tick: -1}, resyncAsk: -1, lastSrv: -1, compared: -1}
	s.rollback = newRollback(game, c.TPS, &s.stats.MatchStats)
	s.size = c.InputSize // the join's, before the server sizes the rows
	if s.clock == nil {
		s.clock = engine.NewMonoClock()
	}
	seed := c.Seed
	if seed == 0 {
		seed = rand.Uint64()
	}
	for s.nonce == 0 {
		seed = seed*6364136223846793005 + 1442695040888963407
		s.nonce = uint32(seed >> 32)
	}
	s.wbuf = make([]byte, 0, MaxPacket)
	s.stats.Seat = -1
	return s, nil
}

// Stats returns what the client has counted.
func (s *Client) Stats() *ClientStats { return &s.stats }

// Tick returns the client's next tick.
func (s *Client) Tick() uint64 { return uint64(s.tick) }

// Seat returns the client's seat, -1 for a spectator or before it has one.
// The game sees it as engine.Frame.Local.
func (s *Client) Seat() int { return s.local }

// Secret returns the session secret of the client's seat (0 before it
// has one): a ClientConfig.Secret that takes the seat back.
func (s *Client) Secret() uint64 { return s.secret }

// Settings returns the server's settings, once it sent them.
func (s *Client) Settings() Settings { return s.set }

// Running reports whether the client has its state and plays.
func (s *Client) Running() bool { return s.phase == phasePlay }

// Err returns why the client stopped, or nil.
func (s *Client) Err() error { return s.err }

// Probe asks a server, before a client of it is made, for its match's
// settings, without taking a seat: so that a runner can take the server's
// Params (a game's flags) and build the game for the match's players
// before its loop runs, and learn that a server answers at the address at
// all. The server keeps nothing of it.
type Probe struct{ c *Client }

// NewProbe makes a probe of the server at cfg.Server. Only cfg.Server,
// InputSize (any valid size), the timeouts, Clock and Seed matter: a
// probe asks whatever the server's settings are.
func NewProbe(cfg ClientConfig, tr Transport) (*Probe, error) {
	c, err := newClient(cfg, nil, tr)
	if err != nil {
		return nil, err
	}
	c.probing = true
	return &Probe{c: c}, nil
}

// Poll calls the server (ten times a second) and reads its answers. It
// returns the server's settings once it sent them (Players 0 before); an
// error wrapping ErrNotServer if a peer-to-peer host answered, or a
// *DisconnectError once ClientConfig.HandshakeTimeout passed without the
// settings.
func (p *Probe) Poll() (Settings, error) {
	s := p.c
	if s.err != nil {
		return Settings{}, s.err
	}
	now := s.clock.Now()
	s.poll(now)
	if s.err == nil && s.set.Players == 0 {
		s.timeouts(now)
	}
	if s.err != nil {
		return Settings{}, s.err
	}
	if s.set.Players == 0 {
		s.call(now)
	}
	return s.set, nil
}

// Update runs one loop tick of the client (see Client).
func (s *Client) Update(t engine.Tick) error {
	if s.err != nil {
		return s.err
	}
	if err := s.ticks.check(t, "ClientConfig.TPS"); err != nil {
		return s.fail(err)
	}
	now := s.clock.Now()
	s.poll(now)
	if s.err == nil {
		s.timeouts(now)
	}
	if s.err != nil {
		return s.err
	}
	switch s.phase {
	case phaseCall:
		s.stats.Waiting++
		s.call(now)
		return nil
	case phaseLoad:
		s.stats.Waiting++
		s.sendUpdate(now)
		return nil
	}
	if err := s.step(t, now); err != nil {
		return s.fail(err)
	}
	if s.err != nil {
		return s.err
	}
	s.sendUpdate(now)
	s.timeSync(now)
	s.fillStats()
	return nil
}

// step rolls back if a prediction was wrong, checks hashes, and runs the
// ticks due: one, or several while catching up.
func (s *Client) step(t engine.Tick, now time.Duration) error {
	if s.firstWrong != noTick {
		if err := s.rerun(t); err != nil {
			return err
		}
	}
	s.checkHashes(now)
	if s.phase != phasePlay {
		return nil // a resync began
	}
	n := 1
	target := s.target(now)
	switch final := s.confirmed(); {
	case s.tick < final:
		n = min(final-s.tick, 64) // final ticks: as fast as we can
		if !s.cfg.Spectate {
			n = max(n, min(target-s.tick, 64))
		}
	case s.cfg.Spectate:
		n = 0
	case target-s.tick > jumpTicks:
		n = min(target-s.tick, 64)
		s.stats.Jumps++
	case s.tick-target > jumpTicks:
		n = 0
		s.stats.Jumps++
	}
	if n == 0 && !s.cfg.Spectate {
		s.stats.Stalls++ // a spectator runs final ticks as they come: waiting for one is no stall
	}
	for range n {
		if s.endT > 0 && s.tick >= s.endT {
			break
		}
		if s.tick >= s.confirmed()+s.cfg.MaxPrediction || s.tick-s.floor() >= clientRing-1 {
			s.stats.Stalls++
			break
		}
		if err := s.runTick(t); err != nil {
			return err
		}
	}
	s.checkHashes(now)
	if err := s.record(); err != nil {
		return err
	}
	return s.checkEnd(now)
}

// target is the tick the client should be at now: the server's, as
// estimated from its last final datagram and the round trip, plus the
// lead.
func (s *Client) target(now time.Duration) int {
	if s.cfg.Spectate {
		return s.confirmed()
	}
	//fixvet:ignore time sync only paces frames: a tick's inputs and the world never depend on it
	est := float64(s.srvTick) + (float64(now-s.srvAt)+float64(s.rt.rtt)/2)/s.ticks.length()
	return int(est+s.cfg.Lead+1) + int(float64(s.rt.rtt)/2/s.ticks.length())
}

// floor is the oldest tick whose rows must be kept.
func (s *Client) floor() int { return min(s.tick, s.confirmed(), s.firstWrong) - 1 }

// runTick reads our input, unless the tick's are final, and runs the
// next tick for the first time: it saves the state before a predicted
// tick (it may roll back), before the last final one, before each
// checkpoint and before the server's first check.
func (s *Client) runTick(t engine.Tick) error {
	f, final := s.tick, s.confirmed()
	if s.local >= 0 && f >= final {
		s.readInput(t, f)
	}
	return s.advance(t, f >= final || f%s.every == 0 || f+1 >= final || f == s.vTick)
}

// checkHashes hashes our states at checkpoints once they are final, and
// compares them with the server's.
func (s *Client) checkHashes(now time.Duration) {
	for {
		if _, ok := s.nextCheckpoint(); !ok {
			break
		}
	}
	if s.resyncAsk >= 0 {
		return
	}
	if v := s.vTick; v >= 0 && !s.vMine.ok && v <= s.confirmed() && v < s.tick && v < s.firstWrong {
		if st, ok := s.stateAt(v); ok {
			s.vMine = tickHash{tick: v, hash: engine.StateHash(st), ok: true}
		} else {
			s.vTick = -1 // not kept: the next checkpoint verifies
		}
	}
	if s.vMine.ok && s.vSrv.ok && s.vSrv.tick == s.vMine.tick {
		s.vSrv.ok = false
		s.compare(now, s.vMine.hash, s.vSrv)
		if s.resyncAsk >= 0 {
			return
		}
	}
	// Every checkpoint both have hashed, oldest first: the server's hash
	// may come before ours (we are behind, catching up) or after.
	for i := range s.srvHashes {
		h := s.srvHashes[(s.lastSrv/s.every+1+i)%len(s.srvHashes)]
		if !h.ok || h.tick <= s.compared {
			continue
		}
		ours, ok := s.ourHash(h.tick)
		if !ok {
			continue
		}
		s.compared = h.tick
		s.compare(now, ours, h)
		if s.resyncAsk >= 0 {
			return
		}
	}
}

// compare compares our hash of a state with the server's: a difference
// asks the server for its state.
func (s *Client) compare(now time.Duration, ours uint64, h tickHash) {
	if ours == h.hash {
		s.stats.Hashes++
		s.st.verified()
		if !s.verified && h.tick > s.st.tick {
			s.verified = true
			s.stats.Catchup = now - s.askAt
		}
		return
	}
	s.stats.Desyncs++
	s.resyncAsk = h.tick
	s.askAt = now
	s.verified = false
}

// checkEnd stops the client at the match's end, once it ran every tick
// on final inputs: its state's hash must be the server's.
func (s *Client) checkEnd(now time.Duration) error {
	if s.endT == 0 || !s.endKnown || s.tick < s.endT || s.confirmed() < s.endT || s.firstWrong != noTick {
		return nil
	}
	s.save(s.endT)
	st, _ := s.stateAt(s.endT)
	if h := engine.StateHash(st); h != s.endHash {
		s.stats.Desyncs++
		return &engine.DesyncError{Tick: uint64(s.endT), Other: "the server", Ours: h, Theirs: s.endHash}
	}
	s.stats.Hashes++
	return engine.ErrStopped
}

// fail stops the client with err, telling the server it leaves.
func (s *Client) fail(err error) error {
	if s.err == nil {
		s.err = err
		if s.token != 0 && !errors.Is(err, engine.ErrStopped) {
			for range 3 {
				s.write(appendBye(s.wbuf[:0], s.token, byeQuit, uint32(s.tick), 0))
			}
		}
	}
	return s.err
}

// Close tells the server the client leaves and stops it: later Updates
// return ErrClosed. It does not close the transport.
func (s *Client) Close() error {
	if s.err == nil {
		s.fail(ErrClosed)
	}
	return nil
}

// Begin reads what the server sent between ticks, then runs the game's
// Begin, if it has one, on a frame whose Local is the client's seat.
func (s *Client) Begin(f engine.Frame) error {
	if s.err != nil {
		return s.err
	}
	s.poll(s.clock.Now())
	if s.err != nil {
		return s.err
	}
	return s.beginGame(f)
}

// timeSync sets the loop's time scale so that our inputs reach the
// server Lead ticks before it needs them: up to 10 % faster or slower.
func (s *Client) timeSync(time.Duration) {
	if s.cfg.Spectate || !s.leadOK {
		return
	}
	e := s.lead - s.cfg.Lead // positive: we run too far ahead
	target := 1.0
	if math.Abs(e) > 0.5 {
		target = math.Round((1-math.Max(-0.1, math.Min(0.1, 0.02*e)))*200) / 200
	}
	s.setScale(target)
}

// fillStats refreshes the stats that are states.
func (s *Client) fillStats() {
	s.fill()
	st := &s.stats
	st.Seat, st.RTT, st.Lead = s.local, s.rt.rtt, s.lead
	if s.leadOK {
		st.Ahead = s.lead - s.cfg.Lead
	}
}

// Report is the client's part of a stats line.
func (s *Client) Report() string {
	st := &s.stats
	return fmt.Sprintf(" seat=%d rtt_ms=%.1f lead=%.1f rollbacks=%d rollback_ticks_max=%d predicted=%d desyncs=%d resyncs=%d hashes_checked=%d catchup_ms=%d state_bytes=%d jumps=%d stalls=%d packets_bad=%d packets_stale=%d packets_unknown=%d time_scale=%.3f",
		st.Seat+1, float64(st.RTT)/1e6, st.Lead, st.Rollbacks, st.RollbackTicksMax, st.Predicted, st.Desyncs, st.Resyncs, st.Hashes,
		st.Catchup.Milliseconds(), st.StateBytes, st.Jumps, st.Stalls, st.PacketsBad, st.PacketsStale, st.PacketsUnknown, st.TimeScale)
}
