package app

import (
	"errors"
	"flag"
	"fmt"
	"net/netip"
	"time"

	"github.com/fixstep/fixstep/engine"
	"github.com/fixstep/fixstep/netplay"
	"github.com/fixstep/fixstep/replay"
)

// netFlags are the netplay flags: -host ADDR listens on ADDR as player 1
// (index 0) for a match of -players players (2 to netplay.MaxPeers, 2 by
// default), seats the callers of -join in the order they call, players 2,
// 3 and on, and once every seat is taken tells each one the others'
// addresses (netplay.Lobby): the peers then play peer to peer. A -host
// also takes up to hostSpectators spectators (netplay.Accept) once the
// match started. -join ADDR calls the host at ADDR from a free port and
// learns its player and the player count from it; -spectate ADDR watches
// the match the host at ADDR plays (of -players players). -netsim runs
// this peer's outgoing datagrams through a simulated bad link, in every
// networked mode; -input-delay and -max-prediction set the session's (0:
// netplay's defaults), and -input-delay a -connect's client's too (0: half
// its round trip). -record records the match: every player's
// confirmed inputs, so any peer's file replays it.
//
// -server ADDR runs the match headless as its authoritative server
// (netplay.Server) on ADDR, with -players seats (2 by default, at most
// the game's MaxPlayers and netplay.MaxSeats) and serverSpectators
// spectators; players come and go as they -connect ADDR (netplay.Client).
// -transfer-rate is the server's budget for sending states to joiners,
// in Mbit/s, and -seats-per-addr how many seats one address may take
// (netplay.ServerConfig.TransferRate and SeatsPerAddr; 0: their
// defaults). -spectate ADDR watches a server as well as a host: it asks
// which it is. A -connect or -spectate of a server takes the server's
// simulation flags (Options.SimFlags) before the game's Configure.
type netFlags struct {
	Host, Join, Spectate string
	Server, Connect      string
	// Count is -players: with -host, how many players the match seats;
	// with -spectate, how many the watched match has. 0 means 2.
	Count         int
	NetSim        string
	InputDelay    int
	MaxPrediction int
	// TransferRate (Mbit/s) and SeatsPerAddr are -transfer-rate and
	// -seats-per-addr: a -server's. 0 means netplay's defaults.
	TransferRate int
	SeatsPerAddr int

	// EndTick, when set, ends the match after that many ticks on every
	// peer (netplay.SessionConfig.EndTick): not a flag, a game's -ticks sets it.
	EndTick uint64

	np     *network // the socket, from open until startMatch takes it
	tr     netplay.Transport
	server int              // the seats of the -connect (or -spectate) server, once probe found it
	set    netplay.Settings // that server's settings
	lobby  *netplay.Lobby   // a joiner's, from seat on
	stop   func() error     // the run's signal check while a lobby waits, or nil
}

// hostSpectators is how many spectators a -host takes. A -spectate that
// finds them all taken is refused and stops, saying why
// (netplay.SeatError); one that calls after the match's first 64 ticks is
// sent the host's state and catches up (with -record, it stops instead:
// its file could not replay from tick 0). A seat is free again once its
// spectator leaves or is dropped.
const hostSpectators = 4

// serverSpectators is how many spectators a -server takes.
const serverSpectators = 8

// probeTime is how long a -spectate asks whether ADDR is a server before
// it takes ADDR for a peer-to-peer host.
const probeTime = 600 * time.Millisecond

func (n *netFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&n.Host, "host", "", "host a game: listen on this address (\":7000\") as player 1 and seat -players players as they -join")
	fs.StringVar(&n.Join, "join", "", "join the game hosted at this address (\"192.168.1.5:7000\") as its next free player")
	fs.StringVar(&n.Spectate, "spectate", "", "watch the game hosted (or served) at this address (\"192.168.1.5:7000\")")
	fs.StringVar(&n.Server, "server", "", "serve a match, headless: listen on this address (\":7000\") with -players seats that players take as they -connect, and leave")
	fs.StringVar(&n.Connect, "connect", "", "play in the match served at this address (\"192.168.1.5:7000\"), joining it at any time")
	fs.IntVar(&n.Count, "players", 0, fmt.Sprintf("with -host: how many players the match seats, 2 to %d; with -server, 1 to %d; with -spectate of a host: how many it has (0: 2)", netplay.MaxPeers, netplay.MaxSeats))
	fs.StringVar(&n.NetSim, "netsim", "", "with -host, -join, -spectate, -server or -connect, simulate a bad link on outgoing datagrams: \"latency=50ms,jitter=10ms,loss=0.05,dup=0.01,reorder=0\"")
	fs.IntVar(&n.InputDelay, "input-delay", 0, fmt.Sprintf("with -host, -join or -connect, ticks of input delay, 1 to %d (0: %d for a peer, half the round trip for a client; -1: none)", netplay.MaxInputDelay, netplay.DefaultInputDelay))
	fs.IntVar(&n.MaxPrediction, "max-prediction", 0, fmt.Sprintf("with -host or -join, ticks predicted before stalling, 1 to %d (0: %d, -1: lockstep)", netplay.MaxPredictionTicks, netplay.DefaultMaxPrediction))
	fs.IntVar(&n.TransferRate, "transfer-rate", 0, fmt.Sprintf("with -server, the most it spends sending states to joiners, all together, in Mbit/s (0: %d)", netplay.DefaultTransferRate/1_000_000))
	fs.IntVar(&n.SeatsPerAddr, "seats-per-addr", 0, fmt.Sprintf("with -server, the seats (players' and spectators') clients from one IPv4 address or IPv6 /64 may take (0: %d)", netplay.DefaultSeatsPerAddr))
}

// on reports whether -host, -join, -spectate, -server or -connect is set.
func (n *netFlags) on() bool {
	return n.Host != "" || n.Join != "" || n.Spectate != "" || n.Server != "" || n.Connect != ""
}

// players returns the game's player count: -players with -host or
// -spectate (2 without it); with -join, the host's once the host seated
// this peer (Run does that before the game's Start), 2 before; 1 alone.
func (n *netFlags) players() int {
	switch {
	case n.server > 0:
		return n.server
	case n.Join != "" && n.lobby != nil && n.lobby.Players() > 0:
		return n.lobby.Players()
	case !n.on():
		return 1
	case n.Count == 0 || n.Join != "":
		return 2
	}
	return n.Count
}

// players returns the run's player count: with -replay, the recording's
// (a netplay match's holds every player's input), which it reads from the
// file's header; with -join, the host's, which it asks the host for
// (seat); with -connect or -spectate, the server's, which probe asked;
// else netFlags.players. stop is checked while it waits.
func (f *flags) players(o Options, hdr *replay.Header, stop func() error) (int, error) {
	f.Net.stop = stop
	switch {
	case hdr != nil:
		return hdr.Players, nil
	case f.Net.Join != "":
		if err := f.Net.seat(engine.Config{TPS: o.TPS, InputSize: o.InputSize}, o.Params); err != nil {
			return 0, err
		}
	}
	return f.Net.players(), nil
}

func (f *flags) checkNet() error {
	n := &f.Net
	if !n.on() {
		if n.NetSim != "" || n.InputDelay != 0 || n.MaxPrediction != 0 || n.Count != 0 {
			return errors.New("-players, -netsim, -input-delay and -max-prediction need -host, -join, -spectate, -server or -connect")
		}
		if n.TransferRate != 0 || n.SeatsPerAddr != 0 {
			return errors.New("-transfer-rate and -seats-per-addr are a server's (-server)")
		}
		return nil
	}
	if modes := btoi(n.Host != "") + btoi(n.Join != "") + btoi(n.Spectate != "") + btoi(n.Server != "") + btoi(n.Connect != ""); modes > 1 {
		return errors.New("-host, -join, -spectate, -server and -connect: a program hosts, joins, watches, serves or connects")
	}
	for _, c := range []struct {
		set  bool
		name string
	}{{f.Replay != "", "-replay"}, {f.SyncTest != 0, "-synctest"}} {
		if c.set {
			return fmt.Errorf("%s with a network flag: not supported in a match (replay a match's -record file alone)", c.name)
		}
	}
	switch {
	case n.Count != 0 && n.Server != "" && (n.Count < 1 || n.Count > netplay.MaxSeats):
		return fmt.Errorf("-players %d: a server seats 1 to %d", n.Count, netplay.MaxSeats)
	case n.Count != 0 && n.Server == "" && (n.Count < 2 || n.Count > netplay.MaxPeers):
		return fmt.Errorf("-players %d: want 2 to %d", n.Count, netplay.MaxPeers)
	case n.Count != 0 && (n.Join != "" || n.Connect != ""):
		return errors.New("-players with -join or -connect: the host or server says how many players its match seats")
	case n.InputDelay != 0 && n.Host == "" && n.Join == "" && n.Connect == "":
		return errors.New("-input-delay is a player's (-host, -join, -connect): a spectator and a server read no input")
	case n.MaxPrediction != 0 && n.Host == "" && n.Join == "":
		return errors.New("-max-prediction is a peer's (-host, -join): a server's clients predict as far as their link makes the final inputs late")
	case n.Connect != "" && f.Record != "":
		return errors.New("-record with -connect: a client may join mid-match, where no recording can start; record on the server (-server ADDR -record FILE)")
	case (n.TransferRate != 0 || n.SeatsPerAddr != 0) && n.Server == "":
		return errors.New("-transfer-rate and -seats-per-addr are a server's (-server)")
	case n.TransferRate < 0 || n.TransferRate > 100_000:
		return fmt.Errorf("-transfer-rate %d: want 1 to 100000 Mbit/s (0: %d)", n.TransferRate, netplay.DefaultTransferRate/1_000_000)
	case n.SeatsPerAddr < 0 || n.SeatsPerAddr > netplay.MaxSeats+serverSpectators:
		return fmt.Errorf("-seats-per-addr %d: want 1 to %d (0: %d)", n.SeatsPerAddr, netplay.MaxSeats+serverSpectators, netplay.DefaultSeatsPerAddr)
	}
	for _, c := range []struct{ name, addr string }{{"-host", n.Host}, {"-server", n.Server}} {
		if c.addr == "" {
			continue
		}
		if _, err := netip.ParseAddrPort(hostPort(c.addr)); err != nil {
			return fmt.Errorf("%s %q: want [IP]:PORT, as \":7000\"", c.name, c.addr)
		}
	}
	for _, c := range []struct{ name, addr string }{{"-join", n.Join}, {"-spectate", n.Spectate}, {"-connect", n.Connect}} {
		if c.addr == "" {
			continue
		}
		if a, err := netip.ParseAddrPort(c.addr); err != nil || a.Port() == 0 || a.Addr().IsUnspecified() {
			return fmt.Errorf("%s %q: want the host's or server's IP:PORT, as \"192.168.1.5:7000\"", c.name, c.addr)
		}
	}
	if _, err := netplay.ParseNetSim(n.NetSim); err != nil {
		return fmt.Errorf("-netsim: %w", err)
	}
	if n.InputDelay < netplay.NoDelay || n.InputDelay > netplay.MaxInputDelay {
		return fmt.Errorf("-input-delay %d: want 1 to %d, 0 for %d or -1 for none", n.InputDelay, netplay.MaxInputDelay, netplay.DefaultInputDelay)
	}
	if n.MaxPrediction < netplay.Lockstep || n.MaxPrediction > netplay.MaxPredictionTicks {
		return fmt.Errorf("-max-prediction %d: want 1 to %d, 0 for %d or -1 for lockstep", n.MaxPrediction, netplay.MaxPredictionTicks, netplay.DefaultMaxPrediction)
	}
	return nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// hostPort turns ":7000" into "0.0.0.0:7000" for netip.
func hostPort(s string) string {
	if len(s) > 0 && s[0] == ':' {
		return "0.0.0.0" + s
	}
	return s
}

// network is the match -host, -join, -spectate, -server or -connect
// started, in whichever role (netplay.Match), with its socket. A nil
// *network is a game alone: its methods run the game alone.
type network struct {
	match  netplay.Match
	server *netplay.Server // -server's, for Agones' player count
	udp    *netplay.UDP
	sim    *netplay.SimTransport // -netsim's, or nil
	lag    time.Duration         // the longest a -netsim datagram is held
}

// open opens the socket (and -netsim's link) for -host, -join or
// -spectate, once.
func (n *netFlags) open() error {
	if n.np != nil {
		return nil
	}
	listen := hostPort(n.Host + n.Server)
	if remote := n.Join + n.Spectate + n.Connect; remote != "" {
		listen = ":0"
		if netip.MustParseAddrPort(remote).Addr().IsLoopback() {
			listen = "127.0.0.1:0"
		}
	}
	udp, err := netplay.ListenUDP(listen)
	if err != nil {
		return err
	}
	n.np, n.tr = &network{udp: udp}, udp
	if n.NetSim != "" {
		sim, _ := netplay.ParseNetSim(n.NetSim)
		n.np.sim = netplay.NewSimTransport(udp, sim, nil, uint64(time.Now().UnixNano()))
		n.np.lag = sim.Latency + sim.Jitter + 50*time.Millisecond // reordering holds up to 50 ms more
		n.tr = n.np.sim
	}
	return nil
}

// release closes the socket if startMatch did not take it: a run that
// failed between seat and startMatch. Nil-safe and idempotent.
func (n *netFlags) release() {
	if n.np != nil {
		n.np.udp.Close()
		n.np = nil
	}
}

// seat opens the socket and calls the -join host until it seats this
// peer: then Players and Local are the host's for it.
func (n *netFlags) seat(cfg engine.Config, params string) error {
	if n.lobby != nil {
		return nil
	}
	if err := n.open(); err != nil {
		return err
	}
	l, err := netplay.NewLobby(netplay.SessionConfig{Host: netip.MustParseAddrPort(n.Join), InputSize: cfg.InputSize,
		TPS: cfg.TPS, Params: params}, n.tr)
	if err != nil {
		return err
	}
	n.lobby = l
	return n.wait(l, func() bool { return l.Players() > 0 })
}

// probe opens the socket and asks the -connect (or -spectate) address
// for its settings (netplay.Probe): for -connect, until it answers or
// the handshake times out; for -spectate, for probeTime, and an address
// that does not answer as a server is taken for a host. It needs none of
// the game's: a probe asks whatever the server's are.
func (n *netFlags) probe(stop func() error) error {
	if n.server > 0 || n.Connect == "" && n.Spectate == "" {
		return nil
	}
	n.stop = stop
	if err := n.open(); err != nil {
		return err
	}
	addr := netip.MustParseAddrPort(n.Connect + n.Spectate)
	pr, err := netplay.NewProbe(netplay.ClientConfig{Server: addr, Spectate: n.Spectate != "", InputSize: 1}, n.tr)
	if err != nil {
		return err
	}
	start := time.Now()
	for {
		set, err := pr.Poll()
		if errors.Is(err, netplay.ErrNotServer) && n.Spectate != "" {
			return nil // a peer-to-peer host: watch it as one
		}
		if err != nil {
			return err
		}
		if set.Players > 0 {
			n.server, n.set = set.Players, set
			return nil
		}
		if n.Spectate != "" && time.Since(start) > probeTime {
			return nil // a peer-to-peer host
		}
		if n.stop != nil {
			if err := n.stop(); err != nil {
				return err
			}
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// agree checks that the game, configured with the server's simulation
// flags, is what the -connect or -spectate server plays: its tick rate,
// input size and Params (o's, the flags in them).
func (n *netFlags) agree(o Options) error {
	s, addr := n.set, n.Connect+n.Spectate
	switch {
	case n.server == 0:
		return nil
	case s.TPS != o.TPS:
		return fmt.Errorf("the server %s runs %d ticks a second, and %s %d", addr, s.TPS, o.Name, o.TPS)
	case s.InputSize != o.InputSize:
		return fmt.Errorf("the server %s has inputs of %d bytes, and %s of %d (another game, or another version of it)", addr, s.InputSize, o.Name, o.InputSize)
	case s.Params != o.Params:
		return fmt.Errorf("the server %s plays %q, and %s %q (another game, or another version of it)", addr, s.Params, o.Name, o.Params)
	}
	return nil
}

// wait polls lobby l until done says so, it fails, or a signal came.
func (n *netFlags) wait(l *netplay.Lobby, done func() bool) error {
	for {
		if err := l.Poll(); err != nil {
			return err
		}
		if done() {
			return nil
		}
		if n.stop != nil {
			if err := n.stop(); err != nil {
				return err
			}
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// startMatch opens the socket and makes the match the network flags ask
// for (check has validated them), or returns nil without them: a
// -server's Server, a -connect's (or a -spectate's of a server) Client, or
// a -host's, -join's or -spectate's Session. game runs under cfg (its TPS
// and InputSize travel in the handshake) and must implement engine.Saver
// and engine.Inputter; params names what its simulation depends on
// besides the input, the same on every peer. The handshake also carries
// engine.Fingerprint of game, which startMatch runs first (120 ticks, the
// state put back): a peer running another version of the game's
// simulating code is refused, naming the simulation, while builds of the
// same code for other CPUs play together.
//
// A session seats the players (netplay.Lobby) as the loop runs: a
// -host's waits until every seat is taken by a caller of the same version
// (one of another is refused and its seat freed at once), a -join's until
// the host sent the others' addresses; the loop runs no tick meanwhile.
// The game's world must be built for cfg.Players players: run asks a
// -join host for the count before the game's Start.
func (f *flags) startMatch(cfg engine.Config, game engine.Game, params string) (np *network, err error) {
	n := &f.Net
	if !n.on() {
		return nil, nil
	}
	defer func() {
		if err != nil {
			n.release()
		}
	}()
	if n.Join != "" {
		if err := n.seat(cfg, params); err != nil {
			return nil, err
		}
		if cfg.Players != 0 && cfg.Players != n.lobby.Players() {
			return nil, fmt.Errorf("the match at %s has %d players, and this game was built for %d", n.Join, n.lobby.Players(), cfg.Players)
		}
	}
	if err := n.open(); err != nil {
		return nil, err
	}
	// What the game's code simulates: peers of another version of it are
	// refused at the handshake, builds of this one for other CPUs play.
	fcfg := cfg
	fcfg.Players = n.players()
	sim, err := engine.Fingerprint(fcfg, game)
	if err != nil {
		return nil, err
	}
	np = n.np
	if np.match, np.server, err = n.newMatch(fcfg, game, params, sim); err != nil {
		return nil, err
	}
	n.np = nil // np owns the socket now
	return np, nil
}

// newMatch makes the role the flags ask for, of game under cfg (its
// players known), over the socket; a -server's is also returned as the
// Server it is, whose player count Agones hears.
func (n *netFlags) newMatch(cfg engine.Config, game engine.Game, params string, sim uint64) (netplay.Match, *netplay.Server, error) {
	switch {
	case n.Server != "":
		srv, err := netplay.NewServer(netplay.ServerConfig{Players: cfg.Players, Spectators: serverSpectators, InputSize: cfg.InputSize,
			TPS: cfg.TPS, Params: params, Sim: sim, EndTick: n.EndTick, TransferRate: n.TransferRate * 1_000_000,
			SeatsPerAddr: n.SeatsPerAddr}, game, n.tr)
		if err != nil {
			return nil, nil, err
		}
		return srv, srv, nil
	case n.server > 0:
		cl, err := netplay.NewClient(netplay.ClientConfig{Server: netip.MustParseAddrPort(n.Connect + n.Spectate), Spectate: n.Spectate != "",
			InputSize: cfg.InputSize, TPS: cfg.TPS, Params: params, Sim: sim, InputDelay: n.InputDelay}, game, n.tr)
		if err != nil {
			return nil, nil, err
		}
		return cl, nil, nil
	}
	c := netplay.SessionConfig{InputSize: cfg.InputSize, TPS: cfg.TPS, Params: params, Sim: sim,
		InputDelay: n.InputDelay, MaxPrediction: n.MaxPrediction, EndTick: n.EndTick}
	var s *netplay.Session
	var err error
	switch {
	case n.Spectate != "":
		c.Players, c.Spectate, c.Host = cfg.Players, true, netip.MustParseAddrPort(n.Spectate)
		s, err = netplay.NewSession(c, game, n.tr)
	case n.Host != "":
		lc := c
		lc.Players = cfg.Players
		var l *netplay.Lobby
		if l, err = netplay.NewLobby(lc, n.tr); err != nil {
			return nil, nil, err
		}
		for i := range hostSpectators {
			c.Spectators = append(c.Spectators, netplay.SpectatorSeat(i))
		}
		s, err = netplay.NewLobbySession(l, c, game, netplay.NewAccept(n.tr, hostSpectators))
	default:
		n.lobby.SetSim(sim)
		s, err = netplay.NewLobbySession(n.lobby, c, game, n.tr)
	}
	if err != nil {
		return nil, nil, err
	}
	return s, nil, nil
}

// newLoop makes the loop that runs game: through the match, whose time
// sync then steers the loop's clock, or alone without one.
func (n *network) newLoop(cfg engine.Config, p engine.Platform, game engine.Game) (*engine.Loop, error) {
	if n == nil {
		return engine.NewLoop(cfg, p, game)
	}
	cfg.InputSize, cfg.Players = 0, 0 // the match calls the game's Input (a server never does)
	l, err := engine.NewLoop(cfg, p, n.match)
	if err != nil {
		return nil, err
	}
	n.match.SetTimeScaler(l.Timestep())
	return l, nil
}

// report returns the stats line's netplay fields (the match's Report),
// or "" alone.
func (n *network) report() string {
	if n == nil {
		return ""
	}
	return n.match.Report()
}

// ended reports whether the match reached its end (a -ticks end, the
// server's for a client): the game's state is then the match's end
// state, the same on every machine.
func (n *network) ended() bool {
	return n != nil && errors.Is(n.match.Err(), engine.ErrStopped)
}

// close says goodbye to the others, lets -netsim's held datagrams (the
// goodbye among them) go out, and closes the socket. Nil-safe.
func (n *network) close() error {
	if n == nil {
		return nil
	}
	err := n.match.Close()
	if n.sim != nil {
		for deadline := time.Now().Add(n.lag); n.sim.Stats().Held > 0 && time.Now().Before(deadline); {
			n.sim.Flush()
			time.Sleep(2 * time.Millisecond)
		}
	}
	return errors.Join(err, n.udp.Close())
}

// localAddr returns the address the socket is bound to.
func (n *network) localAddr() netip.AddrPort { return n.udp.Addr() }
