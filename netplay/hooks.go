package netplay

import (
	"time"

	"github.com/fixstep/fixstep/engine"
)

// hooks are a game's optional engine hooks, found once by type assertion:
// every role (Session, Server, Client) embeds them, so that the loop's
// QualityChanged, SuspendChanged, GPUTime and End reach the game through
// the role as they reach it alone, and the role's Begin and Draw pass the
// game frames that say which player this machine plays (Frame.Local).
type hooks struct {
	game    engine.Game
	begin   engine.Beginner
	end     engine.Ender
	quality engine.QualityChanger
	susp    engine.SuspendChanger
	gpu     engine.GPUTimer
}

// findHooks returns g's hooks.
func findHooks(g engine.Game) hooks {
	h := hooks{game: g}
	h.begin, _ = g.(engine.Beginner)
	h.end, _ = g.(engine.Ender)
	h.quality, _ = g.(engine.QualityChanger)
	h.susp, _ = g.(engine.SuspendChanger)
	h.gpu, _ = g.(engine.GPUTimer)
	return h
}

// beginGame runs the game's Begin, if it has one, on frame f as the
// player local plays.
func (h *hooks) beginGame(f engine.Frame, local int) error {
	if h.begin == nil {
		return nil
	}
	f.Local = local
	return h.begin.Begin(f)
}

// drawGame runs the game's Draw on frame f as the player local plays.
func (h *hooks) drawGame(f engine.Frame, local int) {
	f.Local = local
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
