package engine

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"sync"
	"syscall"
)

// PanicError is what Loop.Run returns when a hook panicked: the loop
// recovers the panic at its one boundary, so every deferred cleanup of the
// caller runs (profiles written, the recording closed, GL objects deleted),
// and says where it happened. Use errors.As to find it.
type PanicError struct {
	// Value is what the hook panicked with.
	Value any
	// Hook names the hook: "Begin", "Update", "Draw", "End",
	// "QualityChanged", or "Platform" for the platform's Poll and Present.
	Hook string
	// Tick is the tick the Update was running (Tick.N), or the next tick to
	// run for the other hooks.
	Tick uint64
	// Frame is the frame number (Stats.Frames + 1 while it ran).
	Frame uint64
	// Stack is the panicking goroutine's stack, from runtime/debug.Stack.
	Stack []byte
}

// Error reads "engine: panic in Update at tick 120: <value>": the same in a
// replay of the run, whose frames differ.
func (e *PanicError) Error() string {
	return fmt.Sprintf("engine: panic in %s at tick %d: %v", e.Hook, e.Tick, e.Value)
}

// Unwrap returns the panic value when it is an error, so errors.Is sees
// through a panic(err).
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// hook names the code the loop is in, for PanicError.
type hook uint8

const (
	inPlatform hook = iota
	inBegin
	inUpdate
	inDraw
	inEnd
	inQuality
)

var hookNames = [...]string{"Platform", "Begin", "Update", "Draw", "End", "QualityChanged"}

// recovered turns a recovered panic into a PanicError.
func (l *Loop) recovered(v any) *PanicError {
	t := l.ts.Totals()
	return &PanicError{Value: v, Hook: hookNames[l.in], Tick: l.tick, Frame: t.Frames + 1, Stack: debug.Stack()}
}

// SignalError is what Loop.Run returns when it stopped for a signal (see
// StopOnSignals): the run ended cleanly, between two frames, and a command
// conventionally exits with status 128 + the signal's number (130 for
// SIGINT, 143 for SIGTERM, 129 for SIGHUP).
type SignalError struct {
	Signal os.Signal
}

// Error reads "engine: stopped by signal interrupt".
func (e *SignalError) Error() string { return "engine: stopped by signal " + e.Signal.String() }

// ExitCode returns 128 + the signal's number, or 1 for a signal that has
// none.
func (e *SignalError) ExitCode() int {
	if s, ok := e.Signal.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 1
}

// StopWith makes Run return err between two frames: Stop with a reason. It
// is safe to call from any goroutine; the first reason wins.
func (l *Loop) StopWith(err error) {
	l.stopMu.Lock()
	if l.stopErr == nil {
		l.stopErr = err
	}
	l.stopMu.Unlock()
	l.Stop()
}

// StopOnSignals stops the loop cleanly (Run returns a *SignalError) on the
// first SIGINT, SIGTERM or SIGHUP, or on the first of sigs when given: the
// frame in progress ends, and the caller's deferred cleanup runs. A second
// signal while the loop stops calls again, if not nil, on the loop's
// goroutine's behalf from the signal goroutine: a command passes a func
// that exits at once. The returned func stops listening; call it when Run
// has returned. A command should rather catch signals with CatchSignals
// from the first line of main, so that none is lost before the loop runs
// or after it returns.
func (l *Loop) StopOnSignals(again func(os.Signal), sigs ...os.Signal) (release func()) {
	s := CatchSignals(again, sigs...)
	s.Watch(l)
	return s.Release
}

// Signals catches the stop signals for a whole run: from the first line
// of main, before anything else runs, to the last byte written after the
// loop. The first signal stops the loop it watches (at once if it came
// before the loop started: Run then draws one frame and returns the
// *SignalError), or is kept for Err when no loop runs; a second one calls
// again (a command exits at once). Without it, a signal in the first
// milliseconds of a run, or during its shutdown, would kill the process by
// the default action, losing the recording's last chunk and the profiles.
type Signals struct {
	ch    chan os.Signal
	done  chan struct{}
	again func(os.Signal)
	mu    sync.Mutex
	first os.Signal
	loop  *Loop
}

// CatchSignals starts catching SIGINT, SIGTERM and SIGHUP, or sigs when
// given. Call it first in main, and Release last.
func CatchSignals(again func(os.Signal), sigs ...os.Signal) *Signals {
	if len(sigs) == 0 {
		sigs = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}
	}
	s := &Signals{ch: make(chan os.Signal, 2), done: make(chan struct{}), again: again}
	signal.Notify(s.ch, sigs...)
	go s.listen()
	return s
}

func (s *Signals) listen() {
	for {
		select {
		case sig := <-s.ch:
			s.mu.Lock()
			first, l := s.first == nil, s.loop
			if first {
				s.first = sig
			}
			s.mu.Unlock()
			switch {
			case first && l != nil:
				l.StopWith(&SignalError{Signal: sig})
			case !first && s.again != nil:
				s.again(sig)
			}
		case <-s.done:
			return
		}
	}
}

// Watch makes the first signal stop l; a signal caught before stops it
// now, so its Run returns the *SignalError after one frame.
func (s *Signals) Watch(l *Loop) {
	s.mu.Lock()
	s.loop = l
	first := s.first
	s.mu.Unlock()
	if first != nil {
		l.StopWith(&SignalError{Signal: first})
	}
}

// Err returns a *SignalError for the first signal caught, or nil: a
// command that ended for another reason while a signal came reports it.
func (s *Signals) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.first == nil {
		return nil
	}
	return &SignalError{Signal: s.first}
}

// Release stops catching: the default actions apply again. Call it when
// everything is written.
func (s *Signals) Release() {
	signal.Stop(s.ch)
	select {
	case <-s.done:
	default:
		close(s.done)
	}
}

// ExitCode is the exit status a command reports for what Run returned: 0
// for nil and ErrStopped, 128 + the signal's number for a *SignalError, 2
// for a *PanicError (as Go's own panics), 1 for any other error.
func ExitCode(err error) int {
	var se *SignalError
	var pe *PanicError
	switch {
	case err == nil || errors.Is(err, ErrStopped):
		return 0
	case errors.As(err, &se):
		return se.ExitCode()
	case errors.As(err, &pe):
		return 2
	}
	return 1
}
