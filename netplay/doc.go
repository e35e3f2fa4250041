// Package netplay runs a fixstep game over the network, rollback style:
// peer to peer, the way GGPO does (Session), or with a server that owns
// the match (Server and Client, below). Each peer runs the whole simulation.
// A tick runs as soon as the local input is known: the inputs of remote
// players that have not arrived are predicted (the last one repeated).
// When a real input arrives and differs from its prediction, the session
// loads the state saved before that tick and runs the ticks since again,
// within the frame, so the game shows the present at once and corrects
// it quietly. For that the game implements engine.Saver and
// engine.Inputter, and its Update is deterministic (engine.SyncTest
// checks it).
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
// What it does, with the settings in SessionConfig:
//
//   - Sessions of 2 to 4 players, and spectators: a player feeds them the
//     confirmed inputs of every player; they never predict. A spectator
//     that calls after the match's first 64 ticks (or falls that far
//     behind) is first sent the host's state at a confirmed tick, in
//     acknowledged slices, and runs the ticks since fast to the present
//     (SessionStats.Catchup). A spectator the host cannot seat (seats taken or
//     none offered) is refused and stops with a *SeatError saying why; a
//     seat is freed when its spectator leaves, is dropped, or never
//     finishes the handshake.
//   - Seating (Lobby): a host that knows its player count waits for
//     callers that know only its address; each takes the next free seat
//     as it calls, and once all are seated the host sends everyone the
//     others' addresses, so the mesh forms as if they had been known
//     from the start. A caller of another game is refused, naming the
//     field, and the host goes on waiting; one that finds every seat
//     taken stops with a *SeatError.
//   - Input delay (2 ticks by default): the local input applies that
//     many ticks after it is read, so it often arrives before it is
//     needed, and fewer ticks roll back.
//   - Maximum prediction (8 ticks): a peer stalls rather than run further
//     past the last tick every input is known for. Lockstep predicts
//     nothing: each tick waits for every input.
//   - Time sync: each peer estimates how many ticks it runs ahead of each
//     other one (the mean of its own estimate and theirs); the one ahead
//     slows its loop's time scale by up to 10 % until they are level,
//     instead of stalling. The tick length never changes; the frame clamp,
//     the update cap and pause keep their meanings.
//   - Handshake: a hello carries the protocol version and a fingerprint of
//     the simulation (tick rate, player count, input size, hashes of the
//     game's params and build); a peer that differs is refused, and both
//     stop with a *FingerprintError naming the field.
//   - Inputs go redundantly, every tick, from the first one the peer has
//     not acknowledged; round-trip times, keep-alives, a warning after
//     500 ms of silence and a *DisconnectError after 2 s. A player that
//     times out another tells the rest (a "gone" goodbye), so every peer
//     stops naming the player that vanished, not the one that told it.
//   - Desync detection: every second of game time (SessionConfig.HashEvery) the
//     peers exchange the state hash (engine.StateHash) after a tick that
//     can no longer roll back; on a mismatch both stop with an
//     *engine.DesyncError naming the tick and the peer.
//   - Recording: a TickListener (SetTickListener; replay.RecordSession makes one)
//     hears every tick once it is final, with every player's input, so
//     either peer's recording replays the whole match.
//   - An end (SessionConfig.EndTick): every peer stops with engine.ErrStopped
//     after exactly that many ticks, in the same state, once the others
//     have all they need from it: a tournament round, a soak test. The
//     hash of the end state goes to the others too (in the last "done"
//     goodbye), so even a match shorter than HashEvery compares one; a
//     match that compared none with a player stops with ErrUnverified
//     instead, and SessionStats.Hashes (hashes_checked= in Report) says how
//     many were compared.
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
// Datagrams are hostile until proved otherwise: those from addresses not
// in the SessionConfig are ignored, a hello from a peer whose handshake is done
// changes nothing (a forged one cannot end a match), inputs and goodbyes
// must carry the receiver's nonce, malformed ones are dropped and counted
// (SessionStats.PacketsBad), every count is checked before it is used, every
// buffer is bounded, the decoder is fuzzed, and before the handshake no
// answer is larger than the datagram that prompted it, so a forged source
// address gains no amplification. There is no encryption nor
// authentication: a peer or an attacker on the path can send false
// inputs. The wire format is described at the top of wire.go, wire_session.go
// and wire_server.go.
//
// # A server that owns the match
//
// A Server runs the game headless at the fixed tick (an engine.Loop on
// engine.Headless) and never waits for a client: a seated player's input
// that arrived in time for its tick is used; one that did not is
// replaced by the player's last input, and the replacement is final
// (ServerStats.InputsReplaced). It sends each client the final inputs of
// every tick, and every HashEvery ticks the hash of its state. Which
// seats are taken is part of each tick's input (engine.Inputs.Seated), so
// a join or a leave is a deterministic event that the recording replays
// (SetTickListener, replay.RecordSession).
//
// A Client joins at any time: the server gives it a free seat (or a
// spectator's place) and sends it its saved state, in slices it
// acknowledges, then the final inputs since; the client loads the state,
// runs the ticks to the present as fast as its loop lets it, and its
// state hash is checked 15 ticks after the state's (ClientStats.Catchup
// says how long that took). From then on it plays as a Session does,
// predicting every input the server has not confirmed and rolling back
// when a final input differs (its own included, when it came late), and
// keeps just ahead of the server, so its inputs arrive ClientConfig.Lead
// ticks before they are needed: it changes its loop's time scale by up
// to 10 %, and jumps when it is more than 12 ticks off. A client that
// falls too far behind, or comes back after a drop, is sent the state
// again.
//
// The snap back: a client whose state hash differs from the server's (a
// bug, game code that is not portable, a modified client) asks for the
// server's state, loads it and goes on (ClientStats.Desyncs,
// ClientStats.Resyncs); one that differs MaxResyncs times in a row is
// dropped with a *ServerError saying why. The simulation never eases:
// Draw does (see easing corrections, above).
//
// The server's datagrams carry no world state in steady state, only
// inputs: 32 to 56 kbit/s per client at 4 players on links of 66 to
// 201 ms, whatever the world's size (BENCHMARKS.md).
//
// A server on the internet: a join is answered first with a cookie
// (HMAC-SHA-256 of the address, port and nonce under a key from
// crypto/rand that changes every 30 s, valid 30 to 60 s) that the server
// does not store, in fewer bytes than the join, and only a join that
// returns it takes a seat, so a flood of joins from forged addresses takes
// no seat, memory or time, and makes the server send no more than it
// received. The welcome gives the client a session secret: a join with
// another nonce from a seated address evicts no one, and one that brings
// the secret (ClientConfig.Secret) takes its seat back at once; the
// welcome also carries the server's settings (Settings: its Params
// whole), which a Probe asks for without a seat. One address (an IPv4
// address, an IPv6 /64) takes at most ServerConfig.SeatsPerAddr seats. A
// state is sent only as fast as it is acknowledged: 64 slices before the
// first acknowledgement, 4 more for each slice acknowledged, all joiners
// sharing ServerConfig.TransferRate; a client whose acknowledgements stop
// moving for DisconnectTimeout is dropped (ServerStats.Stalled), and an
// update the server counts as bad keeps no seat. A client whose state
// makes no progress, comes slower than 16 kB/s or is restarted again and
// again stops with a ServerError (Misbehaved) rather than load forever.
// A full server refuses naming its seats; a client's inputs count for its
// own seat only (its token's); another game's client is refused naming
// the field, as between peers, and one of other Params is told the
// server's, and names both.
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
// Package app runs every game this way with -server ADDR and -connect
// ADDR; netplay/agones tells Agones how a server is doing.
//
// Everything is driven with numbers, like engine.Timestep: the Clock and
// the Transport are injected, so tests run several peers in one process
// over a seeded SimTransport and get the same run every time. In steady
// state, rollbacks included, a frame allocates nothing.
package netplay
