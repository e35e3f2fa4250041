package app_test

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/netip"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/fixstep/fixstep/app"
	"github.com/fixstep/fixstep/engine"
	"github.com/fixstep/fixstep/netplay"
)

// ender is a walker whose run ends with err from Begin at frame at, as an
// ending from outside the simulation does (a peer that vanished, a quit):
// the ticks before it are all true.
type ender struct {
	walker
	at  uint64
	err error
}

func (e *ender) Begin(f engine.Frame) error {
	if e.at != 0 && f.Index == e.at {
		return e.err
	}
	return nil
}

// bot pushes forward, back or not at all, from the seed and the tick.
func bot(seed uint64, t engine.Tick, dst []byte) { dst[0] = byte((seed + t.N/7) % 3) }

// run runs g with args in process and returns its stdout, its stderr and
// its error.
func run(t *testing.T, g app.Game, args ...string) (string, string, error) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	err := app.Run(g, app.Options{Name: "walker", InputSize: 1, MaxPlayers: 1, Bot: bot, Args: args, Stdout: &stdout, Stderr: &stderr})
	return stdout.String(), stderr.String(), err
}

// TestModesAgree: -ticks at two frame rates, under -synctest, recorded and
// replayed, the same bot's run ends on one state hash; another seed ends
// on another.
func TestModesAgree(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "run.fxr")
	want, _, _ := run(t, &walker{}, "-headless", "-ticks", "300", "-sim-frame", "16ms", "-bot", "5")
	if !strings.HasPrefix(want, "state-hash=") {
		t.Fatalf("stdout %q, want state-hash=", want)
	}
	for _, args := range [][]string{
		{"-headless", "-ticks", "300", "-sim-frame", "7ms", "-bot", "5"},
		{"-headless", "-ticks", "300", "-sim-frame", "40ms", "-bot", "5", "-synctest", "8"},
		{"-headless", "-ticks", "300", "-sim-frame", "16ms", "-bot", "5", "-record", rec},
		{"-headless", "-replay", rec},
	} {
		out, stderr, err := run(t, &walker{}, args...)
		if err != nil || out != want {
			t.Errorf("%q: %v, stdout %q, want %q\n%s", args, err, out, want, stderr)
		}
	}
	if other, _, _ := run(t, &walker{}, "-headless", "-ticks", "300", "-sim-frame", "16ms", "-bot", "6"); other == want {
		t.Errorf("-bot 6 ends on -bot 5's %q: the bot does not play", want)
	}
}

// TestEndings: a run that ends from outside the simulation (a peer that
// vanished, a signal, the other players dropping this one) ends its
// recording cleanly, so the recording replays to exit 0, and says what
// ended it; a run the game ended with an error records it, and its
// replay, which does not end so, fails.
func TestEndings(t *testing.T) {
	for _, c := range []struct {
		name             string
		err              error
		exit, replayExit int
		says             string // in the message, if set
	}{
		{"vanished", fmt.Errorf("netplay: %w", &netplay.DisconnectError{Player: 1}), app.ExitPeerVanished, 0, "walker: player 2 disconnected: nothing from "},
		{"dropped", &netplay.DisconnectError{Player: 2, Dropped: true, Tick: 90, Addr: netip.MustParseAddrPort("10.0.0.1:7000")}, app.ExitPeerVanished, 0,
			"walker: dropped from the match: the other players lost touch with this peer (player 3) and play on without it from tick 90 (10.0.0.1:7000 said so)\n"},
		{"left", &netplay.DisconnectError{Player: 1, Left: true}, 0, 0, "walker: player 2 left: the match is over"},
		{"unverified", fmt.Errorf("netplay: match over: %w", netplay.ErrUnverified), 1, 0, ""},
		{"signal", &engine.SignalError{Signal: syscall.SIGTERM}, 128 + 15, 0, ""},
		{"quit", engine.ErrStopped, 0, 0, ""},
		{"game error", errors.New("walker: out of road"), 1, 1, "walker: walker: out of road\n"},
	} {
		rec := filepath.Join(t.TempDir(), "run.fxr")
		var o, e bytes.Buffer
		got := app.Main(&ender{at: 100, err: c.err}, app.Options{Name: "walker", InputSize: 1, MaxPlayers: 1, Bot: bot,
			Args: []string{"-headless", "-sim-frame", "16ms", "-bot", "3", "-record", rec}, Stdout: &o, Stderr: &e})
		if got != c.exit || !strings.Contains(e.String(), c.says) {
			t.Errorf("%s: exit status %d, want %d and %q in\n%s", c.name, got, c.exit, c.says, &e)
		}
		out, stderr, err := run(t, &walker{}, "-headless", "-replay", rec)
		if got := app.ExitCode(err); got != c.replayExit || (got == 0) != strings.HasPrefix(out, "state-hash=") {
			t.Errorf("%s: its replay: %v, exit status %d, want %d, stdout %q\n%s", c.name, err, got, c.replayExit, out, stderr)
		}
	}
}

// TestExitCode is the package doc's table of endings.
func TestExitCode(t *testing.T) {
	for _, c := range []struct {
		err  error
		want int
	}{
		{nil, 0},
		{engine.ErrStopped, 0},
		{flag.ErrHelp, 0},
		{&netplay.DisconnectError{Left: true}, 0},
		{&engine.SignalError{Signal: syscall.SIGINT}, 130},
		{&engine.PanicError{Value: "boom"}, 2},
		{&netplay.DisconnectError{Player: 1}, app.ExitPeerVanished},
		{&netplay.DisconnectError{Player: 1, Dropped: true}, app.ExitPeerVanished},
		{fmt.Errorf("run: %w", &netplay.DisconnectError{Handshake: true}), app.ExitPeerVanished},
		{&netplay.ServerError{Reason: "its seats are taken"}, 1},
		{fmt.Errorf("run: %w", &netplay.ServerError{Reason: "no new slice", Misbehaved: true}), app.ExitServerFault},
		{fmt.Errorf("%w", netplay.ErrUnverified), 1},
		{fmt.Errorf("netplay: %w", &engine.DesyncError{Tick: 60, Other: "player 2"}), 1},
		{errors.New("other"), 1},
	} {
		if got := app.ExitCode(c.err); got != c.want {
			t.Errorf("ExitCode(%v) = %d, want %d", c.err, got, c.want)
		}
	}
}

// TestRefused: options and flags that cannot run are errors that name
// them, before anything runs.
func TestRefused(t *testing.T) {
	for _, c := range []struct {
		opt  app.Options
		want string
	}{
		{app.Options{InputSize: 0}, "Options.InputSize 0"},
		{app.Options{InputSize: 65}, "Options.InputSize 65"},
		{app.Options{InputSize: 1, MaxPlayers: engine.MaxPlayers + 1}, "Options.MaxPlayers 33"},
		{app.Options{InputSize: 1, Args: []string{"-bot", "3"}}, "has no bot"},
		{app.Options{InputSize: 1, Args: []string{"-ticks", "3"}}, "need -headless"},
		{app.Options{InputSize: 1, Args: []string{"-headless", "-frames", "3"}}, "-headless and -frames"},
		{app.Options{InputSize: 1, Args: []string{"-headless", "-sim-frame", "1us"}}, "-sim-frame 1µs"},
		{app.Options{InputSize: 1, MaxPlayers: 1, Args: []string{"-host", ":7000"}}, "one-player game"},
		{app.Options{InputSize: 1, Args: []string{"-headless", "extra"}}, `unexpected argument "extra"`},
		{app.Options{InputSize: 1, Args: []string{"-nosuch"}}, "flag provided but not defined"},
	} {
		c.opt.Name, c.opt.Stdout, c.opt.Stderr = "walker", io.Discard, io.Discard
		err := app.Run(&walker{}, c.opt)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: Run = %v, want an error with %q", c.opt.Args, err, c.want)
		}
	}
}

// panicker is a walker whose Update panics at tick at.
type panicker struct {
	walker
	at uint64
}

func (p *panicker) Update(t engine.Tick) error {
	if t.N == p.at {
		panic("walker: fell off the road")
	}
	return p.walker.Update(t)
}

// drifter is a walker whose Update also reads what Save does not hold:
// a rerun after a rollback differs.
type drifter struct {
	walker
	runs int64
}

func (d *drifter) Update(t engine.Tick) error {
	d.runs++
	d.x += d.runs
	return d.walker.Update(t)
}

// TestEndingsInTheGame: a panic exits 2, is recorded, and its replay
// reproduces it (exit 2 again, the report says so); a game whose Update is
// not a function of its saved state fails -synctest with exit 1.
func TestEndingsInTheGame(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "crash.fxr")
	_, stderr, err := run(t, &panicker{at: 50}, "-headless", "-sim-frame", "16ms", "-bot", "3", "-record", rec)
	var pe *engine.PanicError
	if !errors.As(err, &pe) || app.ExitCode(err) != 2 {
		t.Fatalf("Run = %v, exit status %d, want a *engine.PanicError and 2\n%s", err, app.ExitCode(err), stderr)
	}
	_, stderr, err = run(t, &panicker{at: 50}, "-headless", "-replay", rec)
	if !errors.As(err, &pe) || app.ExitCode(err) != 2 || !strings.Contains(stderr, "fell off the road") {
		t.Errorf("its replay: %v, exit status %d, want the panic again and 2\n%s", err, app.ExitCode(err), stderr)
	}
	_, stderr, err = run(t, &drifter{}, "-headless", "-ticks", "100", "-sim-frame", "16ms", "-synctest", "2")
	var se *engine.SyncError
	if !errors.As(err, &se) || app.ExitCode(err) != 1 || se.Tick != 0 {
		t.Errorf("-synctest of a drifter: %v, exit status %d, want a *engine.SyncError at tick 0 and 1\n%s", err, app.ExitCode(err), stderr)
	}
}

// runner is walker with its code changed: another version of the game.
type runner struct{ walker }

func (r *runner) Update(t engine.Tick) error {
	r.v += 2 * int64(int8(t.Input.Player(0)[0])) // was 1×
	r.x += r.v
	return nil
}

// TestOtherVersionRefused: a joiner whose simulating code differs (the
// same name, the same Params, another Update) is refused at the handshake,
// naming the simulation, and the host goes on to play the same version.
func TestOtherVersionRefused(t *testing.T) {
	l, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.LocalAddr().String()
	l.Close()
	opts := func(args ...string) app.Options {
		return app.Options{Name: "walker", InputSize: 1, MaxPlayers: 2, Bot: bot, Args: args, Stdout: io.Discard, Stderr: io.Discard}
	}
	host := make(chan error, 1)
	go func() {
		host <- app.Run(&walker{}, opts("-headless", "-ticks", "60", "-bot", "1", "-host", addr))
	}()
	err = app.Run(&runner{}, opts("-headless", "-ticks", "60", "-bot", "2", "-join", addr))
	var fe *netplay.FingerprintError
	if !errors.As(err, &fe) || fe.Field != "simulation" || !strings.Contains(err.Error(), "another version of the game's simulating code") {
		t.Fatalf("another version joins: %v, want a refusal naming the simulation", err)
	}
	var same bytes.Buffer
	o := opts("-headless", "-ticks", "60", "-bot", "2", "-join", addr)
	o.Stdout = &same
	if err := app.Run(&walker{}, o); err != nil || !strings.HasPrefix(same.String(), "state-hash=") {
		t.Fatalf("the same version joins: %v, stdout %q", err, same.String())
	}
	if err := <-host; err != nil {
		t.Fatalf("the host: %v", err)
	}
}
