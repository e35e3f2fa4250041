package netplay

import (
	"fmt"
	"math/bits"
	"time"
)

// A player lost. When a player of a match of three or four goes silent
// for DisconnectTimeout, or quits, the players still in touch drop it,
// agree on the tick from which its seat is empty (engine.Inputs.Seated
// false, its input zero), and play on.
//
// The agreement. A player that drops another (it timed it out, the other
// said goodbye, or a third player drops it) takes no more of its inputs:
// how many it had then is its vote. It tells every player it does not
// drop whom it drops, with its votes and how many of each one's inputs it
// has now (a drop datagram), every tick until the round is settled. Once
// every player still in touch has told it the same set of dropped players,
// it knows every vote, and takes the largest: T, the same on every player.
// None made a tick final past its own vote (it lacked the lost player's
// input of the next), so none has a final tick to undo. A player with
// fewer of the lost player's inputs than T is sent the rest by one that
// has them (input datagrams of the lost player's inputs, passed on). Once
// it has them all up to T it vacates the seat from T (rollback.vacate):
// the ticks from T on that ran with the lost player seated run again, and
// the next ones are final without it. A player told a decided T by
// another takes it: the other saw every vote. Where GGPO takes the
// smallest last frame any peer reports and rolls back to it, frames that
// a peer had confirmed past it run again there, and inputs some peer had
// are dropped; taking the largest, once every vote is in, undoes nothing
// final and loses no input.
//
// A majority. A player plays on only while the players it is still in
// touch with, itself included, are more than half of those seated before
// the loss: 3 of 4, 2 of 3, never 1 of 2. A peer cut off from the others
// (its cable, a partition) cannot play on alone while they play on
// without it: it stops with the *DisconnectError of the first player it
// lost, and if it hears from them again, it is told it was dropped
// (DisconnectError.Dropped) and stops. A match of two that loses a player,
// or one of four that loses two at once, ends as it always did. A round
// that does not settle within DisconnectTimeout of the loss stops the
// session with an error wrapping the *DisconnectError.

// lostErr returns the error that names player q as lost at now.
func (s *Session) lostErr(q int, now time.Duration) DisconnectError {
	de := DisconnectError{Player: q}
	for i := range s.peers {
		if p := &s.peers[i]; p.kind == remotePlayer && p.player == q {
			de.Addr, de.Silence = s.callerOf(p), now-p.lastRecv
		}
	}
	return de
}

// losePlayer drops player q, lost as why says, and stops the session unless
// the players still in touch are a majority.
func (s *Session) losePlayer(q int, why DisconnectError, now time.Duration) {
	s.dropPlayer(q, why, now)
	s.checkQuorum()
}

// dropPlayer makes this peer drop player q, lost as why says: it takes no more
// of q's inputs, and its vote is how many it has.
func (s *Session) dropPlayer(q int, why DisconnectError, now time.Duration) {
	if q < 0 || q >= s.players || q == s.local || s.dropped>>uint(q)&1 != 0 {
		return
	}
	if s.dropped == s.vacant { // a new round
		s.lostFirst, s.lostAt = q, now
	}
	s.dropped |= 1 << q
	s.vote[q], s.lost[q], s.dropNews = s.recv[q], why, true
}

// checkQuorum stops the session, naming the first player lost, when the
// players this peer is still in touch with, itself included, are not
// more than half of those seated before the round, or a player has
// ended its match already (the match is over: none plays on).
func (s *Session) checkQuorum() {
	if s.dropped == s.vacant || s.err != nil {
		return
	}
	in := s.players - bits.OnesCount32(s.dropped)
	seated := s.players - bits.OnesCount32(s.decided)
	done := false
	for i := range s.peers {
		if p := &s.peers[i]; p.kind == remotePlayer && p.done {
			done = true
		}
	}
	if 2*in > seated && !done {
		return
	}
	de := s.lost[s.lostFirst]
	s.fail(&de)
}

// onDrop takes player p's drop datagram, s.pk: p drops us (we stop), or
// we drop the players it drops too, take the ticks it decided, and keep
// its votes and what it has for the agreement.
func (s *Session) onDrop(p *remote, now time.Duration) {
	pk := &s.pk
	all := uint8(1<<s.players - 1)
	bad := p.kind != remotePlayer || pk.dropped&^all != 0 || pk.dropped>>uint(p.player)&1 != 0
	for q := range MaxPeers {
		bad = bad || pk.dtick[q] > maxTick || pk.dhave[q] > maxTick
	}
	if bad {
		s.stats.PacketsBad++
		return
	}
	p.lastRecv = now
	if pk.dropped>>uint(s.local)&1 != 0 {
		s.fail(&DisconnectError{Player: s.local, Addr: s.callerOf(p), Dropped: true, Tick: uint64(pk.dtick[s.local])})
		return
	}
	p.dropSeen, p.dDropped, p.dDecided = true, uint32(pk.dropped), uint32(pk.decided)
	for q := range MaxPeers {
		p.dTick[q], p.dHave[q] = int(pk.dtick[q]), int(pk.dhave[q])
	}
	for m := p.dDecided; m != 0; m &= m - 1 {
		q := bits.TrailingZeros32(m)
		if s.decided>>uint(q)&1 != 0 {
			if s.at[q] != p.dTick[q] {
				s.fail(fmt.Errorf("netplay: the players disagree on when %s left: at tick %d for this peer, at %d for %s (%v)",
					playerName(q), s.at[q], p.dTick[q], playerName(p.player), s.callerOf(p)))
				return
			}
			continue
		}
		s.dropPlayer(q, s.lostErr(q, now), now)
		s.decided |= 1 << q
		s.at[q] = p.dTick[q] // it heard every vote
	}
	for m := p.dDropped &^ s.dropped; m != 0; m &= m - 1 {
		q := bits.TrailingZeros32(m)
		s.dropPlayer(q, s.lostErr(q, now), now)
	}
	s.checkQuorum()
	if p.dDropped != s.dropped || p.dDecided != s.decided || !p.dropSettled() {
		p.dropDue = true // it waits for something from us
	}
}

// maxTick bounds the ticks a drop datagram names: an int on every build.
const maxTick = 1<<31 - 1

// dropSettled reports whether p's last drop datagram says it vacated every
// seat it decided: it has every input it needs.
func (p *remote) dropSettled() bool {
	if p.dDecided != p.dDropped {
		return false
	}
	for m := p.dDecided; m != 0; m &= m - 1 {
		if q := bits.TrailingZeros32(m); p.dHave[q] < p.dTick[q] {
			return false
		}
	}
	return true
}

// agreeDrops decides the tick of each player dropped once every player still
// in touch has told this peer the same set of dropped players (the
// largest vote), vacates the seats whose inputs it has up to their tick,
// and stops the session when a round takes longer than DisconnectTimeout.
func (s *Session) agreeDrops(now time.Duration) {
	if s.dropped == s.vacant || s.err != nil {
		return
	}
	if pending := s.dropped &^ s.decided; pending != 0 && s.allTold() {
		for m := pending; m != 0; m &= m - 1 {
			q := bits.TrailingZeros32(m)
			t := s.vote[q]
			for i := range s.peers {
				if p := &s.peers[i]; s.inTouch(p) {
					t = max(t, p.dTick[q])
				}
			}
			s.at[q] = t
		}
		s.decided |= pending
		s.dropNews = true
	}
	for m := s.decided &^ s.vacant; m != 0; m &= m - 1 {
		q := bits.TrailingZeros32(m)
		if s.recv[q] < s.at[q] {
			continue // its inputs up to at[q] are being passed on to us
		}
		if c := min(s.confirmed(), s.tick); c > s.at[q] {
			s.fail(fmt.Errorf("netplay: the players agreed that %s left at tick %d, and this peer has run tick %d on its inputs", playerName(q), s.at[q], c-1))
			return
		}
		s.vacate(q, s.at[q])
		s.stats.Left = append(s.stats.Left, Leave{Player: q, Tick: uint64(s.at[q])})
		s.dropNews = true
	}
	if s.dropped != s.vacant && now-s.lostAt > s.cfg.DisconnectTimeout {
		de := s.lost[s.lostFirst]
		s.fail(fmt.Errorf("netplay: the players still in touch did not agree within %v on when %s left: %w", s.cfg.DisconnectTimeout, playerName(s.lostFirst), &de))
	}
}

// allTold reports whether every player still in touch has told this peer
// the players it drops, and they are the ones this peer drops.
func (s *Session) allTold() bool {
	for i := range s.peers {
		if p := &s.peers[i]; s.inTouch(p) && (!p.dropSeen || p.dDropped != s.dropped) {
			return false
		}
	}
	return true
}

// sendDrop sends p this peer's drop datagram: whom it drops, and for each
// its vote or decided tick and how many of its inputs this peer has.
func (s *Session) sendDrop(p *remote, now time.Duration) {
	pk := &s.opk
	*pk = packet{token: p.nonce, dropped: uint8(s.dropped), decided: uint8(s.decided)}
	for m := s.dropped; m != 0; m &= m - 1 {
		q := bits.TrailingZeros32(m)
		pk.dtick[q], pk.dhave[q] = uint32(s.vote[q]), uint32(s.recv[q])
		if s.decided>>uint(q)&1 != 0 {
			pk.dtick[q] = uint32(s.at[q])
		}
	}
	p.dropDue, p.lastDrop = false, now
	s.write(pk.appendDrop(s.out[:0]), p)
}

// toDropped answers a datagram from p, a player this peer drops, with
// this peer's drop datagram, at most every helloEvery: if p still plays,
// it learns it was dropped, and stops.
func (s *Session) toDropped(p *remote, now time.Duration) {
	s.stats.PacketsStale++
	if now-p.lastDrop >= helloEvery {
		s.sendDrop(p, now)
	}
}
