package app

import (
	"errors"
	"flag"
	"fmt"
	"time"

	"github.com/fixstep/fixstep/engine"
	"github.com/fixstep/fixstep/netplay"
	"github.com/fixstep/fixstep/replay"
)

// ExitPeerVanished is the exit status of a networked run whose peer went
// silent for the disconnect timeout and the match could not go on
// without it (two players, or half of them lost), whose peer never
// answered the handshake, or that the other players dropped.
const ExitPeerVanished = 3

// ExitServerFault is the exit status of a -connect or -spectate whose
// server broke the protocol (netplay.ServerError.Misbehaved): the state
// it announced made no progress, came too slowly, or was followed by
// state after state with none verified. Such a server is not serving; the
// client stopped within a bounded time rather than load forever.
const ExitServerFault = 4

// ExitCode is the exit status for what Run returned, as the package doc's
// table of endings has it: 0 for nil, engine.ErrStopped, flag.ErrHelp and
// a peer that left; 128+n after signal n; 2 after a panic;
// ExitPeerVanished (3) for a peer that vanished or never answered;
// ExitServerFault (4) for a server that broke the protocol; 1 for any
// other error.
func ExitCode(err error) int {
	var de *netplay.DisconnectError
	var se *netplay.ServerError
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &de) && de.Left:
		return 0
	case errors.As(err, &de):
		return ExitPeerVanished
	case errors.As(err, &se) && se.Misbehaved:
		return ExitServerFault
	}
	return engine.ExitCode(err)
}

// recordedEnd is the error a recording ends with for a run that ended
// with err: nil (a clean end) when the run's ticks are all final and true
// whatever happened outside the simulation, a peer that left or vanished,
// a match that could not compare hashes; err itself otherwise, which the
// recorder writes unless it is a clean end (engine.ErrStopped, a signal).
func recordedEnd(err error) error {
	var de *netplay.DisconnectError
	if errors.As(err, &de) || errors.Is(err, netplay.ErrUnverified) {
		return nil
	}
	return err
}

// end closes the run's recording or replay, given what the loop's Run
// returned, and returns how the run ended: nil for a clean end.
func end(rp *replay.Run, runErr error) error {
	switch {
	case rp == nil:
	case rp.Player != nil:
		runErr = rp.Player.Close(runErr) // nil for a replay that ran to its end
	default:
		runErr = errors.Join(runErr, rp.Recorder.Close(recordedEnd(runErr)))
	}
	if errors.Is(runErr, engine.ErrStopped) {
		return nil
	}
	return runErr
}

// leftErr returns err's peer that left (a clean end), or nil.
func leftErr(err error) *netplay.DisconnectError {
	var de *netplay.DisconnectError
	if errors.As(err, &de) && de.Left {
		return de
	}
	return nil
}

// describe says what ended the run, for a message: a panic with its
// stack, a player by its number from 1 as the flags and the docs count.
func describe(err error) string {
	var pe *engine.PanicError
	var de *netplay.DisconnectError
	switch {
	case errors.As(err, &pe):
		return fmt.Sprintf("%v\n%s", err, pe.Stack)
	case errors.As(err, &de) && de.Left && de.Server:
		return "the server left"
	case errors.As(err, &de) && de.Left:
		return player(de.Player) + " left"
	case errors.As(err, &de) && de.Dropped:
		return fmt.Sprintf("dropped from the match: the other players lost touch with this peer (%s) and play on without it from tick %d (%v said so)", player(de.Player), de.Tick, de.Addr)
	case errors.As(err, &de) && !de.Handshake && de.Server:
		return fmt.Sprintf("the server disconnected: nothing from %v for %v", de.Addr, de.Silence.Round(time.Millisecond))
	case errors.As(err, &de) && !de.Handshake:
		return fmt.Sprintf("%s disconnected: nothing from %v for %v", player(de.Player), de.Addr, de.Silence.Round(time.Millisecond))
	}
	return err.Error()
}

// player names player index i as the flags, the docs and netplay's errors
// count: "player 2" for index 1, "the host" for a spectator's (-1).
func player(i int) string {
	if i < 0 {
		return "the host"
	}
	return fmt.Sprintf("player %d", i+1)
}
