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

// NetFlags are the two-player netplay flags: -host ADDR listens on ADDR as
// player 1 (index 0) and takes the first peer that calls, and up to
// HostSpectators spectators (netplay.Accept); -join ADDR calls the host at
// ADDR as player 2 (index 1), from a free port; -spectate ADDR watches the
// game the host at ADDR plays. -netsim runs outgoing datagrams through a
// simulated bad link; -input-delay and -max-prediction set the session's
// (0: netplay's defaults). -record records the match: every player's
// confirmed inputs, so either peer's file replays it.
type NetFlags struct {
	Host, Join, Spectate string
	NetSim               string
	InputDelay           int
	MaxPrediction        int

	// EndTick, when set, ends the match after that many ticks on every
	// peer (netplay.Config.EndTick): not a flag, a game's -ticks sets it.
	EndTick uint64
}

// HostSpectators is how many spectators a -host takes. A -spectate that
// finds them all taken, or calls after the match's first 64 ticks, is
// refused and stops, saying why (netplay.SeatError); a seat is free again
// once its spectator leaves or is dropped.
const HostSpectators = 4

func (n *NetFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&n.Host, "host", "", "host a two-player game: listen on this address (\":7000\") as player 1 and wait for -join")
	fs.StringVar(&n.Join, "join", "", "join the game hosted at this address (\"192.168.1.5:7000\") as player 2")
	fs.StringVar(&n.Spectate, "spectate", "", "watch the game hosted at this address (\"192.168.1.5:7000\")")
	fs.StringVar(&n.NetSim, "netsim", "", "with -host or -join, simulate a bad link on outgoing datagrams: \"latency=50ms,jitter=10ms,loss=0.05,dup=0.01,reorder=0\"")
	fs.IntVar(&n.InputDelay, "input-delay", 0, fmt.Sprintf("with -host or -join, ticks of input delay, 1 to %d (0: %d, -1: none)", netplay.MaxInputDelay, netplay.DefaultInputDelay))
	fs.IntVar(&n.MaxPrediction, "max-prediction", 0, fmt.Sprintf("with -host or -join, ticks predicted before stalling, 1 to %d (0: %d, -1: lockstep)", netplay.MaxPredictionTicks, netplay.DefaultMaxPrediction))
}

// On reports whether -host, -join or -spectate is set.
func (n *NetFlags) On() bool { return n.Host != "" || n.Join != "" || n.Spectate != "" }

// Players returns the game's player count: 2 with -host, -join or
// -spectate, else 1.
func (n *NetFlags) Players() int {
	if n.On() {
		return 2
	}
	return 1
}

// Local returns this peer's player index: 1 with -join, -1 with -spectate,
// else 0.
func (n *NetFlags) Local() int {
	switch {
	case n.Join != "":
		return 1
	case n.Spectate != "":
		return -1
	}
	return 0
}

// players returns the run's player count: with -replay, the recording's
// (a netplay match's holds every player's input), which it reads from the
// file's header; else NetFlags.Players.
func (f *Flags) players() (int, error) {
	if f.Replay == "" {
		return f.Net.Players(), nil
	}
	h, err := replay.ReadHeader(f.Replay)
	if err != nil {
		return 0, err
	}
	return h.Players, nil
}

func (f *Flags) checkNet() error {
	n := &f.Net
	if !n.On() {
		if n.NetSim != "" || n.InputDelay != 0 || n.MaxPrediction != 0 {
			return errors.New("-netsim, -input-delay and -max-prediction need -host, -join or -spectate")
		}
		return nil
	}
	if modes := btoi(n.Host != "") + btoi(n.Join != "") + btoi(n.Spectate != ""); modes > 1 {
		return errors.New("-host, -join and -spectate: a peer hosts, joins or watches")
	}
	for _, c := range []struct {
		set  bool
		name string
	}{{f.Replay != "", "-replay"}, {f.SyncTest != 0, "-synctest"}} {
		if c.set {
			return fmt.Errorf("%s with -host, -join or -spectate: not supported in a netplay session (replay a match's -record file alone)", c.name)
		}
	}
	if n.Host != "" {
		if _, err := netip.ParseAddrPort(hostPort(n.Host)); err != nil {
			return fmt.Errorf("-host %q: want [IP]:PORT, as \":7000\"", n.Host)
		}
	}
	for _, c := range []struct{ name, addr string }{{"-join", n.Join}, {"-spectate", n.Spectate}} {
		if c.addr == "" {
			continue
		}
		if a, err := netip.ParseAddrPort(c.addr); err != nil || a.Port() == 0 || a.Addr().IsUnspecified() {
			return fmt.Errorf("%s %q: want the host's IP:PORT, as \"192.168.1.5:7000\"", c.name, c.addr)
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

// Netplay is the session -host, -join or -spectate started, with its
// socket. A nil *Netplay is a game without them: its methods run the game
// alone.
type Netplay struct {
	Session *netplay.Session
	udp     *netplay.UDP
	sim     *netplay.SimTransport // -netsim's, or nil
	lag     time.Duration         // the longest a -netsim datagram is held
}

// StartNetplay opens the socket and makes the session for -host or -join
// (Check has validated them), or returns nil without them. game runs under
// cfg (its TPS and InputSize travel in the handshake) and must implement
// engine.Saver and engine.Inputter; params names what its simulation
// depends on besides the input, the same on both peers. The handshake
// also carries engine.Fingerprint of game, which StartNetplay runs first
// (120 ticks, the state put back): a peer running another version of the
// game's simulating code is refused, naming the simulation, while builds
// of the same code for other CPUs play together. Make the loop
// with the result's NewLoop, and Close it after Run:
//
//	np, err := g.flags.StartNetplay(cfg, g, "mygame v1")
//	...
//	defer np.Close()
//	g.loop, err = np.NewLoop(cfg, win, g)
func (f *Flags) StartNetplay(cfg engine.Config, game engine.Game, params string) (*Netplay, error) {
	n := &f.Net
	if !n.On() {
		return nil, nil
	}
	listen, peer := hostPort(n.Host), netplay.Unknown
	if remote := n.Join + n.Spectate; remote != "" {
		listen, peer = ":0", netip.MustParseAddrPort(remote)
		if peer.Addr().IsLoopback() {
			listen = "127.0.0.1:0"
		}
	}
	udp, err := netplay.ListenUDP(listen)
	if err != nil {
		return nil, err
	}
	np := &Netplay{udp: udp}
	var tr netplay.Transport = udp
	if n.NetSim != "" {
		sim, _ := netplay.ParseNetSim(n.NetSim)
		np.sim = netplay.NewSimTransport(udp, sim, nil, uint64(time.Now().UnixNano()))
		np.lag = sim.Latency + sim.Jitter + 50*time.Millisecond // reordering holds up to 50 ms more
		tr = np.sim
	}
	// What the game's code simulates: peers of another version of it are
	// refused at the handshake, builds of this one for other CPUs play.
	fcfg := cfg
	fcfg.Players = 2
	sim, err := engine.Fingerprint(fcfg, game)
	if err != nil {
		udp.Close()
		return nil, err
	}
	c := netplay.Config{Players: 2, InputSize: cfg.InputSize, InputDelay: n.InputDelay, MaxPrediction: n.MaxPrediction,
		TPS: cfg.TPS, Params: params, Sim: sim, EndTick: n.EndTick}
	switch {
	case n.Spectate != "":
		c.Spectate, c.Host = true, peer
	case n.Host != "":
		c.Local, c.Addrs = 0, []netip.AddrPort{{}, peer}
		for i := range HostSpectators {
			c.Spectators = append(c.Spectators, netplay.SpectatorSeat(i))
		}
		tr = netplay.NewAccept(tr, HostSpectators)
	default:
		c.Local, c.Addrs = 1, []netip.AddrPort{peer, {}}
	}
	if np.Session, err = netplay.NewSession(c, game, tr); err != nil {
		udp.Close()
		return nil, err
	}
	return np, nil
}

// NewLoop makes the loop that runs game: through the session with -host or
// -join (whose time sync then slows the loop's clock), alone without.
func (n *Netplay) NewLoop(cfg engine.Config, p engine.Platform, game engine.Game) (*engine.Loop, error) {
	if n == nil {
		return engine.NewLoop(cfg, p, game)
	}
	cfg.InputSize, cfg.Players = 0, 0 // the session calls the game's Input
	l, err := engine.NewLoop(cfg, p, n.Session)
	if err != nil {
		return nil, err
	}
	n.Session.SetTimeScaler(l.Timestep())
	return l, nil
}

// Report returns the stats line's netplay fields (netplay.Session.Report),
// or "" without a session.
func (n *Netplay) Report() string {
	if n == nil {
		return ""
	}
	return n.Session.Report()
}

// Close says goodbye to the peer, lets -netsim's held datagrams (the
// goodbye among them) go out, and closes the socket. Nil-safe and
// idempotent.
func (n *Netplay) Close() error {
	if n == nil {
		return nil
	}
	err := n.Session.Close()
	if n.sim != nil {
		for deadline := time.Now().Add(n.lag); n.sim.Stats().Held > 0 && time.Now().Before(deadline); {
			n.sim.Flush()
			time.Sleep(2 * time.Millisecond)
		}
	}
	return errors.Join(err, n.udp.Close())
}
