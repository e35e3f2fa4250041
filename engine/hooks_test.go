package engine

import (
	"errors"
	"testing"
	"time"
)

var errBegin = errors.New("begin")

// hooked has every optional hook, and counts the calls.
type hooked struct {
	begins, draws, ends, level int
	suspended                  bool
}

func (g *hooked) Update(Tick) error        { return nil }
func (g *hooked) Draw(Frame)               { g.draws++ }
func (g *hooked) Begin(Frame) error        { g.begins++; return errBegin }
func (g *hooked) End(*Stats) error         { g.ends++; return ErrStopped }
func (g *hooked) QualityChanged(level int) { g.level = level }
func (g *hooked) SuspendChanged(on bool)   { g.suspended = on }
func (g *hooked) GPUTime() time.Duration   { return 3 * time.Millisecond }

// TestHooks: Hooks forward every hook a game has to it, and do nothing
// (nil, 0) for one it lacks; a wrapper that embeds them is every hook.
func TestHooks(t *testing.T) {
	g := &hooked{}
	h := FindHooks(g)
	if err := h.Begin(Frame{}); err == nil || err.Error() != "begin" {
		t.Errorf("Begin: %v", err)
	}
	h.Draw(Frame{})
	if err := h.End(nil); !errors.Is(err, ErrStopped) {
		t.Errorf("End: %v", err)
	}
	h.QualityChanged(3)
	h.SuspendChanged(true)
	if d := h.GPUTime(); d != 3*time.Millisecond || g.begins != 1 || g.draws != 1 || g.ends != 1 || g.level != 3 || !g.suspended {
		t.Errorf("GPUTime %v; the game saw %+v", d, *g)
	}
	plain := FindHooks(UpdateFunc(func(Tick) error { return nil }))
	plain.QualityChanged(1)
	plain.SuspendChanged(true)
	if plain.Begin(Frame{}) != nil || plain.End(nil) != nil || plain.GPUTime() != 0 {
		t.Error("a game without hooks: a hook did something")
	}
	var wrapper struct{ Hooks }
	wrapper.Hooks = h
	var _ interface {
		Beginner
		Ender
		QualityChanger
		SuspendChanger
		GPUTimer
	} = &wrapper
	if n := testing.AllocsPerRun(100, func() { h.Begin(Frame{}); h.End(nil); h.GPUTime() }); n != 0 {
		t.Errorf("%v allocations a frame", n)
	}
}
