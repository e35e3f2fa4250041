package agones

import (
	"context"
	"net/http"
	"strconv"
	"time"
)

// Tick tells the pinger the game loop is alive. Call it once per tick
// from the loop: it costs one atomic add, allocates nothing and never
// waits. Without it the pinger sends no health, and Agones marks a
// GameServer whose loop hangs Unhealthy.
func (s *SDK) Tick() {
	if s == nil {
		return
	}
	s.ticks.Add(1)
}

// Players records the player count for the pinger to send as the label
// (what SetPlayers sends), soon and without waiting: the loop calls it
// when a player joins or leaves. It allocates nothing; calling it with an
// unchanged count does nothing. Counts recorded while a request is on the
// way fold into one: only the latest is sent. A count below 0 is taken
// as 0. Without Start nothing is sent.
func (s *SDK) Players(n int) {
	if s == nil {
		return
	}
	if n < 0 {
		n = 0
	}
	if s.players.Swap(int64(n)) == int64(n) {
		return
	}
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Start starts the pinger, a goroutine that, every Config.HealthInterval,
// sends POST /health if the loop called Tick since the last interval, and
// that sends the count Players recorded whenever it changes (retrying a
// failed one at the next interval). It runs until ctx ends or Shutdown or
// Close is called. Calling it again does nothing.
//
// Errors of the pinger are not returned: Stats counts them and keeps the
// last one.
func (s *SDK) Start(ctx context.Context) {
	if s == nil {
		return
	}
	s.startOnce.Do(func() {
		select {
		case <-s.stop: // stopped before it started
			close(s.done)
			return
		default:
		}
		ctx, cancel := context.WithCancel(ctx)
		s.cancel = cancel
		go s.ping(ctx)
	})
}

// stopPinger stops the pinger, if started, and waits for it to return.
func (s *SDK) stopPinger() {
	s.stopOnce.Do(func() {
		close(s.stop)
	})
	s.startOnce.Do(func() { close(s.done) }) // never started: nothing to wait for
	if s.cancel != nil {
		s.cancel()
	}
	<-s.done
}

// ping is the pinger's loop.
func (s *SDK) ping(ctx context.Context) {
	defer close(s.done)
	t := time.NewTicker(s.cfg.HealthInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.stop:
			return
		case <-t.C:
			s.beat(ctx)
		case <-s.wake:
		}
		s.sendPlayers(ctx)
	}
}

// beat sends one health ping if the loop ticked since the last beat.
func (s *SDK) beat(ctx context.Context) {
	n := s.ticks.Load()
	if n == s.seenTicks {
		s.healthSkipped.Add(1)
		return
	}
	s.seenTicks = n
	if err := s.post(ctx, http.MethodPost, "/health", emptyBody); err != nil {
		s.fail(ctx, err)
		return
	}
	s.healthSent.Add(1)
}

// sendPlayers sends the count Players recorded, if it is not the one
// sent last.
func (s *SDK) sendPlayers(ctx context.Context) {
	n := s.players.Load()
	if n < 0 || n == s.sentPlayers {
		return
	}
	if err := s.setLabel(ctx, s.cfg.PlayersLabel, strconv.FormatInt(n, 10)); err != nil {
		s.fail(ctx, err)
		return
	}
	s.sentPlayers = n
	s.playersSent.Add(1)
}

// fail counts and keeps err, unless the pinger is stopping.
func (s *SDK) fail(ctx context.Context, err error) {
	if ctx.Err() != nil {
		return
	}
	s.failed.Add(1)
	s.errMu.Lock()
	s.lastErr = err
	s.errMu.Unlock()
}

// Stats counts what the pinger did.
type Stats struct {
	// HealthSent counts health pings Agones answered with 200.
	HealthSent int64
	// HealthSkipped counts intervals without a ping, because the loop did
	// not call Tick in them.
	HealthSkipped int64
	// PlayersSent counts player counts Agones answered with 200.
	PlayersSent int64
	// Failed counts the pinger's requests that failed; Err is the last
	// one's error.
	Failed int64
	Err    error
}

// Stats returns what the pinger did so far. Safe from any goroutine.
func (s *SDK) Stats() Stats {
	if s == nil {
		return Stats{}
	}
	s.errMu.Lock()
	err := s.lastErr
	s.errMu.Unlock()
	return Stats{
		HealthSent:    s.healthSent.Load(),
		HealthSkipped: s.healthSkipped.Load(),
		PlayersSent:   s.playersSent.Load(),
		Failed:        s.failed.Load(),
		Err:           err,
	}
}
