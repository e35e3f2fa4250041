package engine

import (
	"context"
	"errors"
	"strings"
	"syscall"
	"testing"
	"time"
)

// panicky panics in one hook at tick 10 (or the frame that runs it).
type panicky struct {
	where string
	ticks uint64
}

func (p *panicky) at(where string) {
	if p.where == where && p.ticks >= 10 {
		panic("boom in " + where)
	}
}
func (p *panicky) Update(t Tick) error {
	p.ticks = t.N
	p.at("Update")
	return nil
}
func (p *panicky) Draw(Frame)         { p.at("Draw") }
func (p *panicky) Begin(Frame) error  { p.at("Begin"); return nil }
func (p *panicky) End(*Stats) error   { p.at("End"); return nil }
func (p *panicky) QualityChanged(int) { p.at("QualityChanged") }
func (p *panicky) GPUTime() time.Duration {
	if p.ticks >= 10 {
		return time.Second // over budget: the governor drops
	}
	return 0
}

func TestPanicInEveryHookIsRecoveredWithItsTick(t *testing.T) {
	for _, c := range []struct {
		hook string
		tick uint64
	}{
		{"Update", 10}, // the tick that panicked
		{"Draw", 11},   // the next tick to run: ticks 0..10 ran
		{"End", 11},
		{"Begin", 11},
		{"QualityChanged", 11},
	} {
		g := &panicky{where: c.hook}
		l, err := NewLoop(Config{}, &pacedSim{NewSim(ConstantFrames(time.Second / 60))}, g)
		if err != nil {
			t.Fatal(err)
		}
		err = l.Run(context.Background())
		var pe *PanicError
		if !errors.As(err, &pe) {
			t.Fatalf("%s: Run returned %v, want a *PanicError", c.hook, err)
		}
		if pe.Hook != c.hook || pe.Value != "boom in "+c.hook || !strings.Contains(string(pe.Stack), "(*panicky).at") {
			t.Errorf("%s: %+v", c.hook, pe)
		}
		if c.hook != "QualityChanged" && pe.Tick != c.tick {
			t.Errorf("%s: panic at tick %d, want %d", c.hook, pe.Tick, c.tick)
		}
		if want := "engine: panic in " + c.hook + " at tick"; !strings.HasPrefix(pe.Error(), want) {
			t.Errorf("message %q, want it to start %q", pe.Error(), want)
		}
	}
}

func TestPanicErrorUnwraps(t *testing.T) {
	sentinel := errors.New("sentinel")
	err := error(&PanicError{Value: sentinel, Hook: "Update"})
	if !errors.Is(err, sentinel) {
		t.Error("errors.Is does not see the error a hook panicked with")
	}
}

// stopper stops its loop with a reason at tick 5.
type stopper struct {
	l   *Loop
	err error
}

func (s *stopper) Update(t Tick) error {
	if t.N == 5 {
		s.l.StopWith(s.err)
	}
	return nil
}
func (s *stopper) Draw(Frame) {}

func TestStopWithAndSignals(t *testing.T) {
	why := errors.New("why")
	g := &stopper{err: why}
	l, _ := NewLoop(Config{}, NewSim(ConstantFrames(time.Second/60)), g)
	g.l = l
	if err := l.Run(context.Background()); err != why {
		t.Errorf("Run after StopWith(why) = %v", err)
	}

	// A real signal, sent to this process.
	l, _ = NewLoop(Config{}, NewHeadless(1000), nopGame{})
	release := l.StopOnSignals(nil, syscall.SIGUSR1)
	defer release()
	go func() {
		time.Sleep(20 * time.Millisecond)
		syscall.Kill(syscall.Getpid(), syscall.SIGUSR1)
	}()
	err := l.Run(context.Background())
	var se *SignalError
	if !errors.As(err, &se) || se.Signal != syscall.SIGUSR1 || se.ExitCode() != 128+int(syscall.SIGUSR1) {
		t.Errorf("Run after SIGUSR1 = %v", err)
	}
}

// TestStopInterruptsPacing: a loop paced at one frame in 20 s stops at
// once when asked, instead of waiting out the period (-fps-cap 0.05).
func TestStopInterruptsPacing(t *testing.T) {
	l, err := NewLoop(Config{}, NewHeadless(0.05), UpdateFunc(func(Tick) error { return nil }))
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(50 * time.Millisecond)
		l.StopWith(&SignalError{Signal: syscall.SIGTERM})
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var se *SignalError
	if err := l.Run(ctx); !errors.As(err, &se) {
		t.Errorf("Run = %v, want the SIGTERM within 5 s (the pacing wait was not interrupted)", err)
	}
}

// TestPacerWaitAllocatesNothing, interrupt channel and timer included.
func TestPacerWaitAllocatesNothing(t *testing.T) {
	p := Pacer{Period: time.Millisecond, Spin: -1}
	c := NewMonoClock()
	p.Wait(&c)
	if n := testing.AllocsPerRun(50, func() { p.Wait(&c) }); n != 0 {
		t.Errorf("Pacer.Wait allocates %v times, want 0", n)
	}
}
