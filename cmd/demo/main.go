// Command demo is fixstep's showcase: bouncing boxes and balls in a fixed
// step physics world, a player box on the arrow keys (or WASD, or a
// gamepad) that jumps with Space (or A), the seed's oscillating box, a
// rotating cube that shows interpolated rotation, and the debug overlay
// (F3). F11 or Alt+Enter toggles fullscreen, F12 saves a screenshot, Escape
// quits.
//
// Package app runs it, in every mode and on the same flags as any game
// (-headless, -ticks, -sim-frame, -sim-jitter, -bot, -record, -replay,
// -compare, -synctest, -host, -join, -spectate, the profiles; see -h), with
// the demo's own flags beside them (-n, -seed, -tps, -load, -bindings,
// -gldebug, -width, -height, -seconds, -panic-at). Headless, -ticks N
// prints the world's state hash so runs at different frame rates can be
// compared:
//
//	go run ./cmd/demo -headless -ticks 3600 -sim-frame 6.94ms
//	go run ./cmd/demo -headless -ticks 3600 -sim-frame 33.3ms
//
// Two demos play together over UDP, rollback style (package netplay):
// -host ADDR on one machine, -join ADDR on the other, each moving its own
// player box; -spectate ADDR watches:
//
//	demo -headless -ticks 3600 -host :7000 -bot 1 -record host.fxr
//	demo -headless -ticks 3600 -join 127.0.0.1:7000 -bot 2 -netsim latency=50ms,jitter=10ms,loss=0.05,dup=0.01 -record join.fxr
//	demo -headless -replay host.fxr
//	demo -compare host.fxr join.fxr
//
// How a run ends, its exit status and its stats line are package app's
// (see its table of endings). -bench sprites is the one mode of its own:
// the sprites benchmark, in bunny.go.
package main

import (
	"io"
	"os"

	"github.com/fixstep/fixstep/app"
	"github.com/fixstep/fixstep/cmd/demo/arena"
	"github.com/fixstep/fixstep/engine"
)

// signals catches the stop signals from the program's first moments: a
// package variable is set before main runs, as early as Go code can. The
// runner (or the benchmark) releases them when everything is written.
var signals = engine.CatchSignals(func(s os.Signal) { app.ExitOnSecondSignal("demo", os.Stderr, s) })

// main hands the demo to the runner; the exit status says how the run
// ended (app.ExitCode).
func main() {
	args := os.Args[1:]
	if benchmark(args) {
		os.Exit(bench(args, os.Stdout, os.Stderr, signals))
	}
	g := newGame(os.Stderr)
	os.Exit(app.Main(g, g.options(args, os.Stdout, os.Stderr, signals)))
}

// options are what the runner needs to know of the demo; sig, when not
// nil, are the signals caught before main.
func (g *game) options(args []string, stdout, stderr io.Writer, sig *engine.Signals) app.Options {
	return app.Options{Name: "demo", InputSize: arena.InputSize, MaxPlayers: arena.MaxPlayers, Bot: bot,
		Params: "demo", SimFlags: simFlags, Args: args, Stdout: stdout, Stderr: stderr, Signals: sig}
}

// bot is -bot SEED's player (arena.BotInput): it depends on the tick
// alone, like a player's hands.
func bot(seed uint64, t engine.Tick, dst []byte) { arena.BotInput(seed, t.N, dst) }
