package netplay

import (
	"errors"
	"math"
	"time"

	"github.com/fixstep/fixstep/engine"
)

// NewClient makes a client of the game, to play on the server at
// cfg.Server over the transport. The game must implement engine.Saver,
// and unless it spectates, engine.Inputter.
func NewClient(cfg ClientConfig, game engine.Game, tr Transport) (*Client, error) {
	if _, ok := game.(engine.Saver); !ok {
		return nil, errors.New("netplay: a client's game must implement engine.Saver")
	}
	if _, ok := game.(engine.Inputter); !ok && !cfg.Spectate {
		return nil, errors.New("netplay: a client's game must implement engine.Inputter (or spectate)")
	}
	return newClient(cfg, game, tr)
}

// Update runs one loop tick of the client (see Client).
func (s *Client) Update(t engine.Tick) error {
	if s.err != nil {
		return s.err
	}
	if err := s.ticks.check(t, "ClientConfig.TPS"); err != nil {
		return s.fail(err)
	}
	now := s.clock.Now()
	s.work.update(now)
	s.poll(now)
	if s.err == nil {
		s.timeouts(now)
	}
	if s.err != nil {
		return s.err
	}
	switch s.phase {
	case phaseCall:
		s.stats.Waiting++
		s.call(now)
		return nil
	case phaseLoad:
		s.stats.Waiting++
		s.sendUpdate(now)
		return nil
	}
	if err := s.step(t, now); err != nil {
		return s.fail(err)
	}
	if s.err != nil {
		return s.err
	}
	s.adapt(now)
	s.sendUpdate(now)
	s.timeSync(now)
	s.fillStats()
	return nil
}

// step rolls back if a prediction was wrong, checks hashes, and runs the
// ticks due: one, or several while catching up.
func (s *Client) step(t engine.Tick, now time.Duration) error {
	if goOn, err := s.rollBackIfDue(t, now); !goOn || err != nil {
		return err
	}
	s.checkHashes(now)
	if s.phase != phasePlay {
		return nil // a resync began
	}
	s.linkDelay()
	n, paced := 1, false // paced: a tick a loop tick, as the loop's time goes
	target := s.target(now)
	switch final := s.confirmed(); {
	case s.tick < final:
		n = min(final-s.tick, 64) // final ticks: as fast as we can
		if !s.cfg.Spectate {
			n = max(n, min(target-s.tick, 64))
		}
	case s.cfg.Spectate:
		n = 0
	case target-s.tick > jumpTicks:
		n = min(target-s.tick, 64)
		s.stats.Jumps++
	case s.tick-target > jumpTicks:
		n = 0
		s.stats.Jumps++
	default:
		n, paced = 1+s.owed, true // and the ticks a spent budget put off
	}
	s.owed = 0
	if n == 0 && !s.cfg.Spectate {
		s.stats.Stalls++ // a spectator runs final ticks as they come: waiting for one is no stall
	}
	limit := min(s.work.limit(s.cfg.MaxPrediction), s.linkLimit())
	for i := range n {
		if s.endT > 0 && s.tick >= s.endT {
			break
		}
		if s.tick >= s.confirmed()+limit || s.tick-s.floor() >= clientRing-1 {
			s.stats.Stalls++
			break
		}
		if !s.work.canRun(s.clock.Now()) {
			s.stats.Deferred++ // the frame's budget is spent: the tick waits for a frame with room
			if paced {
				s.owed = min(n-i, jumpTicks)
			}
			s.readOwn(t, s.tick+n-i-1+s.inputDelay())
			break
		}
		if err := s.runTick(t); err != nil {
			return err
		}
		s.work.ran++
	}
	s.checkHashes(now)
	if err := s.record(); err != nil {
		return err
	}
	return s.checkEnd(now)
}

// target is the tick the client should be at now: the server's, as
// estimated from its last final datagram and the round trip, plus the
// lead.
func (s *Client) target(now time.Duration) int {
	if s.cfg.Spectate {
		return s.confirmed()
	}
	//fixvet:ignore time sync only paces frames: a tick's inputs and the world never depend on it
	est := float64(s.srvTick) + (float64(now-s.srvAt)+float64(s.rt.rtt)/2)/s.ticks.length()
	return int(est+s.cfg.Lead+1) + int(float64(s.rt.rtt)/2/s.ticks.length()) - s.inputDelay()
}

// linkSlack is how many ticks more than its link makes the final inputs
// late by a client predicts: room for jitter and a lost datagram or two.
const linkSlack = 2

// linkLimit returns how far past the last final tick the client's link
// has it run, and linkSlack; none before the round trip is measured (the
// first final inputs after the state measure it). Its input reaches the
// server half a round trip and the Lead before the server runs its
// tick, whose final inputs come back half a round trip after: the round
// trip and the Lead, less the input delay. A client predicts no further,
// so that its rollbacks are as deep as its link, no deeper: a joiner
// whose final inputs come in bursts while it catches up, or a client
// whose final inputs a lost datagram held back, would otherwise run up
// to MaxPrediction ticks on predictions and roll all of them back.
func (s *Client) linkLimit() int {
	if s.rt.rtt == 0 {
		return 0
	}
	ahead := int(math.Ceil(float64(s.rt.rtt)/s.ticks.length() + s.cfg.Lead))
	return max(1, ahead+linkSlack-s.inputDelay())
}

// runTick reads our inputs up to InputDelay ticks ahead, unless their
// ticks are final, and runs the next tick for the first time: it saves
// the state before a predicted tick (it may roll back), before the last
// final one, before each checkpoint and before the server's first check.
// An input is read once, for one tick: when the delay grows, the ticks
// it skips are read at once; when it shrinks, none is read until the
// ticks catch up.
func (s *Client) runTick(t engine.Tick) error {
	f, final := s.tick, s.confirmed()
	s.readOwn(t, f+s.inputDelay())
	return s.advance(t, f >= final || f%s.every == 0 || f+1 >= final || f == s.vTick)
}

// readOwn reads our inputs that are not final up to tick last, each once,
// in order. A tick that a spent frame budget put off has its input read
// as its loop tick comes, as if it had run: it reaches the server as
// early.
func (s *Client) readOwn(t engine.Tick, last int) {
	if s.local < 0 {
		return
	}
	for s.ownNext = max(s.ownNext, s.confirmed()); s.ownNext <= last; s.ownNext++ {
		s.readInput(t, s.ownNext)
	}
}

// linkDelay sets the input delay for the round trip, when
// ClientConfig.InputDelay is 0: half the round trip, rounded up, and a
// tick for jitter and loss, once it is more than a tick off.
func (s *Client) linkDelay() {
	if s.cfg.InputDelay != 0 || s.rt.rtt == 0 {
		return
	}
	half := float64(s.rt.rtt) / 2 / s.ticks.length()
	if math.Abs(half+1-float64(s.delay)) > 1 {
		s.delay = min(int(math.Ceil(half))+1, MaxInputDelay)
		// The cost's delay yields at once, as steer has it, though adapt
		// waits (the client behind its final inputs): their sum stays
		// within MaxInputDelay.
		s.work.delay = min(s.work.delay, MaxInputDelay-s.delay)
	}
}

// adapt moves the input delay the cost adds (see workload). Held at the
// limit its frames' budget sets, the client cannot keep its lead by
// running further ahead: its lead says how far off the delay is (an
// input that reaches the server later than the Lead wants it delayed
// more, one that comes earlier less). Running a tick or more within the
// limit, it can predict further: less delay. A player's only, once it
// caught up and heard its lead.
func (s *Client) adapt(now time.Duration) {
	if s.local < 0 || s.phase != phasePlay || s.tick < s.confirmed() || !s.leadOK {
		return
	}
	peak := s.work.ahead(s.tick - s.confirmed())
	need := 0
	if l := s.work.limit(s.cfg.MaxPrediction); l < s.cfg.MaxPrediction {
		need = s.work.delay + int(math.Round(s.cfg.Lead-s.lead))
		if peak+1 < float64(l) {
			need = min(need, s.work.delay-1)
		}
	}
	if s.work.steer(now, need, MaxInputDelay-s.delay) {
		s.stats.DelayChanges++
	}
}

// checkHashes hashes our states at checkpoints once they are final, and
// compares them with the server's.
func (s *Client) checkHashes(now time.Duration) {
	for {
		if _, ok := s.nextCheckpoint(); !ok {
			break
		}
	}
	if s.resyncAsk >= 0 {
		return
	}
	if v := s.vTick; v >= 0 && !s.vMine.ok && v <= s.confirmed() && v < s.tick && v < s.firstWrong {
		if st, ok := s.stateAt(v); ok {
			s.vMine = tickHash{tick: v, hash: engine.StateHash(st), ok: true}
		} else {
			s.vTick = -1 // not kept: the next checkpoint verifies
		}
	}
	if s.vMine.ok && s.vSrv.ok && s.vSrv.tick == s.vMine.tick {
		s.vSrv.ok = false
		s.compare(now, s.vMine.hash, s.vSrv)
		if s.resyncAsk >= 0 {
			return
		}
	}
	// Every checkpoint both have hashed, oldest first: the server's hash
	// may come before ours (we are behind, catching up) or after.
	for i := range s.srvHashes {
		h := s.srvHashes[(s.lastSrv/s.every+1+i)%len(s.srvHashes)]
		if !h.ok || h.tick <= s.compared {
			continue
		}
		ours, ok := s.ourHash(h.tick)
		if !ok {
			continue
		}
		s.compared = h.tick
		s.compare(now, ours, h)
		if s.resyncAsk >= 0 {
			return
		}
	}
}

// compare compares our hash of a state with the server's: a difference
// asks the server for its state.
func (s *Client) compare(now time.Duration, ours uint64, h tickHash) {
	if ours == h.hash {
		s.stats.Hashes++
		s.st.verified()
		if !s.verified && h.tick > s.st.tick {
			s.verified = true
			s.stats.Catchup = now - s.askAt
		}
		return
	}
	s.stats.Desyncs++
	s.resyncAsk = h.tick
	s.askAt = now
	s.verified = false
}

// checkEnd stops the client at the match's end, once it ran every tick
// on final inputs: its state's hash must be the server's.
func (s *Client) checkEnd(now time.Duration) error {
	if s.endT == 0 || !s.endKnown || s.tick < s.endT || s.confirmed() < s.endT || s.firstWrong != noTick {
		return nil
	}
	s.save(s.endT)
	st, _ := s.stateAt(s.endT)
	if h := engine.StateHash(st); h != s.endHash {
		s.stats.Desyncs++
		return &engine.DesyncError{Tick: uint64(s.endT), Other: "the server", Ours: h, Theirs: s.endHash}
	}
	s.stats.Hashes++
	return engine.ErrStopped
}

// Begin reads what the server sent between ticks, then runs the game's
// Begin, if it has one, on a frame whose Local is the client's seat.
func (s *Client) Begin(f engine.Frame) error {
	if s.err != nil {
		return s.err
	}
	now := s.clock.Now()
	s.work.begin(now)
	s.poll(now)
	if s.err != nil {
		return s.err
	}
	return s.beginGame(f)
}

// timeSync sets the loop's time scale so that our inputs reach the
// server Lead ticks before it needs them: up to 10 % faster or slower.
func (s *Client) timeSync(time.Duration) {
	if s.cfg.Spectate || !s.leadOK {
		return
	}
	e := s.lead - s.cfg.Lead // positive: we run too far ahead
	target := 1.0
	if math.Abs(e) > 0.5 {
		target = math.Round((1-math.Max(-0.1, math.Min(0.1, 0.02*e)))*200) / 200
	}
	s.setScale(target)
}

// fillStats refreshes the stats that are states.
func (s *Client) fillStats() {
	s.fill()
	st := &s.stats
	st.Seat, st.RTT, st.Lead = s.local, s.rt.rtt, s.lead
	if s.leadOK {
		st.Ahead = s.lead - s.cfg.Lead
	}
}
