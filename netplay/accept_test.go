package netplay

import (
	"errors"
	"net/netip"
	"testing"

	"github.com/fixstep/fixstep/engine"
)

// A host that knows only its own address accepts a joiner and a
// spectator calling from addresses it never heard of, ignores a
// stranger's junk before them, and all three run the same history.
func TestAcceptUnknownPeer(t *testing.T) {
	net := NewMemNet()
	clk := &fakeClock{}
	hostAddr := netip.MustParseAddrPort("10.0.0.1:7000")
	joinAddr := netip.MustParseAddrPort("10.0.0.2:51234")
	specAddr := netip.MustParseAddrPort("10.0.0.4:40000")
	host := NewAccept(net.Listen(hostAddr), 2)
	stranger := net.Listen(netip.MustParseAddrPort("10.0.0.3:9"))
	stranger.WriteTo([]byte("fx junk"), hostAddr) // not a hello: takes no seat
	cfgs := []SessionConfig{
		{Local: 0, Addrs: []netip.AddrPort{{}, Unknown}, Spectators: []netip.AddrPort{SpectatorSeat(0), SpectatorSeat(1)}},
		{Local: 1, Addrs: []netip.AddrPort{hostAddr, {}}},
		{Spectate: true, Host: hostAddr, Players: 2},
	}
	trs := []Transport{host, net.Listen(joinAddr), net.Listen(specAddr)}
	var games [3]*testGame
	var sessions [3]*Session
	var steps [3]engine.Timestep
	for i := range 3 {
		games[i] = &testGame{player: i, players: 2}
		cfg := cfgs[i]
		cfg.InputSize, cfg.Params, cfg.Clock, cfg.Seed = 2, "accept", clk, uint64(i+1)
		s, err := NewSession(cfg, games[i], trs[i])
		if err != nil {
			t.Fatal(err)
		}
		steps[i], _ = engine.NewTimestep(engine.Config{TPS: 60})
		s.SetTimeScaler(&steps[i])
		sessions[i] = s
	}
	for range 300 {
		clk.now += 16_666_667
		for i, s := range sessions {
			f := steps[i].Advance(16_666_667)
			for k := range f.Ticks {
				if err := s.Update(f.Tick(k)); err != nil {
					t.Fatalf("peer %d: %v", i, err)
				}
			}
		}
	}
	if host.Peer() != joinAddr || host.Caller(Unknown) != joinAddr || host.Caller(SpectatorSeat(0)) != specAddr || host.Caller(SpectatorSeat(1)) != SpectatorSeat(1) {
		t.Errorf("host's seats: %v, want %v and %v", host.seats[:3], joinAddr, specAddr)
	}
	c := min(sessions[0].Confirmed(), sessions[1].Confirmed(), sessions[0].Tick(), sessions[1].Tick(), sessions[2].Tick())
	if c < 200 {
		t.Fatalf("confirmed %d ticks", c)
	}
	for k := range c {
		if games[0].after[k] != games[1].after[k] || games[2].after[k] != games[0].after[k] {
			t.Fatalf("tick %d: hashes %x, %x and %x (the spectator's)", k, games[0].after[k], games[1].after[k], games[2].after[k])
		}
	}
}

// A host on an Accept transport gives no seat to garbage shaped like a
// hello, refuses a caller with another tick rate (who stops, naming it)
// and goes on waiting, then seats the right joiner.
func TestAcceptSeatsOnlyItsGame(t *testing.T) {
	net := NewMemNet()
	clk := &fakeClock{}
	hostAddr := netip.MustParseAddrPort("10.0.0.1:7000")
	host := NewAccept(net.Listen(hostAddr), 0)
	flood := net.Listen(netip.MustParseAddrPort("10.0.0.3:9"))
	newPeer := func(tr Transport, cfg SessionConfig, player int) (*Session, *engine.Timestep) {
		cfg.InputSize, cfg.Params, cfg.Clock, cfg.Seed = 2, "accept", clk, uint64(player+1)
		s, err := NewSession(cfg, &testGame{player: player, players: 2}, tr)
		if err != nil {
			t.Fatal(err)
		}
		ts, _ := engine.NewTimestep(engine.Config{TPS: cfg.TPS})
		s.SetTimeScaler(&ts)
		return s, &ts
	}
	hs, hts := newPeer(host, SessionConfig{Local: 0, Addrs: []netip.AddrPort{{}, Unknown}}, 0)
	odd, oddTs := newPeer(net.Listen(netip.MustParseAddrPort("10.0.0.4:5000")), SessionConfig{Local: 1, Addrs: []netip.AddrPort{hostAddr, {}}, TPS: 30}, 1)
	good, goodTs := newPeer(net.Listen(netip.MustParseAddrPort("10.0.0.2:6000")), SessionConfig{Local: 1, Addrs: []netip.AddrPort{hostAddr, {}}}, 1)
	garbage := make([]byte, helloLen)
	frame := func(s *Session, ts *engine.Timestep) error {
		f := ts.Advance(16_666_667)
		for k := range f.Ticks {
			if err := s.Update(f.Tick(k)); err != nil {
				return err
			}
		}
		return nil
	}
	var oddErr error
	for i := range 600 {
		clk.now += 16_666_667
		for j := range 20 { // hellos with random fingerprints
			copy(garbage, "fx\x01\x01")
			for k := 8; k < helloLen; k++ {
				garbage[k] = byte(i*131 + j*17 + k*7)
			}
			flood.WriteTo(garbage, hostAddr)
		}
		if err := frame(hs, hts); err != nil {
			t.Fatalf("host, frame %d: %v", i, err)
		}
		if oddErr == nil {
			oddErr = frame(odd, oddTs)
		}
		if i >= 200 { // the right joiner calls late
			if err := frame(good, goodTs); err != nil {
				t.Fatalf("joiner: %v", err)
			}
		}
	}
	var fe *FingerprintError
	if !errors.As(oddErr, &fe) || fe.Field != "tick rate" || !fe.Refused {
		t.Errorf("the 30 TPS caller: %v, want refused for its tick rate", oddErr)
	}
	st := hs.Stats()
	if host.Peer() != netip.MustParseAddrPort("10.0.0.2:6000") || !hs.Running() || st.Refused == 0 || hs.Tick() < 300 {
		t.Errorf("host seated %v, running %v, refused %d, at tick %d", host.Peer(), hs.Running(), st.Refused, hs.Tick())
	}
}
