package app

import (
	"time"

	"github.com/fixstep/fixstep/engine"
	"github.com/fixstep/fixstep/gfx"
)

// play is the game as the loop (or the netplay match) runs it: every
// hook of the game (engine.Hooks, found once, so a frame allocates
// nothing), plus what the runner's modes add around them (-bot's input,
// -ticks' stop, -frames and -screenshot, no Draw headless).
type play struct {
	engine.Hooks
	game   Game
	differ engine.Differ
	gpu    bool // the game says its own GPU time
	opener Opener
	flags  *flags

	bot    func(seed uint64, t engine.Tick, dst []byte) // -bot's, or nil
	seed   uint64
	stopAt uint64 // -ticks alone: stop after this many ticks (0: never)
	onTick func() // after each tick that ran for the first time (a -server's Agones health), or nil
	ticks  uint64 // the ticks the game's state has run: the last Update's N+1

	loop    *engine.Loop
	win     *gfx.Window   // nil headless
	r       *gfx.Renderer // nil headless
	opened  bool          // Open ran and Close has not
	last    engine.Frame  // the last frame drawn
	shot    bool          // -screenshot was taken (or failed: shotErr)
	shotErr error         // a -screenshot that failed
}

func newPlay(g Game, f *flags) *play {
	p := &play{Hooks: engine.FindHooks(g), game: g, flags: f}
	p.differ, _ = g.(engine.Differ)
	_, p.gpu = g.(engine.GPUTimer)
	p.opener, _ = g.(Opener)
	return p
}

// Input fills the tick's input: the bot's with -bot, else the game's.
func (p *play) Input(t engine.Tick, dst []byte) {
	if p.bot != nil {
		p.bot(p.seed, t, dst)
		return
	}
	p.game.Input(t, dst)
}

// Update runs the game's tick, and stops a -ticks run after its last.
func (p *play) Update(t engine.Tick) error {
	if err := p.game.Update(t); err != nil {
		return err
	}
	if t.Rerun {
		return nil // ran before (a rollback, or engine.Fingerprint's trial run)
	}
	p.ticks = t.N + 1
	if p.onTick != nil {
		p.onTick()
	}
	if p.stopAt != 0 && p.ticks >= p.stopAt {
		return engine.ErrStopped
	}
	return nil
}

// End runs the game's End, and stops the run after -frames.
func (p *play) End(s *engine.Stats) error {
	if err := p.Hooks.End(s); err != nil {
		return err
	}
	if p.flags.done(s) {
		return engine.ErrStopped
	}
	return nil
}

// Save saves the game's state.
func (p *play) Save(dst []byte) []byte { return p.game.Save(dst) }

// Load loads the game's state.
func (p *play) Load(src []byte) error { return p.game.Load(src) }

// Diff is the game's Diff, or "" (the loop then names the first byte).
func (p *play) Diff(a, b []byte) string {
	if p.differ == nil {
		return ""
	}
	return p.differ.Diff(a, b)
}

// GPUTime is the game's GPU time, or the renderer's when the game has
// none to say (0 headless).
func (p *play) GPUTime() time.Duration {
	if p.gpu || p.r == nil {
		return p.Hooks.GPUTime()
	}
	return p.r.GPUTime()
}
