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
	// DefaultMaxState is the largest state a Client accepts from its
	// server, in bytes.
	DefaultMaxState = 64 << 20
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
	hooks
	cfg      ClientConfig
	game     engine.Game
	saver    engine.Saver
	inputter engine.Inputter
	tr       Transport
	clock    engine.Clock
	scaler   TimeScaler

	nonce, token  uint32 // ours, and the server's token of our datagrams (0 until seated)
	challenge     uint64 // the cookie the server challenged us with
	secret        uint64 // our seat's session secret
	set           Settings
	known         int  // the server's seats, from its first answer
	probing       bool // Probe runs: its join asks for the settings
	phase         int
	seat          int
	players, size int
	every, endT   int
	ticks         tickTime

	callStart, callAt time.Duration
	heard             time.Duration
	askAt             time.Duration // when catchup began
	verified          bool          // a hash matched since the last state

	st receiver // the server's state

	tick       int
	recv       int    // the next tick whose final row has not arrived
	final      []byte // clientRing rows of players·size
	finalMask  [clientRing]uint32
	finalTick  [clientRing]int // which tick each row of final holds
	used       []byte          // the rows the game was last given
	usedMask   [clientRing]uint32
	mine       []byte // clientRing of our own inputs
	firstWrong int
	states     [][]byte
	stateTick  []int
	mineHashes [8]tickHash
	nextCheck  int
	vTick      int         // the first check after a state: the server's hash of it comes first
	vMine      tickHash    // ours of it
	vSrv       tickHash    // the server's
	vDone      bool        // the server has ours: it sends its checkpoints' again
	srvHashes  [8]tickHash // the server's hashes, by checkpoint
	lastSrv    int         // the newest checkpoint the server sent a hash of
	compared   int         // the newest checkpoint compared
	resyncAsk  int         // the checkpoint that differed, asking for a state; -1 none

	srvTick  int
	srvAt    time.Duration
	srvAck   int // the next tick of our input the server needs
	lead     float64
	leadOK   bool
	rt       roundTrip // to the server
	scale    float64
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
	saver, _ := game.(engine.Saver)
	inputter, _ := game.(engine.Inputter)
	s := &Client{cfg: c, game: game, saver: saver, inputter: inputter, tr: tr, clock: c.Clock,
		seat: -1, size: c.InputSize, st: receiver{tick: -1}, firstWrong: noTick, resyncAsk: -1, scale: 1, lastSrv: -1, compared: -1}
	if game != nil {
		s.hooks = findHooks(game)
	}
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
	s.ticks = newTickTime(c.TPS)
	s.wbuf = make([]byte, 0, MaxPacket)
	s.stats.Seat, s.stats.TimeScale = -1, 1
	return s, nil
}

// SetTimeScaler sets what the client's time sync speeds up and slows
// down: the loop's timestep.
func (s *Client) SetTimeScaler(ts TimeScaler) { s.scaler = ts }

// Stats returns what the client has counted.
func (s *Client) Stats() *ClientStats { return &s.stats }

// Tick returns the client's next tick.
func (s *Client) Tick() uint64 { return uint64(s.tick) }

// Seat returns the client's seat, -1 for a spectator or before it has one.
// The game sees it as engine.Frame.Local.
func (s *Client) Seat() int { return s.seat }

// Secret returns the session secret of the client's seat (0 before it
// has one): a ClientConfig.Secret that takes the seat back.
func (s *Client) Secret() uint64 { return s.secret }

// Settings returns the server's settings, once it sent them.
func (s *Client) Settings() Settings { return s.set }

// Running reports whether the client has its state and plays.
func (s *Client) Running() bool { return s.phase == phasePlay }

// Err returns why the client stopped, or nil.
func (s *Client) Err() error { return s.err }

// Settings are what a server tells its clients of its match: the seats,
// and the tick rate, input size and Params its clients must have.
type Settings struct {
	Players   int
	TPS       int
	InputSize int
	Params    string
}

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
	s.fill()
	return nil
}

// step rolls back if a prediction was wrong, checks hashes, and runs the
// ticks due: one, or several while catching up.
func (s *Client) step(t engine.Tick, now time.Duration) error {
	if s.firstWrong != noTick {
		if err := s.rollback(t); err != nil {
			return err
		}
	}
	s.checkHashes(now)
	if s.phase != phasePlay {
		return nil // a resync began
	}
	n := 1
	target := s.target(now)
	switch {
	case s.tick < s.recv:
		n = min(s.recv-s.tick, 64) // final ticks: as fast as we can
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
		if s.tick >= s.recv+s.cfg.MaxPrediction || s.tick-s.floor() >= clientRing-1 {
			s.stats.Stalls++
			break
		}
		if err := s.advance(t); err != nil {
			return err
		}
	}
	s.checkHashes(now)
	return s.checkEnd(now)
}

// target is the tick the client should be at now: the server's, as
// estimated from its last final datagram and the round trip, plus the
// lead.
func (s *Client) target(now time.Duration) int {
	if s.cfg.Spectate {
		return s.recv
	}
	//fixvet:ignore time sync only paces frames: a tick's inputs and the world never depend on it
	est := float64(s.srvTick) + (float64(now-s.srvAt)+float64(s.rt.rtt)/2)/s.ticks.length()
	return int(est+s.cfg.Lead+1) + int(float64(s.rt.rtt)/2/s.ticks.length())
}

// floor is the oldest tick whose rows must be kept.
func (s *Client) floor() int { return min(s.tick, s.recv, s.firstWrong) - 1 }

// advance reads our input and runs the next tick for the first time.
func (s *Client) advance(t engine.Tick) error {
	f := s.tick
	if s.seat >= 0 && f >= s.recv {
		dst := s.mineAt(f)
		clear(dst)
		s.inputter.Input(s.ticks.tick(t, f, false), dst)
	}
	if f >= s.recv || f%s.every == 0 || f+1 >= s.recv || f == s.vTick {
		s.save(f)
	}
	gt := s.ticks.tick(t, f, false)
	gt.Input = s.inputsFor(f)
	if f >= s.recv {
		s.stats.Predicted++
	}
	if err := s.game.Update(gt); err != nil {
		return err
	}
	s.tick++
	return nil
}

// rollback loads the state before the first tick that ran on a wrong
// prediction and runs the ticks since again.
func (s *Client) rollback(t engine.Tick) error {
	from := s.firstWrong
	s.firstWrong = noTick
	i := from % len(s.states)
	if s.stateTick[i] != from {
		return fmt.Errorf("netplay: no saved state before tick %d to roll back to (tick %d)", from, s.tick)
	}
	if err := s.saver.Load(s.states[i]); err != nil {
		return fmt.Errorf("netplay: load the state before tick %d: %w", from, err)
	}
	for f := from; f < s.tick; f++ {
		if f > from {
			s.save(f)
		}
		gt := s.ticks.tick(t, f, true)
		gt.Input = s.inputsFor(f)
		if err := s.game.Update(gt); err != nil {
			return fmt.Errorf("netplay: tick %d run again after a rollback: %w", f, err)
		}
	}
	d := s.tick - from
	s.stats.Rollbacks++
	s.stats.RollbackTicks += uint64(d)
	s.stats.RollbackTicksMax = max(s.stats.RollbackTicksMax, d)
	return nil
}

func (s *Client) save(f int) {
	i := f % len(s.states)
	s.states[i] = s.saver.Save(s.states[i][:0])
	s.stateTick[i] = f
}

func (s *Client) rowOf(ring []byte, f int) []byte {
	n := s.players * s.size
	o := f % clientRing * n
	return ring[o : o+n : o+n]
}

func (s *Client) mineAt(f int) []byte {
	o := f % clientRing * s.size
	return s.mine[o : o+s.size : o+s.size]
}

// inputsFor decides tick f's inputs: the server's final row, or a
// prediction: every seat's last final input and the last final seats,
// our own input for our seat.
func (s *Client) inputsFor(f int) engine.Inputs {
	dst := s.rowOf(s.used, f)
	var empty, pred uint32
	switch {
	case f < s.recv:
		copy(dst, s.rowOf(s.final, f))
		empty = s.finalMask[f%clientRing]
	case s.recv > 0 && s.haveRow(s.recv-1):
		copy(dst, s.rowOf(s.final, s.recv-1))
		empty = s.finalMask[(s.recv-1)%clientRing]
		pred = 1<<s.players - 1
	default:
		clear(dst)
		empty, pred = 1<<s.players-1, 1<<s.players-1
	}
	if f >= s.recv && s.seat >= 0 && empty&(1<<s.seat) == 0 {
		copy(dst[s.seat*s.size:], s.mineAt(f))
	}
	s.usedMask[f%clientRing] = empty
	return engine.NewInputs(dst, s.size, pred).WithEmptySeats(empty)
}

// haveRow reports whether the final row of tick f is in the ring: it
// arrived, and was not overwritten.
func (s *Client) haveRow(f int) bool { return f < s.recv && f >= s.recv-clientRing && f >= s.st.tick }

// checkHashes hashes our states at checkpoints once they are final, and
// compares them with the server's.
func (s *Client) checkHashes(now time.Duration) {
	// The state before tick c is saved once tick c runs: c < s.tick.
	for s.nextCheck <= s.recv && s.nextCheck < s.tick && s.nextCheck < s.firstWrong {
		c := s.nextCheck
		if i := c % len(s.states); s.stateTick[i] == c {
			s.mineHashes[c/s.every%len(s.mineHashes)] = tickHash{tick: c, hash: fnv64(s.states[i]), ok: true}
		}
		s.nextCheck += s.every
	}
	if s.resyncAsk >= 0 {
		return
	}
	if v := s.vTick; v >= 0 && !s.vMine.ok && v <= s.recv && v < s.tick && v < s.firstWrong {
		if i := v % len(s.states); s.stateTick[i] == v {
			s.vMine = tickHash{tick: v, hash: fnv64(s.states[i]), ok: true}
		} else {
			s.vTick = -1 // not kept: the next checkpoint verifies
		}
	}
	if s.vMine.ok && s.vSrv.ok && s.vSrv.tick == s.vMine.tick {
		s.vSrv.ok = false
		s.compare(now, s.vMine, s.vSrv)
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
		m := s.mineHashes[h.tick/s.every%len(s.mineHashes)]
		if !m.ok || m.tick != h.tick {
			continue
		}
		s.compared = h.tick
		s.compare(now, m, h)
		if s.resyncAsk >= 0 {
			return
		}
	}
}

// compare compares our hash of a state with the server's: a difference
// asks the server for its state.
func (s *Client) compare(now time.Duration, m, h tickHash) {
	if m.hash == h.hash {
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
	if s.endT == 0 || !s.endKnown || s.tick < s.endT || s.recv < s.endT || s.firstWrong != noTick {
		return nil
	}
	st := s.saver.Save(s.states[s.endT%len(s.states)][:0])
	s.states[s.endT%len(s.states)], s.stateTick[s.endT%len(s.states)] = st, s.endT
	if h := fnv64(st); h != s.endHash {
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

// Draw draws the game: the predicted present, on a frame whose Local is
// the client's seat (-1 for a spectator, or before it has one).
func (s *Client) Draw(f engine.Frame) { s.drawGame(f, s.seat) }

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
	return s.beginGame(f, s.seat)
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
	if target != s.scale {
		s.scale = target
		if s.scaler != nil {
			s.scaler.SetTimeScale(target)
		}
	}
}

// fill refreshes the stats that are states.
func (s *Client) fill() {
	st := &s.stats
	st.Seat, st.Tick, st.Confirmed = s.seat, uint64(s.tick), uint64(s.recv)
	st.RTT, st.Lead, st.TimeScale = s.rt.rtt, s.lead, s.scale
}

// Report is the client's part of a stats line.
func (s *Client) Report() string {
	st := &s.stats
	return fmt.Sprintf(" seat=%d rtt_ms=%.1f lead=%.1f rollbacks=%d rollback_ticks_max=%d predicted=%d desyncs=%d resyncs=%d hashes_checked=%d catchup_ms=%d state_bytes=%d jumps=%d stalls=%d packets_bad=%d packets_stale=%d packets_unknown=%d time_scale=%.3f",
		st.Seat+1, float64(st.RTT)/1e6, st.Lead, st.Rollbacks, st.RollbackTicksMax, st.Predicted, st.Desyncs, st.Resyncs, st.Hashes,
		st.Catchup.Milliseconds(), st.StateBytes, st.Jumps, st.Stalls, st.PacketsBad, st.PacketsStale, st.PacketsUnknown, st.TimeScale)
}
