package app

import (
	"github.com/fixstep/fixstep/engine"
	"github.com/fixstep/fixstep/gfx"
)

// This file is the runner's window half: what a windowed run adds to a
// headless one (the window, the renderer, the game's Open, Draw and
// Close, -screenshot, the window's stats fields): the only code of package
// app that opens, draws or closes through package gfx (elsewhere app uses
// gfx's plain values: WindowConfig, a vsync mode, Available). A headless
// mode never reaches it; in a build without cgo, whose gfx has no window
// (gfx.Available is false), run refuses a windowed run before anything
// opens.

// openWindow opens the window with cfg and the renderer, and runs the
// game's Open: the platform a windowed run's loop runs on. Defer
// closeWindow before calling it: it closes whatever openWindow opened.
func (p *play) openWindow(cfg gfx.WindowConfig) (engine.Platform, error) {
	var err error
	if p.win, err = gfx.NewWindow(cfg); err != nil {
		return nil, err
	}
	if p.r, err = gfx.NewRenderer(); err != nil {
		return nil, err
	}
	if err := p.open(); err != nil {
		return nil, err
	}
	return p.win, nil
}

// closeWindow runs the game's Close (if Open ran and Close has not), then
// closes the renderer (GL objects need the context) and the window. Each
// step is safe to repeat.
func (p *play) closeWindow() {
	p.close()
	if p.r != nil {
		p.r.Close()
	}
	if p.win != nil {
		p.win.Close()
	}
}

// windowReport closes the renderer, whose error reports the GL objects
// left (none), and returns the window's and the renderer's fields of the
// stats line, with a leading space: "" headless. Call it after the game's
// Close.
func (p *play) windowReport() (string, error) {
	if p.r == nil {
		return "", nil
	}
	err := p.r.Close()
	return " " + gfx.Report(p.win, p.r), err
}

// open runs the game's Open, if it has one.
func (p *play) open() error {
	if p.opener == nil {
		return nil
	}
	if err := p.opener.Open(p.win, p.r); err != nil {
		return err
	}
	p.opened = true
	return nil
}

// close runs the game's Close once, after a successful Open.
func (p *play) close() error {
	if !p.opened {
		return nil
	}
	p.opened = false
	return p.opener.Close()
}

// Draw draws the game in a window (a headless run draws nothing), and
// saves -screenshot after the last of -frames.
func (p *play) Draw(f engine.Frame) {
	if p.r == nil {
		return
	}
	p.game.Draw(f)
	if p.flags.last(f.Index) && p.flags.Screenshot != "" {
		w, h := p.win.DrawableSize()
		p.shotErr = p.r.Screenshot(p.flags.Screenshot, w, h)
		p.loop.ExcludeFrame() // a screenshot allocates: not the steady state
	}
}
