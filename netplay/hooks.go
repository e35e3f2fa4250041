package netplay

import (
	"time"

	"github.com/fixstep/fixstep/engine"
)

// hooks are a game's optional engine hooks, found once by type assertion,
// and the player this machine plays (local): every role holds them (the
// Server itself, a Session and a Client in their rollback core), so that
// the loop's QualityChanged, SuspendChanged, GPUTime and End reach the
// game through the role as they reach it alone, and the game's Begin and
// Draw get frames that say which player this machine plays (Frame.Local).
type hooks struct {
	game    engine.Game
	local   int // the player this machine plays; -1 none (a spectator, a server, before a seat)
	begin   engine.Beginner
	end     engine.Ender
	quality engine.QualityChanger
	susp    engine.SuspendChanger
	gpu     engine.GPUTimer
}

// findHooks returns g's hooks, for no player yet.
func findHooks(g engine.Game) hooks {
	h := hooks{game: g, local: -1}
	h.begin, _ = g.(engine.Beginner)
	h.end, _ = g.(engine.Ender)
	h.quality, _ = g.(engine.QualityChanger)
	h.susp, _ = g.(engine.SuspendChanger)
	h.gpu, _ = g.(engine.GPUTimer)
	return h
}

// beginGame runs the game's Begin, if it has one, on frame f.
func (h *hooks) beginGame(f engine.Frame) error {
	if h.begin == nil {
		return nil
	}
	f.Local = h.local
	return h.begin.Begin(f)
}

// Draw draws the game: the present, as predicted where the role
// predicts, on a frame whose Local is the player this machine plays (-1
// for a spectator, a server, or a role not seated yet).
func (h *hooks) Draw(f engine.Frame) {
	f.Local = h.local
	h.game.Draw(f)
}

// End runs the game's End, if it has one.
func (h *hooks) End(st *engine.Stats) error {
	if h.end != nil {
		return h.end.End(st)
	}
	return nil
}

// QualityChanged runs the game's, if it has one.
func (h *hooks) QualityChanged(level int) {
	if h.quality != nil {
		h.quality.QualityChanged(level)
	}
}

// SuspendChanged runs the game's, if it has one. A suspended loop runs no
// update: a peer's others stall and time it out after DisconnectTimeout;
// a client's server replaces its inputs, then frees its seat.
func (h *hooks) SuspendChanged(suspended bool) {
	if h.susp != nil {
		h.susp.SuspendChanged(suspended)
	}
}

// GPUTime returns the game's, or 0.
func (h *hooks) GPUTime() time.Duration {
	if h.gpu != nil {
		return h.gpu.GPUTime()
	}
	return 0
}
