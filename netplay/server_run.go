package netplay

import (
	"errors"
	"fmt"
	"time"

	"github.com/fixstep/fixstep/engine"
)

// Update runs one tick of the match (see Server). It returns the game's
// errors, and engine.ErrStopped once a match with an EndTick is over.
func (s *Server) Update(t engine.Tick) error {
	if s.err != nil {
		return s.err
	}
	if err := s.ticks.check(t, "ServerConfig.TPS"); err != nil {
		s.err = err
		return err
	}
	now := s.clock.Now()
	s.poll(now)
	s.watch(now)
	if s.cfg.EndTick > 0 && uint64(s.tick) >= s.cfg.EndTick {
		return s.ending(now)
	}
	if s.tick%s.cfg.HashEvery == 0 {
		s.checkpoint()
	}
	s.verifyHashes()
	if err := s.run(t); err != nil {
		s.err = err
		return err
	}
	if s.cfg.EndTick > 0 && uint64(s.tick) == s.cfg.EndTick {
		s.scratch = s.saver.Save(s.scratch[:0])
		s.final = engine.StateHash(s.scratch)
		s.endAt = now
	}
	s.sendAll(now)
	d := s.clock.Now() - now
	s.stats.tickUS[tickBucket(uint64(d/time.Microsecond))]++
	s.stats.tickCount++
	s.fill()
	return nil
}

// run runs the server's next tick on the inputs it has.
func (s *Server) run(t engine.Tick) error {
	f := s.tick
	row := s.row(f)
	for seat := range s.players {
		dst := row[seat*s.size : (seat+1)*s.size]
		ci := s.taken[seat]
		if ci < 0 {
			clear(dst)
			continue
		}
		cl := &s.clients[ci]
		if i := f % aheadLen; cl.inTick[i] == f {
			copy(dst, cl.in[i*s.size:(i+1)*s.size])
		} else {
			copy(dst, cl.last)
			s.stats.InputsReplaced++
		}
		copy(cl.last, dst)
	}
	s.mask[f%keepTicks] = s.empty
	in := seatInputs(row, s.size, s.empty)
	t = s.ticks.tick(t, f, false)
	t.Input = in
	if err := s.game.Update(t); err != nil {
		return err
	}
	if s.rec != nil {
		var st []byte
		if n := s.newest; n >= 0 && s.cps[n].tick == f {
			st = s.cps[n].state
		}
		if err := s.rec.Confirmed(uint64(f), in, st); err != nil {
			return fmt.Errorf("netplay: record tick %d: %w", f, err)
		}
	}
	s.tick++
	for i := range s.clients {
		if cl := &s.clients[i]; cl.on {
			s.stats.clientTicks++
		}
	}
	return nil
}

// verifyHashes hashes the state for the clients whose first check is
// this tick.
func (s *Server) verifyHashes() {
	var h uint64
	done := false
	for i := range s.clients {
		cl := &s.clients[i]
		if !cl.on || cl.vOK || cl.vTick != s.tick {
			continue
		}
		if !done {
			if n := s.newest; n >= 0 && s.cps[n].tick == s.tick {
				h = s.cps[n].hash
			} else {
				s.scratch = s.saver.Save(s.scratch[:0])
				h = engine.StateHash(s.scratch)
			}
			done = true
		}
		cl.vHash, cl.vOK = h, true
	}
}

// ending runs the match's end: no tick runs; the clients get their last
// inputs and the end state's hash, then the server stops.
func (s *Server) ending(now time.Duration) error {
	if !s.ended {
		s.ended = true
		for i := range s.clients {
			s.clients[i].done = 3
		}
	}
	s.sendAll(now)
	left := false
	for i := range s.clients {
		cl := &s.clients[i]
		if !cl.on {
			continue
		}
		if cl.ack >= s.tick && cl.xfer < 0 && cl.done > 0 {
			s.write(appendBye(s.wbuf[:0], cl.nonce, byeDone, uint32(s.tick), s.final), cl)
			cl.done--
		}
		if cl.done > 0 {
			left = true
		}
	}
	s.fill()
	if left && now-s.endAt < s.cfg.DisconnectTimeout {
		return nil
	}
	s.err = engine.ErrStopped
	return s.err
}

// Close tells every client the server stops, and stops: later Updates
// return ErrClosed. It does not close the transport.
func (s *Server) Close() error {
	if s.err == nil || errors.Is(s.err, engine.ErrStopped) {
		for i := range s.clients {
			if cl := &s.clients[i]; cl.on && s.err == nil {
				for range 3 {
					s.write(appendBye(s.wbuf[:0], cl.nonce, byeQuit, uint32(s.tick), 0), cl)
				}
			}
		}
		s.err = ErrClosed
	}
	return nil
}

// Begin reads the clients' datagrams between ticks, so that a handshake
// is answered at once, then runs the game's Begin, if it has one.
func (s *Server) Begin(f engine.Frame) error {
	if s.err != nil {
		return s.err
	}
	s.poll(s.clock.Now())
	return s.beginGame(f) // Local -1: a server plays no seat
}

// fill refreshes the stats that are states.
func (s *Server) fill() {
	st := &s.stats
	st.Tick, st.Confirmed, st.TimeScale = uint64(s.tick), uint64(s.tick), 1
	st.Players, st.Spectators = 0, 0
	for i := range s.clients {
		if cl := &s.clients[i]; cl.on {
			if cl.seat >= 0 {
				st.Players++
			} else {
				st.Spectators++
			}
		}
	}
}
