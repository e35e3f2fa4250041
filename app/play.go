package app

import (
	"time"

	"github.com/fixstep/fixstep/engine"
	"github.com/fixstep/fixstep/gfx"
)

// play is the game as the loop (or the netplay session) runs it: every
// hook of the game, plus what the runner's modes add around them (-bot's
// input, -ticks' stop, -frames and -screenshot, no Draw headless). The
// game's optional hooks are looked up once, so a frame allocates nothing.
type play struct {
	game    Game
	begin   engine.Beginner
	end     engine.Ender
	differ  engine.Differ
	quality engine.QualityChanger
	suspend engine.SuspendChanger
	gpu     engine.GPUTimer
	opener  Opener
	flags   *flags

	bot    func(seed uint64, t engine.Tick, dst []byte) // -bot's, or nil
	seed   uint64
	stopAt uint64 // -ticks alone: stop after this many ticks (0: never)
	onTick func() // after each tick that ran for the first time (a -server's Agones health), or nil
	ticks  uint64 // the ticks the game's state has run: the last Update's N+1

	loop    *engine.Loop
	win     *gfx.Window   // nil headless
	r       *gfx.Renderer // nil headless
	opened  bool          // Open ran and Close has not
	shotErr error         // a -screenshot that failed
}

func newPlay(g Game, f *flags) *play {
	p := &play{game: g, flags: f}
	p.begin, _ = g.(engine.Beginner)
	p.end, _ = g.(engine.Ender)
	p.differ, _ = g.(engine.Differ)
	p.quality, _ = g.(engine.QualityChanger)
	p.suspend, _ = g.(engine.SuspendChanger)
	p.gpu, _ = g.(engine.GPUTimer)
	p.opener, _ = g.(Opener)
	return p
}

// Begin runs the game's Begin.
func (p *play) Begin(f engine.Frame) error {
	if p.begin == nil {
		return nil
	}
	return p.begin.Begin(f)
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
	if p.end != nil {
		if err := p.end.End(s); err != nil {
			return err
		}
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

// QualityChanged tells the game its quality level.
func (p *play) QualityChanged(level int) {
	if p.quality != nil {
		p.quality.QualityChanged(level)
	}
}

// SuspendChanged tells the game the window was minimized or restored.
func (p *play) SuspendChanged(on bool) {
	if p.suspend != nil {
		p.suspend.SuspendChanged(on)
	}
}

// GPUTime is the game's GPU time, or the renderer's when the game has
// none to say (0 headless).
func (p *play) GPUTime() time.Duration {
	switch {
	case p.gpu != nil:
		return p.gpu.GPUTime()
	case p.r != nil:
		return p.r.GPUTime()
	}
	return 0
}
