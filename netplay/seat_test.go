package netplay

import (
	"errors"
	"net/netip"
	"strings"
	"testing"

	"github.com/fixstep/fixstep/engine"
)

// seatRig is a host on an Accept transport with some spectator seats,
// and the callers a test adds, all driven frame by frame on one clock.
type seatRig struct {
	t     *testing.T
	clk   *fakeClock
	net   *MemNet
	host  *Accept
	peers []*seatPeer
}

// seatPeer is one session of a seatRig.
type seatPeer struct {
	s   *Session
	g   *testGame
	ts  engine.Timestep
	err error
	off bool // not run: silent
}

var seatHost = netip.MustParseAddrPort("10.0.0.1:7000")

// newSeatRig returns a rig whose host (peers[0]) offers seats spectator
// seats.
func newSeatRig(t *testing.T, seats int) *seatRig {
	r := &seatRig{t: t, clk: &fakeClock{}, net: NewMemNet()}
	r.host = NewAccept(r.net.Listen(seatHost), seats)
	cfg := SessionConfig{Local: 0, Addrs: []netip.AddrPort{{}, Unknown}}
	for i := range seats {
		cfg.Spectators = append(cfg.Spectators, SpectatorSeat(i))
	}
	r.add(cfg, r.host, 0)
	return r
}

// add makes a session over tr with cfg, for player (-1: a spectator).
func (r *seatRig) add(cfg SessionConfig, tr Transport, player int) *seatPeer {
	cfg.InputSize, cfg.Params, cfg.Sim, cfg.Clock, cfg.Seed = 2, "test", 0xb1, r.clk, uint64(len(r.peers)+1)
	p := &seatPeer{g: &testGame{player: player, players: 2}}
	s, err := NewSession(cfg, p.g, tr)
	if err != nil {
		r.t.Fatal(err)
	}
	p.s = s
	p.ts, _ = engine.NewTimestep(engine.Config{TPS: 60})
	s.SetTimeScaler(&p.ts)
	r.peers = append(r.peers, p)
	return p
}

// join adds the joiner, from 10.0.0.2.
func (r *seatRig) join() *seatPeer {
	return r.add(SessionConfig{Local: 1, Addrs: []netip.AddrPort{seatHost, {}}}, r.net.Listen(netip.MustParseAddrPort("10.0.0.2:6000")), 1)
}

// spectate adds a spectator calling from 10.0.1.k.
func (r *seatRig) spectate(k byte) *seatPeer {
	a := netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, 0, 1, k}), 5000)
	return r.add(SessionConfig{Spectate: true, Host: seatHost}, r.net.Listen(a), -1)
}

// run runs frames frames of every peer that runs; the host must not fail.
func (r *seatRig) run(frames int) {
	for range frames {
		r.clk.now += 16_666_667
		for i, p := range r.peers {
			if p.off || p.err != nil {
				continue
			}
			f := p.ts.Advance(16_666_667)
			for k := range f.Ticks {
				if p.err = p.s.Update(f.Tick(k)); p.err != nil {
					break
				}
			}
			if i == 0 && p.err != nil {
				r.t.Fatalf("the host stopped: %v", p.err)
			}
		}
	}
}

// seatErr returns p's error as a *SeatError, or fails the test.
func seatErr(t *testing.T, who string, p *seatPeer) *SeatError {
	t.Helper()
	var se *SeatError
	if !errors.As(p.err, &se) {
		t.Fatalf("%s: %v, want a *SeatError", who, p.err)
	}
	t.Logf("%s: %v", who, p.err)
	return se
}

// A host with two spectator seats seats two spectators and refuses a
// third, who is told the seats are taken, not that nobody plays there.
// A spectator that says goodbye and one that goes silent give their seats
// back; a spectator calling then, too late to be fed from tick 0, takes a
// seat, is sent the host's state, and watches the match from there.
func TestSpectatorSeatsFullThenFreed(t *testing.T) {
	r := newSeatRig(t, 2)
	r.join()
	a, b := r.spectate(1), r.spectate(2)
	r.run(5)
	third := r.spectate(3)
	r.run(30)
	if se := seatErr(t, "the third spectator", third); se.Late || se.Seats != 2 || se.Addr != seatHost ||
		!strings.Contains(third.err.Error(), "2 spectator seats are all taken") {
		t.Errorf("%+v: want the 2 seats taken", *se)
	}
	if a.err != nil || b.err != nil || !a.s.Running() || !b.s.Running() {
		t.Fatalf("the seated spectators: %v, %v", a.err, b.err)
	}
	a.s.Close()
	a.off = true
	b.off = true // silent from now on
	r.run(60 * 3)
	for i := range 2 {
		if c := r.host.Caller(SpectatorSeat(i)); c != SpectatorSeat(i) {
			t.Errorf("seat %d still held by %v", i, c)
		}
	}
	late := r.spectate(4)
	r.run(60 * 2)
	h := r.peers[0]
	from := late.s.st.tick
	if late.err != nil || !late.s.Running() || from < 200 || late.s.Tick() < h.s.Tick()-10 || late.s.Stats().Hashes == 0 {
		t.Fatalf("the late spectator: %v, from the state of tick %d, at tick %d (the host's %d), %d hashes compared",
			late.err, from, late.s.Tick(), h.s.Tick(), late.s.Stats().Hashes)
	}
	for k := from; k < int(min(late.s.Tick(), h.s.Tick())); k++ {
		if late.g.after[k] != h.g.after[k] {
			t.Fatalf("tick %d: the late spectator's hash %x, the host's %x (from %d, spectator at %d/%d, host %d/%d)", k, late.g.after[k], h.g.after[k], from, late.s.Tick(), late.g.n, h.s.Tick(), h.g.n)
		}
	}
	if st := h.s.Stats(); st.SpectatorsDropped != 2 || st.Refused != 1 || st.StatesSent != 1 {
		t.Errorf("host: %d spectators dropped, %d refused, %d states sent", st.SpectatorsDropped, st.Refused, st.StatesSent)
	}
}

// Forged spectator hellos (the right fingerprint, from addresses that
// never answer) take seats for DisconnectTimeout at most: then a real
// spectator is seated and watches the match. Meanwhile a spectator is
// told the seats are taken, in a refuse no larger than its hello.
func TestForgedSpectatorsFreeTheirSeats(t *testing.T) {
	r := newSeatRig(t, 2)
	for k := range 2 {
		fake := r.net.Listen(netip.AddrPortFrom(netip.AddrFrom4([4]byte{192, 0, 2, byte(k + 1)}), 9))
		fake.WriteTo(forgedHello(uint32(500+k), spectatorIndex, nil), seatHost)
	}
	r.run(2)
	probe := r.net.Listen(netip.MustParseAddrPort("10.0.2.1:5000"))
	hello := forgedHello(600, spectatorIndex, nil)
	probe.WriteTo(hello, seatHost)
	r.run(1)
	var buf [MaxPacket]byte
	n, _, ok := probe.ReadFrom(buf[:])
	var pk packet
	if !ok || n > len(hello) || pk.decode(buf[:n]) != nil || pk.kind != kindRefuse || pk.field != fieldSeats || pk.ours != 2 {
		t.Fatalf("the probe got %d bytes (%v): %+v, want a refuse of the 2 seats no larger than %d", n, ok, pk, len(hello))
	}
	r.run(60 * 3) // the forged seats' DisconnectTimeout passes, the host still waiting for its joiner
	spec := r.spectate(1)
	r.join()
	r.run(60 * 5)
	if spec.err != nil || !spec.s.Running() || spec.s.Tick() < 200 || spec.g.n != spec.s.Tick() {
		t.Fatalf("the spectator: %v, at tick %d", spec.err, spec.s.Tick())
	}
	h := r.peers[0].g
	for k := range spec.s.Tick() {
		if spec.g.after[k] != h.after[k] {
			t.Fatalf("tick %d: the spectator's hash %x, the host's %x", k, spec.g.after[k], h.after[k])
		}
	}
}

// A host that takes no spectators says so.
func TestNoSpectatorSeats(t *testing.T) {
	r := newSeatRig(t, 0)
	r.join()
	spec := r.spectate(1)
	r.run(30)
	if se := seatErr(t, "the spectator", spec); se.Late || se.Seats != 0 || !strings.Contains(spec.err.Error(), "takes no spectators") {
		t.Errorf("%+v: want no seats offered", *se)
	}
	if r.peers[1].err != nil || r.peers[0].s.Tick() < 10 {
		t.Errorf("the match: joiner %v, host at tick %d", r.peers[1].err, r.peers[0].s.Tick())
	}
}
