package netplay

import (
	"errors"
	"net/netip"
	"testing"
	"time"

	"github.com/fixstep/fixstep/engine"
)

// lobbyTable is a host's lobby and its joiners' on one MemNet and one
// fake clock.
type lobbyTable struct {
	clock   *fakeClock
	net     *MemNet
	host    *Lobby
	joiners []*Lobby
	errs    []error
}

// lobbyCfg is the test world's game (harness_test.go's fingerprint).
func lobbyCfg(clk *fakeClock, seed uint64) SessionConfig {
	return SessionConfig{InputSize: 2, Params: "test", Sim: 0xb1, Clock: clk, Seed: seed}
}

// newLobbyTable makes a host for players players at addr(0).
func newLobbyTable(tb testing.TB, players int) *lobbyTable {
	tb.Helper()
	t := &lobbyTable{clock: &fakeClock{now: time.Second}, net: NewMemNet()}
	c := lobbyCfg(t.clock, 1)
	c.Players = players
	h, err := NewLobby(c, t.net.Listen(addr(0)))
	if err != nil {
		tb.Fatal(err)
	}
	t.host = h
	return t
}

// join adds a joiner at at, ready at once with sim.
func (t *lobbyTable) join(tb testing.TB, at netip.AddrPort, sim uint64) *Lobby {
	tb.Helper()
	c := lobbyCfg(t.clock, uint64(100+len(t.joiners)))
	c.Host, c.Sim = addr(0), 0
	l, err := NewLobby(c, t.net.Listen(at))
	if err != nil {
		tb.Fatal(err)
	}
	l.SetSim(sim)
	t.joiners = append(t.joiners, l)
	t.errs = append(t.errs, nil)
	return l
}

// poll polls the host then every joiner still going, n times, 10 ms apart.
func (t *lobbyTable) poll(tb testing.TB, n int) {
	tb.Helper()
	for range n {
		if err := t.host.Poll(); err != nil {
			tb.Fatalf("host: %v", err)
		}
		for i, j := range t.joiners {
			if t.errs[i] == nil && !j.Done() {
				t.errs[i] = j.Poll()
			}
		}
		t.clock.now += 10 * time.Millisecond
	}
}

// TestLobbySeatsByArrival: three and four players; the joiners call in the
// order of their arrival, not of their addresses, and take seats 1, 2, 3
// in that order; once the table is full each learns every address, and
// the host is done once each joiner's session calls it. The sessions made
// from the lobbies' Configs then play a match on one history.
func TestLobbySeatsByArrival(t *testing.T) {
	for _, players := range []int{3, 4} {
		lt := newLobbyTable(t, players)
		// Joiners arrive from the highest address down, 50 ms apart.
		var at []netip.AddrPort
		for i := players - 1; i >= 1; i-- {
			at = append(at, addr(i))
			lt.join(t, addr(i), 0xb1)
			lt.poll(t, 5)
			if lt.host.Done() || lt.joiners[0].Done() {
				t.Fatalf("%d players: done with %d joiners", players, len(lt.joiners))
			}
		}
		lt.poll(t, 20)
		for i, j := range lt.joiners {
			if lt.errs[i] != nil || !j.Done() {
				t.Fatalf("%d players: joiner %d: done %v, %v", players, i, j.Done(), lt.errs[i])
			}
			c := j.Config()
			if c.Local != i+1 || c.Players != players || j.Players() != players || c.Sim != 0xb1 {
				t.Fatalf("%d players: joiner %d (arrived %d): player %d of %d, want %d of %d", players, i, i+1, c.Local, c.Players, i+1, players)
			}
			for p, a := range c.Addrs {
				want := netip.AddrPort{}
				switch {
				case p == 0:
					want = addr(0)
				case p != c.Local:
					want = at[p-1]
				}
				if a != want {
					t.Fatalf("%d players: joiner %d: Addrs[%d] = %v, want %v", players, i, p, a, want)
				}
			}
		}
		hc := lt.host.Config()
		for p := 1; p < players; p++ {
			if hc.Addrs[p] != at[p-1] {
				t.Fatalf("%d players: host: Addrs[%d] = %v, want %v", players, p, hc.Addrs[p], at[p-1])
			}
		}
		if lt.host.Done() {
			t.Fatalf("%d players: the host is done before any session called", players)
		}
		// The joiners' sessions call: a hello from each ends the host's lobby.
		for i, a := range at {
			lt.net.Listen(a).WriteTo(forgedHello(uint32(200+i), uint8(i+1), func(p *packet) { p.players = uint8(players) }), addr(0))
		}
		lt.poll(t, 1)
		if !lt.host.Done() {
			t.Fatalf("%d players: the host is not done after every session called", players)
		}
		if st := lt.host.Stats(); st.PacketsBad+st.PacketsStale+st.PacketsUnknown+st.Refused != 0 {
			t.Fatalf("%d players: host stats %+v: nothing was dropped or refused", players, *st)
		}

		// The mesh, from the lobbies' Configs, at the addresses they name.
		byPlayer := map[int]SessionConfig{0: hc}
		for _, j := range lt.joiners {
			byPlayer[j.Config().Local] = j.Config()
		}
		w := newWorld(t, worldOpts{players: players, seed: uint64(players), tweak: func(i int, c *SessionConfig) {
			lc := byPlayer[i]
			for p := range lc.Addrs {
				if p != i && lc.Addrs[p] != addr(p) {
					lc.Addrs[p] = addr(p) // the test's nodes listen at addr(i): map arrival to player
				}
			}
			c.Players, c.Local, c.Addrs = lc.Players, lc.Local, lc.Addrs
		}})
		w.runInStep(t, 3*time.Second, 120)
	}
}

// TestLobbyTableFull: a stranger that calls when every seat is taken and
// ready is refused, naming the seats, and stops with a *SeatError; the
// host goes on, and the seated joiner gets its roster.
func TestLobbyTableFull(t *testing.T) {
	lt := newLobbyTable(t, 2)
	first := lt.join(t, addr(1), 0xb1)
	lt.poll(t, 3)
	if !first.Done() {
		t.Fatal("the first joiner has no roster")
	}
	lt.join(t, addr(2), 0xb1)
	lt.poll(t, 3)
	var se *SeatError
	if !errors.As(lt.errs[1], &se) || se.Players != 2 || se.Addr != addr(0) {
		t.Fatalf("a third caller of a two-player match: %v, want a *SeatError for 2 players", lt.errs[1])
	}
	if want := "netplay: refused by 10.0.0.1:7000: the 2 players of its match are all seated"; se.Error() != want {
		t.Fatalf("%q, want %q", se.Error(), want)
	}
	if st := lt.host.Stats(); st.Refused != 1 {
		t.Fatalf("host Refused = %d, want 1", st.Refused)
	}
	if c := first.Config(); c.Local != 1 || c.Addrs[0] != addr(0) {
		t.Fatalf("the seated joiner: %+v", c)
	}
}

// TestLobbyOtherGameWaits: a caller of another version (Sim) is refused,
// naming the simulation, once it is ready; its seat goes to the next
// caller, and a caller with other Params is refused without a seat.
func TestLobbyOtherGameWaits(t *testing.T) {
	lt := newLobbyTable(t, 3)
	lt.join(t, addr(1), 0xb1)
	lt.join(t, addr(2), 0xdead)
	lt.poll(t, 3)
	var fe *FingerprintError
	if !errors.As(lt.errs[1], &fe) || fe.Field != "simulation" || !fe.Refused {
		t.Fatalf("another version: %v, want a refusal naming the simulation", lt.errs[1])
	}
	c := lobbyCfg(lt.clock, 300)
	c.Host, c.Params = addr(0), "other"
	params, err := NewLobby(c, lt.net.Listen(addr(3)))
	if err != nil {
		t.Fatal(err)
	}
	params.SetSim(0xb1)
	for range 3 {
		params.Poll()
		lt.poll(t, 1)
	}
	if err := params.Poll(); !errors.As(err, &fe) || fe.Field != "game params" {
		t.Fatalf("other params: %v, want a refusal naming the game params", err)
	}
	last := lt.join(t, addr(4), 0xb1)
	lt.poll(t, 15) // the first joiner calls again within 100 ms
	if !last.Done() || last.Config().Local != 2 || lt.errs[0] != nil || !lt.joiners[0].Done() {
		t.Fatalf("the next caller: done %v, player %d; the first: %v, %v", last.Done(), last.Config().Local, lt.joiners[0].Done(), lt.errs[0])
	}
	if st := lt.host.Stats(); st.Refused < 2 {
		t.Fatalf("host Refused = %d, want 2 or more", st.Refused)
	}
}

// TestLobbyForgedSeats: seats with the wrong token, from another address,
// or changing the match, are counted and change nothing; a joiner that
// goes silent before the table is full loses its seat to the next caller.
func TestLobbyForgedSeats(t *testing.T) {
	lt := newLobbyTable(t, 3)
	j := lt.join(t, addr(1), 0xb1)
	lt.poll(t, 2)
	if j.Local() != 1 || j.Done() {
		t.Fatalf("seated: player %d, done %v", j.Local(), j.Done())
	}
	roster := packet{token: j.nonce, nonce: lt.host.nonce, player: 1, players: 3, seated: 3, hflags: seatRoster}
	roster.roster[1], roster.roster[2] = addr(1), addrStranger
	wrongToken := roster
	wrongToken.token++
	otherMatch := roster
	otherMatch.players, otherMatch.seated = 2, 2
	stranger := lt.net.Listen(addrStranger)
	stranger.WriteTo(roster.appendSeat(nil), addr(1))                           // unknown
	lt.net.Listen(addr(0)).WriteTo(wrongToken.appendSeat(nil), addr(1))         // stale
	lt.net.Listen(addr(0)).WriteTo(otherMatch.appendSeat(nil), addr(1))         // bad
	lt.net.Listen(addr(0)).WriteTo(roster.appendSeat(nil)[:seatLen-1], addr(1)) // bad
	if err := j.Poll(); err != nil || j.Done() || j.Players() != 3 {
		t.Fatalf("after forgeries: %v, done %v, players %d", err, j.Done(), j.Players())
	}
	if st := j.Stats(); st.PacketsUnknown != 1 || st.PacketsStale != 1 || st.PacketsBad != 2 {
		t.Fatalf("joiner stats: unknown %d stale %d bad %d, want 1 1 2", st.PacketsUnknown, st.PacketsStale, st.PacketsBad)
	}
	// A forged sit from the seated address with another nonce is stale.
	sit := packet{nonce: 555, players: 3, isize: 2, tps: 60, params: paramsHash("test")}
	lt.net.Listen(addr(1)).WriteTo(sit.appendSit(nil), addr(0))
	if err := lt.host.Poll(); err != nil || lt.host.Stats().PacketsStale != 1 {
		t.Fatalf("forged sit: %v, stale %d", err, lt.host.Stats().PacketsStale)
	}
	// j goes silent past DisconnectTimeout: its seat is the next caller's.
	lt.errs[0] = errors.New("silent")
	lt.poll(t, 250)
	k := lt.join(t, addr(5), 0xb1)
	lt.poll(t, 2)
	if k.Local() != 1 {
		t.Fatalf("the caller after a silent one: player %d, want 1", k.Local())
	}
}

// TestLobbyNoHost: a joiner whose host never answers stops after
// HandshakeTimeout with a *DisconnectError.
func TestLobbyNoHost(t *testing.T) {
	clk := &fakeClock{now: time.Second}
	c := lobbyCfg(clk, 7)
	c.Host = addr(0)
	l, err := NewLobby(c, NewMemNet().Listen(addr(1)))
	if err != nil {
		t.Fatal(err)
	}
	for range 1100 {
		if err = l.Poll(); err != nil {
			break
		}
		clk.now += 10 * time.Millisecond
	}
	var de *DisconnectError
	if !errors.As(err, &de) || !de.Handshake || de.Addr != addr(0) {
		t.Fatalf("no host: %v, want a handshake *DisconnectError", err)
	}
}

// TestSessionWithLobby: four sessions made with NewLobbySession, a host's
// and three joiners' that arrive one by one (each learns the count, then
// makes its session): they run no tick while seating, then play a match
// of 200 ticks to its end, every peer in one state, hashes compared.
func TestSessionWithLobby(t *testing.T) {
	clk := &fakeClock{now: time.Second}
	net := NewMemNet()
	type peer struct {
		s   *Session
		g   *testGame
		ts  engine.Timestep
		err error
	}
	newPeer := func(l *Lobby, at netip.AddrPort, seed uint64) *peer {
		c := lobbyCfg(clk, seed)
		c.EndTick = 200
		p := &peer{g: &testGame{player: l.Local(), players: 4}}
		var err error
		if p.s, err = NewLobbySession(l, c, p.g, net.Listen(at)); err != nil {
			t.Fatal(err)
		}
		if p.ts, err = newTimestep(60); err != nil {
			t.Fatal(err)
		}
		return p
	}
	frame := func(ps []*peer) {
		for _, p := range ps {
			if p.err != nil {
				continue
			}
			f := p.ts.Advance(16_666_667)
			p.err = p.s.Begin(f)
			for i := 0; i < f.Ticks && p.err == nil; i++ {
				p.err = p.s.Update(f.Tick(i))
			}
		}
		clk.now += 16_666_667
	}
	hc := lobbyCfg(clk, 1)
	hc.Players = 4
	hl, err := NewLobby(hc, net.Listen(addr(0)))
	if err != nil {
		t.Fatal(err)
	}
	ps := []*peer{newPeer(hl, addr(0), 1)}
	for k, at := range []netip.AddrPort{addr(3), addr(1), addr(2)} {
		c := lobbyCfg(clk, uint64(10+k))
		c.Host, c.Sim = addr(0), 0
		jl, err := NewLobby(c, net.Listen(at))
		if err != nil {
			t.Fatal(err)
		}
		for range 20 {
			if err := jl.Poll(); err != nil {
				t.Fatal(err)
			}
			frame(ps)
		}
		if jl.Players() != 4 || jl.Local() != k+1 {
			t.Fatalf("joiner %d: seat %d of %d, want %d of 4", k, jl.Local(), jl.Players(), k+1)
		}
		jl.SetSim(0xb1)
		ps = append(ps, newPeer(jl, at, uint64(20+k)))
		if ps[0].s.Tick() != 0 || ps[0].s.Running() {
			t.Fatalf("the host ran %d ticks with %d players seated", ps[0].s.Tick(), k+1)
		}
	}
	for range 1000 {
		frame(ps)
	}
	for i, p := range ps {
		if p.err != engine.ErrStopped || p.g.n != 200 || p.g.h != ps[0].g.h || p.s.Stats().Hashes == 0 {
			t.Fatalf("peer %d: %v after %d ticks, hash %x (host's %x), %d hashes compared; want the end of 200 ticks on one hash",
				i, p.err, p.g.n, p.g.h, ps[0].g.h, p.s.Stats().Hashes)
		}
	}
	if st := ps[0].s.Stats(); st.Waiting == 0 || st.PacketsIn == 0 {
		t.Fatalf("host stats: waiting %d, packets in %d", st.Waiting, st.PacketsIn)
	}
}

// TestLobbySeatWaitsForWorld: a joiner seated but not ready (building
// its world for the count it learned) keeps its seat through a silence
// longer than DisconnectTimeout, and loses it past HandshakeTimeout.
func TestLobbySeatWaitsForWorld(t *testing.T) {
	lt := newLobbyTable(t, 3)
	c := lobbyCfg(lt.clock, 50)
	c.Host, c.Sim = addr(0), 0
	j, err := NewLobby(c, lt.net.Listen(addr(1)))
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		j.Poll()
		lt.poll(t, 1)
	}
	if j.Local() != 1 || j.Players() != 3 {
		t.Fatalf("seat %d of %d, want 1 of 3", j.Local(), j.Players())
	}
	lt.poll(t, 500) // 5 s without a word from j
	y := lt.join(t, addr(2), 0xb1)
	lt.poll(t, 3)
	j.SetSim(0xb1)
	for range 12 {
		j.Poll()
		lt.poll(t, 1)
	}
	if err := j.Poll(); err != nil || !j.Done() || j.Local() != 1 || y.Local() != 2 || !y.Done() {
		t.Fatalf("after 5 s building its world: %v, done %v, seat %d; the next caller's seat %d, done %v; want 1 and 2, done",
			err, j.Done(), j.Local(), y.Local(), y.Done())
	}
	lt2 := newLobbyTable(t, 2)
	c = lobbyCfg(lt2.clock, 51)
	c.Host, c.Sim = addr(0), 0
	k, err := NewLobby(c, lt2.net.Listen(addr(1)))
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		k.Poll()
		lt2.poll(t, 1)
	}
	lt2.poll(t, 1100) // 11 s: gone
	x := lt2.join(t, addr(2), 0xb1)
	lt2.poll(t, 3)
	if k.Local() != 1 || x.Local() != 1 || !x.Done() {
		t.Fatalf("after 11 s of silence the seat was %d's, then %d's (done %v): want 1 for both", k.Local(), x.Local(), x.Done())
	}
}

// TestLobbyRefusesOtherVersions: a hello or a sit of another protocol
// version (a joiner of version 2 says hello first) is refused, naming the
// version, and takes no seat.
func TestLobbyRefusesOtherVersions(t *testing.T) {
	lt := newLobbyTable(t, 2)
	old := lt.net.Listen(addrStranger)
	hello := forgedHello(5, 1, nil)
	hello[2] = 2
	sit := (&packet{nonce: 6, isize: 2, tps: 60, params: paramsHash("test")}).appendSit(nil)
	sit[2] = ProtocolVersion + 1
	for _, b := range [][]byte{hello, sit} {
		old.WriteTo(b, addr(0))
		lt.poll(t, 1)
		buf := make([]byte, MaxPacket)
		n, _, ok := old.ReadFrom(buf)
		var p packet
		if !ok || p.decode(buf[:n]) != nil || p.kind != kindRefuse || p.field != fieldVersion || p.ours != ProtocolVersion || p.theirs != uint64(b[2]) {
			t.Fatalf("version %d, kind %d: answered %x, want a refuse naming the version", b[2], b[3], buf[:n])
		}
	}
	if st := lt.host.Stats(); st.Refused != 2 {
		t.Fatalf("host Refused = %d, want 2", st.Refused)
	}
	j := lt.join(t, addr(1), 0xb1)
	lt.poll(t, 3)
	if !j.Done() || j.Local() != 1 {
		t.Fatalf("a caller of this version: done %v, seat %d, want the seat the others did not take", j.Done(), j.Local())
	}
}
