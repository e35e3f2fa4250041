// Package app runs a fixstep game: a game hands itself to Run (or Main)
// with a short Options, and the runner owns everything around the
// simulation, once and in one order: the flags, the profiles, the window
// and the renderer (or none, -headless), the networked match, the loop,
// the quality pin, the sync test, the recording or the replay, the
// signals, the run, the closing, the stats line and the exit status.
//
//	func main() {
//		g := &game{}
//		os.Exit(app.Main(g, app.Options{Name: "mygame", InputSize: 2, Params: "mygame v1",
//			Window: gfx.WindowConfig{Input: &g.keys}}))
//	}
//
// A game is its simulation (Game: Update reading only Tick.Input, Input
// turning the devices into that value, Save and Load) and optional hooks
// discovered by type assertion, as package engine discovers Begin and End:
// Starter builds the world once the player count is known, Opener loads
// what the game draws with once the window and the renderer exist.
// A game with flags of its own (a world's size, a level) is a Configurer:
// its flags sit beside the runner's, and those its simulation depends on
// (Options.SimFlags) go in the Params a recording carries, netplay peers
// agree on and a server hands its clients, so a replay and a -connect
// take them, parsed, before Configure. Which player this machine plays is
// engine.Frame.Local, on the frames Begin and Draw get. Reporter gives
// the game's fields of the stats line,
// Attacher the loop that runs it and the networked match, in whatever role
// (for an overlay of its stats), and Employer the workers -workers asks
// for, to step its physics worlds on.
//
// Every game gets every mode, on the same flags (-h lists them):
//
//	-headless            no window: frames paced in real time, or on a
//	                     simulated clock with -sim-frame D, or -sim-jitter SEED's
//	                     random 4-40 ms frames (as fast as the CPU goes)
//	-ticks N             with -headless: stop after exactly N ticks (on every
//	                     peer, with netplay) and print state-hash=<hex>
//	-bot SEED            this machine's player is Options.Bot, from SEED
//	-record F, -replay F record the run's inputs and state hashes; play them
//	                     back (headless: as fast as the CPU goes), ending on
//	                     the recorded state-hash
//	-compare A B         name the first tick whose input or state hash
//	                     differs between two recordings of one run
//	-synctest N          run every tick again after a rollback of N ticks
//	-host ADDR -players N  host a match of N players (2 to 4; 2 by default):
//	                     each -join ADDR takes the next free seat as it calls,
//	                     and learns N from the host before the game's Start
//	-server ADDR -players N  serve a match of N seats (1 to 32; 2 by
//	                     default), headless, recording it with -record and
//	                     ending it for everyone with -ticks N; players come
//	                     and go as they -connect ADDR, at any time, and
//	                     learn N from the server before the game's Start.
//	                     In an Agones pod (AGONES_SDK_HTTP_PORT) it tells
//	                     Agones it is ready, healthy and how many play
//	-spectate ADDR       watch a host's or a server's match (it asks which)
//	-netsim, -input-delay, -max-prediction
//	-workers N           step the game's physics worlds on N workers, the
//	                     loop's goroutine included (Employer; 0, the
//	                     default: the machine's cores): the same world,
//	                     bit for bit, on any number
//	-frames N, -screenshot F, -quality, -vsync, -fps-cap
//	-cpuprofile, -memprofile, -trace, -pprof
//
// The state hash (engine.StateHash) is FNV-1a (64 bits) of the game's
// Save bytes: what -ticks prints, the hash netplay's peers, servers and
// clients compare, and what a recording checks.
//
// # Endings
//
// Every way a run ends maps, here and nowhere else, to an exit status
// (ExitCode) and to how a -record file ends (the end record's message: a
// replay of a recording that ended cleanly and whose ticks all verify
// exits 0):
//
//	ending                                    exit   the recording ends
//	a quit, -frames, -ticks, a replay's end   0      cleanly
//	the other peer of 2 left (said goodbye)   0      cleanly
//	a server's -ticks ended the match         0      (a client: state-hash=)
//	the server left or closed                 0      (a client records nothing)
//	the server vanished or never answered     3
//	the server refused or dropped the client  1      (*netplay.ServerError,
//	                                                 *netplay.FingerprintError)
//	the server broke the protocol (its state  4      (*netplay.ServerError,
//	never came, too slowly, or again and again)      Misbehaved)
//	a signal n (SIGINT, SIGTERM, SIGHUP)      128+n  cleanly
//	a peer of 3 or 4 vanished or left         -      (the others play on: its seat is
//	                                                 empty from a tick they agree on,
//	                                                 left=3@1234 in the stats line)
//	a peer vanished or never answered (of 2   3      cleanly: its ticks are final
//	players, or half the players at once)
//	the other players dropped this peer       3      cleanly: its ticks are final
//	(it was cut off or stalled)
//	a -ticks match with no hash compared      1      cleanly (netplay.ErrUnverified)
//	a panic (printed with its stack)          2      with the panic: a replay reproduces it
//	a desync (netplay, replay, -synctest)     1      with the error
//	a bad flag, or any other error            1      with the error
//	-h                                        0      (nothing runs)
//
// On every ending the recording, the profiles and the stats line are
// written. The stats line ("stats frames=... ticks=...", ticks being those
// the game's state ran, with the window's, the game's, the sync test's and
// the session's fields) and the recording's report go to Options.Stderr
// (with, for a replay that panics as its recording did, "replay
// reproduced the recorded crash"); state-hash= goes to Options.Stdout, the
// run's one result. Every output is checked against every other and
// against the files the run reads (-replay, a Configurer's Inputs) before
// anything runs.
//
// # Without cgo
//
// A game built with CGO_ENABLED=0 is a static binary with no SDL, OpenGL
// or libc that runs every headless mode (-headless with -ticks, -bot,
// -record, -replay, -synctest, -host, -join, -spectate, -server,
// -connect; -compare) on the
// same state hashes as the cgo build: gfx and audio have stand-ins
// without cgo, so the game's drawing and sound code compile unchanged. A
// run that needs a window is refused before anything starts, with exit
// status 1: "this build has no window (built with CGO_ENABLED=0): run it
// with -headless or -server".
//
// Run must be called from the main goroutine: SDL and GL run on the main
// OS thread (go-sdl2 locks it in its init).
package app
