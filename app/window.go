package app

import (
	"errors"
	"fmt"

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
	if p.r, err = gfx.NewRenderer(gfx.RendererConfig{}); err != nil {
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
	p.last = f
	if p.flags.last(f.Index) && p.flags.Screenshot != "" {
		p.loop.ExcludeFrame() // a screenshot allocates: not the steady state
		p.screenshot()
	}
}

// screenshot saves the back buffer to -screenshot.
func (p *play) screenshot() {
	w, h := p.win.DrawableSize()
	p.shotErr = p.r.Screenshot(p.flags.Screenshot, w, h)
	p.shot = true
}

// finalShot saves -screenshot for a windowed run that ended before the
// last of -frames (a replay's or a match's end, the window closed, a
// signal), which would otherwise write nothing: the frame it ended on is
// already presented and the back buffer undefined, so it draws the state
// the run ended on again, as the last frame drew it (its alpha), and
// saves that. After a panic the state may be half a tick's, so it draws
// nothing. It returns what to tell the user, or "" when there is nothing
// to say (no -screenshot, headless, or taken at its frame).
func (p *play) finalShot(err error) (msg string) {
	if p.r == nil || p.flags.Screenshot == "" || p.shot {
		return ""
	}
	frames := fmt.Sprintf("after %d of its %d frames", p.loop.Stats().Frames, p.flags.Frames)
	if pe := (*engine.PanicError)(nil); errors.As(err, &pe) {
		return fmt.Sprintf("-screenshot: not saved: the run panicked %s, and its state may be half a tick's", frames)
	}
	defer func() {
		if v := recover(); v != nil {
			p.shotErr, msg = fmt.Errorf("-screenshot: Draw of the final state panicked: %v", v), ""
		}
	}()
	p.game.Draw(p.last)
	p.screenshot()
	if p.shotErr != nil {
		return "" // the run's error says it
	}
	return fmt.Sprintf("-screenshot: the run ended %s: saved the state it ended on to %s", frames, p.flags.Screenshot)
}
