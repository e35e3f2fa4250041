// Package netplay runs a fixstep game over the network, rollback style.
// Every machine runs the whole simulation. A tick runs as soon as the
// local input is known: the inputs that have not arrived are predicted
// (each player's last one, repeated); when a final input arrives and
// differs from its prediction, the role loads the state saved before
// that tick and runs the ticks since again, within the frame, so the game
// shows the present at once and corrects it quietly. For that the game
// implements engine.Saver and engine.Inputter, and its Update is
// deterministic (engine.SyncTest checks it).
//
// # Roles, and the core they stand on
//
// A machine plays one role in a match, and each role is a Match: the
// engine.Game the loop runs, which runs the game inside it and forwards
// its hooks, and what a runner needs of it (a time scaler, a tick
// listener for a recording, its settings, its figures, its report, its
// error, Close). Package app holds a Match and never asks which role.
//
//   - Peer to peer, the way GGPO does: a Session per player, each
//     connected to every other, and spectators fed by a player. A Lobby
//     seats the players of a match whose host knows only how many there
//     are (NewLobbySession); an Accept transport seats callers whose
//     addresses are not known up front.
//   - With a server that owns the match: a Server runs the game headless
//     at the fixed tick and never waits for anyone; Clients join and
//     leave at any time, are sent its state, and play on its final inputs.
//
// Under a Session and a Client is one rollback core, as GGPO's Sync is
// under its backends and GGRS's SyncLayer under every session: the rows
// of inputs (final, used, the local player's own) and which are final,
// the states saved before the ticks that may run again, the rerun from
// the first wrong prediction, the tick time, the checkpoints' hashes and
// the recorder. Every role shares the tick arithmetic, the round trip
// estimate and the state's transfer in chunks (a server's to a client, a
// host's to a late spectator), and counts the same figures (MatchStats).
// A fix to any of them is made once. The roles own the network: what
// they send and when, when a tick may run, how they keep in step.
//
// A Session is the engine.Game a Loop runs; it wraps the game:
//
//	tr, err := netplay.ListenUDP(":7000")
//	...
//	s, err := netplay.NewSession(netplay.SessionConfig{
//		Players: 2, Local: 0, Addrs: []netip.AddrPort{{}, peerAddr},
//		InputSize: 4, Params: "arena v1", Sim: fingerprint,
//	}, game, tr)
//	...
//	loop, err := engine.NewLoop(engine.Config{TPS: 60}, window, s)
//	s.SetTimeScaler(loop.Timestep())
//	err = loop.Run(ctx)
//	s.Close()
//	tr.Close()
//
// A server and its clients the same way:
//
//	srv, err := netplay.NewServer(netplay.ServerConfig{Players: 4, InputSize: 4,
//		Params: "arena v1", Sim: fingerprint}, game, udp)
//	loop, err := engine.NewLoop(engine.Config{TPS: 60}, engine.NewHeadless(60), srv)
//
//	cl, err := netplay.NewClient(netplay.ClientConfig{Server: addr, InputSize: 4,
//		Params: "arena v1", Sim: fingerprint}, game, udp)
//	loop, err := engine.NewLoop(engine.Config{TPS: 60}, window, cl)
//	cl.SetTimeScaler(loop.Timestep())
//
// What each does, and its settings, is in SessionConfig (input delay,
// maximum prediction, spectators and late ones, the time sync, the end
// of a match), ServerConfig and ClientConfig. Every role checks the
// others' simulation at the handshake (the tick rate, the input size,
// the game's Params and build: a *FingerprintError names what differs),
// compares state hashes (engine.StateHash) every second of game time and
// at the match's end (a mismatch stops a peer with an
// *engine.DesyncError; a client snaps back to its server's state), and
// hands a recorder every tick once it is final (SetTickListener,
// replay.RecordSession), with every player's input and which seats were
// taken, so a recording replays the whole match.
//
// A peer-to-peer match of three or four players survives a lost one, as
// GGPO disconnects a player and plays on. When a player vanishes (its
// silence passes DisconnectTimeout) or quits, the players still in touch
// agree on the tick from which its seat is empty (each has a vote, how
// many of its inputs it had; they take the largest, and pass the inputs
// on to those that lack them), and play on: the game sees
// engine.Inputs.Seated(p) false from that tick, on every player, in
// every recording and on the spectators. They must be more than half of
// the players seated before, so a peer cut off from the others stops
// instead of playing on alone; if it hears from them again, it is told
// it was dropped. A match of two that loses a player ends, as do the
// players of a match left without a majority (a *DisconnectError). See
// Session.
//
// Pause, in a networked game, is the game's, not the loop's. A peer whose
// loop is paused (loop.Timestep().SetPaused(true)) runs no tick, but its Begin still
// reads and sends keep-alives, so the others do not time it out: they run
// on, predicting its input, until they are MaxPrediction ticks past its
// last one, and stall there; when it resumes, the time sync lets it catch
// up. So one peer's loop pause freezes the match for everyone, a few
// ticks late. A game that wants a pause menu everyone sees sends "paused"
// in its input value and stops its own simulation on it, on every peer at
// the same tick; a loop pause is for a debugger or a minimized window.
//
// Easing corrections is drawing's business, never the simulation's. A
// rollback (a Session's or a Client's) and a Client's snap to the server's
// state each load a state and run to the present within one frame, so what
// Draw shows can jump: a remote player's box by a few ticks of its motion,
// anything by more after a snap. The game eases that in its Draw with a
// gfx.Glide (package gfx/view): its Load calls Correct, Draw calls Frame
// once and At for each body with the drawn pose and its motion over the
// last tick, and a corrected body glides from where it was drawn to where
// it is over 100 ms instead of popping. Frames with no Load before them
// draw exactly what the game says; the simulation, its state and its
// hashes never see the glide. The demo (cmd/demo) does this for all its
// bodies.
//
// A rollback costs what its ticks cost, and a big world's tick is dear:
// a role that predicts times its ticks on its clock (MatchStats.TickCost)
// and keeps each frame within a budget (SessionConfig.FrameBudget,
// ClientConfig.FrameBudget; three quarters of a tick by default). It
// predicts no further past the last final tick than one frame can run
// again, runs one rollback a frame (a second only if the frame has room),
// catches up only while the frame has room, and delays its input by more
// so that it need not predict as far (MatchStats.InputDelay). So a slow
// machine, or a world too big for its budget, plays with more input delay
// and never spirals: its frames stay short. A client also delays its
// input by half its round trip, so that it rolls back no further than
// half the round trip, the jitter and its Lead (MatchStats.RollbackP99);
// what makes rollbacks frequent, and how a game keeps them few, is in
// docs/netplay.md. Time only paces: what a tick computes depends on its
// inputs alone, so every machine's hashes stay equal.
//
// Datagrams are hostile until proved otherwise: those from unknown
// addresses are ignored, every count is checked before it is used, every
// buffer is bounded, every decoder is fuzzed, malformed datagrams are
// dropped and counted (MatchStats.PacketsBad), and before a handshake no
// answer is larger than the datagram that prompted it, so a forged source
// address gains no amplification. A server proves an address with a
// cookie (a MAC under a rotating key from crypto/rand) before it spends
// on it, gives a seat back only to its session secret, and sends a state
// only as fast as it is acknowledged (see Server); a client or a late
// spectator whose state does not come stops with a *ServerError
// (Misbehaved) rather than load forever. There is no encryption: a peer
// or an attacker on the path can send false inputs. The wire format is
// described at the top of wire.go, wire_session.go and wire_server.go.
//
// Package app runs every game this way with -host, -join, -spectate,
// -server and -connect; netplay/agones tells Agones how a server is
// doing.
//
// Everything is driven with numbers, like engine.Timestep: the Clock and
// the Transport are injected, so tests run several peers in one process
// over a seeded SimTransport and get the same run every time. In steady
// state, rollbacks included, a frame allocates nothing.
package netplay
