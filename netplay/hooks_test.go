package netplay

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/fixstep/fixstep/engine"
)

// simGame is what a hookGame wraps: a test world's game.
type simGame interface {
	engine.Game
	engine.Saver
	engine.Inputter
}

// hookGame is a game with every optional engine hook, counting each call
// and the Local of the frames it is given; its End stops the loop after
// frames frames.
type hookGame struct {
	simGame
	begins, ends, draws, updates, inputs int
	quality, suspends, resumes, gpus     int
	local                                int // Frame.Local of the last Begin and Draw
	locals                               map[int]bool
	frames                               int
}

func newHookGame(g simGame, frames int) *hookGame {
	return &hookGame{simGame: g, frames: frames, locals: map[int]bool{}}
}

func (h *hookGame) Begin(f engine.Frame) error { h.begins++; h.see(f); return nil }
func (h *hookGame) Draw(f engine.Frame)        { h.draws++; h.see(f); h.simGame.Draw(f) }
func (h *hookGame) see(f engine.Frame)         { h.local = f.Local; h.locals[f.Local] = true }
func (h *hookGame) Update(t engine.Tick) error { h.updates++; return h.simGame.Update(t) }
func (h *hookGame) Input(t engine.Tick, dst []byte) {
	h.inputs++
	h.simGame.Input(t, dst)
}
func (h *hookGame) QualityChanged(int) { h.quality++ }
func (h *hookGame) SuspendChanged(on bool) {
	if on {
		h.suspends++
	} else {
		h.resumes++
	}
}
func (h *hookGame) GPUTime() time.Duration { h.gpus++; return time.Millisecond }
func (h *hookGame) End(*engine.Stats) error {
	h.ends++
	if h.ends >= h.frames {
		return engine.ErrStopped
	}
	return nil
}

// worldPlat is the platform of a loop run inside a test world: each Poll
// moves the world a frame on (its other programs run up to there), and
// frames 100 to 102 are suspended, as a minimized window is.
type worldPlat struct {
	clk   *fakeClock
	run   func(time.Duration)
	polls int
}

func (p *worldPlat) Now() time.Duration { return p.clk.now }
func (p *worldPlat) Poll() error {
	p.polls++
	if p.polls > 1000 {
		return engine.ErrStopped // the game's End never stopped the loop: End did not reach the game
	}
	p.run(16_666_667)
	return nil
}
func (p *worldPlat) Present() error             { return nil }
func (p *worldPlat) Suspended() bool            { return p.polls >= 100 && p.polls < 103 }
func (p *worldPlat) WaitEvent(time.Duration)    {}
func (p *worldPlat) FramePeriod() time.Duration { return 16_666_667 }
func (p *worldPlat) String() string             { return "world" }

var _ engine.Suspender = (*worldPlat)(nil)

// runLoop runs game (a role: a Session, Client or Server) on a real
// engine.Loop inside a world, until its hookGame stops it.
func runLoop(t *testing.T, game engine.Game, p *worldPlat) {
	t.Helper()
	l, err := engine.NewLoop(engine.Config{TPS: 60}, p, game)
	if err != nil {
		t.Fatal(err)
	}
	if ts, ok := game.(interface{ SetTimeScaler(TimeScaler) }); ok {
		ts.SetTimeScaler(l.Timestep())
	}
	if err := l.Run(context.Background()); err != nil && !errors.Is(err, engine.ErrStopped) {
		t.Fatal(err)
	}
}

// peerHooks runs node k of a world of peers made with o, its game a
// hookGame, in a real engine.Loop, and returns the hookGame.
func peerHooks(t *testing.T, o worldOpts, k, frames int) *hookGame {
	var h *hookGame
	o.wrap = func(i int, g *testGame) engine.Game {
		if i != k {
			return g
		}
		h = newHookGame(g, frames)
		return h
	}
	w := newWorld(t, o)
	w.nodes[k].off = true
	runLoop(t, w.nodes[k].s, &worldPlat{clk: w.clock, run: w.run})
	return h
}

// Every optional hook reaches a game through every role as it reaches it
// alone, run by a real engine.Loop: Begin, End, Draw, QualityChanged
// (at the start, and as the governor moves), SuspendChanged (a minimized window, and back),
// GPUTime, Update and, for a player, Input; and the frames say which
// player this machine plays (Frame.Local): a peer's player, a client's
// seat, -1 for a spectator and a server.
func TestEveryHookThroughEveryRole(t *testing.T) {
	const frames = 240
	for _, c := range []struct {
		name  string
		local int
		run   func(t *testing.T) *hookGame
	}{
		{"peer", 1, func(t *testing.T) *hookGame { return peerHooks(t, worldOpts{seed: 40}, 1, frames) }},
		{"peer spectator", -1, func(t *testing.T) *hookGame { return peerHooks(t, worldOpts{seed: 41, spectators: 1}, 2, frames) }},
		{"server client", 1, func(t *testing.T) *hookGame {
			var h *hookGame
			w := newSWorld(t, ServerConfig{Players: 2}, 0, 42)
			w.join(t, 0, NetSim{Latency: 10 * time.Millisecond}, 0, nil)
			w.run(500 * time.Millisecond) // the other player takes seat 0
			w.wrapClient = func(i int, g *seatGame) engine.Game { h = newHookGame(g, frames); return h }
			n := w.join(t, 1, NetSim{Latency: 10 * time.Millisecond}, 0, nil)
			n.off = true
			runLoop(t, n.cl, &worldPlat{clk: w.clock, run: w.run})
			return h
		}},
		{"server spectator", -1, func(t *testing.T) *hookGame {
			var h *hookGame
			w := newSWorld(t, ServerConfig{Players: 2, Spectators: 1}, 0, 43)
			w.join(t, 0, NetSim{Latency: 10 * time.Millisecond}, 0, nil)
			w.wrapClient = func(i int, g *seatGame) engine.Game { h = newHookGame(g, frames); return h }
			n := w.join(t, 1, NetSim{Latency: 10 * time.Millisecond}, 0, func(c *ClientConfig) { c.Spectate = true })
			n.off = true
			runLoop(t, n.cl, &worldPlat{clk: w.clock, run: w.run})
			return h
		}},
		{"server", -1, func(t *testing.T) *hookGame {
			var h *hookGame
			w := newSWorldWrapped(t, ServerConfig{Players: 2}, 0, 44, func(g *seatGame) engine.Game { h = newHookGame(g, frames); return h }, nil)
			w.join(t, 0, NetSim{Latency: 10 * time.Millisecond}, 0, nil)
			w.srv.off = true
			runLoop(t, w.srv.srv, &worldPlat{clk: w.clock, run: w.run})
			return h
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := c.run(t)
			t.Logf("%s: begin %d, end %d, draw %d, update %d, input %d, quality %d, suspend %d/%d, gpu %d, local %d of %v",
				c.name, h.begins, h.ends, h.draws, h.updates, h.inputs, h.quality, h.suspends, h.resumes, h.gpus, h.local, h.locals)
			player := c.local >= 0
			if h.begins < frames-5 || h.ends != frames || h.draws < frames-5 || h.updates < 100 || h.quality < 1 ||
				h.suspends != 1 || h.resumes != 1 || h.gpus < frames-5 || (h.inputs > 0) != player {
				t.Errorf("a hook did not reach the game through the %s", c.name)
			}
			if h.local != c.local || len(h.locals) > 2 || len(h.locals) == 2 && !h.locals[-1] {
				t.Errorf("Frame.Local %d (seen %v), want %d", h.local, h.locals, c.local)
			}
		})
	}
}
