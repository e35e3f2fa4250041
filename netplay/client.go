package netplay

import (
	"cmp"
	"errors"
	"fmt"
	"net/netip"
	"time"

	"github.com/fixstep/fixstep/engine"
)

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
// it is more than a few ticks off. It reads its input InputDelay ticks
// before the tick it is for (by default half its round trip: it then
// runs that much closer behind the server, and rolls back that much
// less), predicts no further than its link makes the final inputs late,
// and keeps its frames within FrameBudget (see MatchStats.TickCost).
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

	st  receiver // the server's state
	cur []byte   // a row of final inputs being read

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
	ownNext  int // the next tick of our input to read
	owed     int // loop ticks whose tick a spent frame budget put off (see step)
	lead     float64
	leadOK   bool
	rt       roundTrip // to the server
	endHash  uint64
	endKnown bool
	endHeard time.Duration

	stats ClientStats
	rbuf  [MaxPacket + 1]byte
	wbuf  []byte
	sp    sPacket
	pk    packet
}

var _ Match = (*Client)(nil)

// newClient makes a client; a nil game is a Probe's.
func newClient(cfg ClientConfig, game engine.Game, tr Transport) (*Client, error) {
	c, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	s := &Client{cfg: c, tr: tr, st: receiver{tick: -1}, resyncAsk: -1, lastSrv: -1, compared: -1}
	s.rollback = newRollback(game, c.TPS, cmp.Or[engine.Clock](c.Clock, engine.NewMonoClock()), c.FrameBudget, &s.stats.MatchStats)
	s.size = c.InputSize // the join's, before the server sizes the rows
	s.nonce = newNonce(c.Seed, 0x9e3779b97f4a7c15)
	s.delay = max(c.InputDelay, 0) // 0: half the round trip, once measured (linkDelay)
	s.wbuf = make([]byte, 0, MaxPacket)
	s.stats.Seat = -1
	return s, nil
}

// Stats returns what the client has counted.
func (s *Client) Stats() *ClientStats { return &s.stats }

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

// floor is the oldest tick whose rows must be kept.
func (s *Client) floor() int { return min(s.tick, s.confirmed(), s.firstWrong) - 1 }

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

// write sends b to the server.
func (s *Client) write(b []byte) {
	s.stats.PacketsOut++
	s.stats.BytesOut += uint64(len(b))
	s.tr.WriteTo(b, s.cfg.Server)
}

// Close tells the server the client leaves and stops it: later Updates
// return ErrClosed. It does not close the transport.
func (s *Client) Close() error {
	if s.err == nil {
		s.fail(ErrClosed)
	}
	return nil
}

// Report is the client's part of a stats line, each field after a
// space:
//
//	seat=2 rtt_ms=180.8 lead=3.4 rollbacks=0 rollback_ticks_max=0 rollback_p99=0 predicted=5 desyncs=0 resyncs=0 hashes_checked=29 catchup_ms=1652 state_bytes=912942 jumps=27 stalls=126 packets_bad=0 packets_stale=1 packets_unknown=0 time_scale=1.000 input_delay=14 delay_changes=7 tick_cost_ms=5.899 deferred=601
//
// (make bigworld's, at 1,000 bodies: its ticks cost 6 ms, so it waits
// for final inputs rather than predict, and delays its input by 14.)
//
// rollback_p99 is MatchStats.RollbackP99, the depth in ticks 99 % of the
// rollbacks did not exceed; the last four are what its ticks cost and
// what it did about it (MatchStats.TickCost).
func (s *Client) Report() string {
	st := &s.stats
	return fmt.Sprintf(" seat=%d rtt_ms=%.1f lead=%.1f rollbacks=%d rollback_ticks_max=%d rollback_p99=%d predicted=%d desyncs=%d resyncs=%d hashes_checked=%d catchup_ms=%d state_bytes=%d jumps=%d stalls=%d packets_bad=%d packets_stale=%d packets_unknown=%d time_scale=%.3f",
		st.Seat+1, float64(st.RTT)/1e6, st.Lead, st.Rollbacks, st.RollbackTicksMax, st.RollbackP99, st.Predicted, st.Desyncs, st.Resyncs, st.Hashes,
		st.Catchup.Milliseconds(), st.StateBytes, st.Jumps, st.Stalls, st.PacketsBad, st.PacketsStale, st.PacketsUnknown, st.TimeScale) + st.budgetReport()
}

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
	// InputDelay is how many ticks after it is read the local input
	// applies. A client runs ahead of its server by half the round trip
	// and the Lead, less this delay, and its rollbacks go back as far as
	// it runs ahead of the inputs the server made final, which come half
	// a round trip later: without a delay they are as deep as the whole
	// round trip and the Lead. Zero means half the round trip (measured,
	// so the rollbacks go back half of it, the jitter and the Lead);
	// NoDelay for none; at most MaxInputDelay. The client adds to it
	// while its ticks cost more than FrameBudget allows (see
	// MatchStats.TickCost).
	InputDelay int
	// FrameBudget is the real time, on Clock, a frame may spend running
	// ticks: a rollback's and the ticks due. Zero means three quarters of
	// a tick (12.5 ms at 60 TPS).
	FrameBudget time.Duration
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
	c.TPS = cmp.Or(c.TPS, engine.DefaultTPS)
	c.MaxPrediction = cmp.Or(c.MaxPrediction, DefaultClientPrediction)
	c.Lead = cmp.Or(c.Lead, DefaultLead)
	c.DisconnectTimeout = cmp.Or(c.DisconnectTimeout, DefaultDisconnectTimeout)
	c.HandshakeTimeout = cmp.Or(c.HandshakeTimeout, DefaultHandshakeTimeout)
	c.MaxState = cmp.Or(c.MaxState, DefaultMaxState)
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
	case c.InputDelay < NoDelay || c.InputDelay > MaxInputDelay:
		return c, fmt.Errorf("netplay: ClientConfig.InputDelay = %d: want 1 to %d ticks, NoDelay, or 0 for half the round trip", c.InputDelay, MaxInputDelay)
	case c.FrameBudget < 0:
		return c, fmt.Errorf("netplay: ClientConfig.FrameBudget = %v: must be positive (or zero for three quarters of a tick)", c.FrameBudget)
	case c.DisconnectTimeout < 0 || c.HandshakeTimeout < 0:
		return c, fmt.Errorf("netplay: ClientConfig timeouts must not be negative")
	case c.MaxState < 1:
		return c, fmt.Errorf("netplay: ClientConfig.MaxState = %d: must be positive", c.MaxState)
	}
	return c, nil
}
