package engine

import "time"

// Hooks are a game's optional hooks (Beginner, Ender, QualityChanger,
// SuspendChanger, GPUTimer), found once by type assertion (FindHooks), for
// a Game that runs another inside it: a netplay role, a runner's wrapper.
// Embedded, they forward each hook the loop calls to the game, and do
// nothing for a hook it lacks; the wrapper overrides those it adds to.
// They allocate nothing.
type Hooks struct {
	game    Game
	begin   Beginner
	end     Ender
	quality QualityChanger
	susp    SuspendChanger
	gpu     GPUTimer
}

// FindHooks returns g's hooks.
func FindHooks(g Game) Hooks {
	h := Hooks{game: g}
	h.begin, _ = g.(Beginner)
	h.end, _ = g.(Ender)
	h.quality, _ = g.(QualityChanger)
	h.susp, _ = g.(SuspendChanger)
	h.gpu, _ = g.(GPUTimer)
	return h
}

// Begin runs the game's Begin, if it has one.
func (h *Hooks) Begin(f Frame) error {
	if h.begin == nil {
		return nil
	}
	return h.begin.Begin(f)
}

// Draw runs the game's Draw.
func (h *Hooks) Draw(f Frame) { h.game.Draw(f) }

// End runs the game's End, if it has one.
func (h *Hooks) End(st *Stats) error {
	if h.end == nil {
		return nil
	}
	return h.end.End(st)
}

// QualityChanged runs the game's, if it has one.
func (h *Hooks) QualityChanged(level int) {
	if h.quality != nil {
		h.quality.QualityChanged(level)
	}
}

// SuspendChanged runs the game's, if it has one.
func (h *Hooks) SuspendChanged(suspended bool) {
	if h.susp != nil {
		h.susp.SuspendChanged(suspended)
	}
}

// GPUTime returns the game's, or 0 when it has none to say.
func (h *Hooks) GPUTime() time.Duration {
	if h.gpu == nil {
		return 0
	}
	return h.gpu.GPUTime()
}
