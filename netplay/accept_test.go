package netplay

import (
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
	cfgs := []Config{
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
