package netplay_test

import (
	"fmt"
	"net/netip"
	"time"

	"github.com/fixstep/fixstep/engine"
	"github.com/fixstep/fixstep/netplay"
)

// walker is a one-byte-input game: each player walks left, stays or walks
// right.
type walker struct {
	me  int
	pos [2]int64
}

func (w *walker) Input(t engine.Tick, dst []byte) { dst[0] = byte((t.N/10 + uint64(w.me)) % 3) }

func (w *walker) Update(t engine.Tick) error {
	for p := range 2 {
		w.pos[p] += int64(t.Input.Player(p)[0]) - 1
	}
	return nil
}

func (w *walker) Draw(engine.Frame) {}

func (w *walker) Save(dst []byte) []byte { return fmt.Appendf(dst, "%d %d", w.pos[0], w.pos[1]) }

func (w *walker) Load(src []byte) error {
	_, err := fmt.Sscanf(string(src), "%d %d", &w.pos[0], &w.pos[1])
	return err
}

// clock is a clock the example moves by hand.
type clock struct{ now time.Duration }

func (c *clock) Now() time.Duration { return c.now }

// Two peers in one process, over an in-memory network that delays every
// datagram by 50 ms: each runs its own timestep, predicts the other's
// input, rolls back when a prediction was wrong, and both end with the
// same world.
func ExampleSession() {
	net := netplay.NewMemNet()
	clk := &clock{}
	addrs := []netip.AddrPort{netip.MustParseAddrPort("10.0.0.1:7000"), netip.MustParseAddrPort("10.0.0.2:7000")}
	var sessions [2]*netplay.Session
	var games [2]*walker
	var steps [2]engine.Timestep
	for i := range 2 {
		games[i] = &walker{me: i}
		link := netplay.NewSimTransport(net.Listen(addrs[i]), netplay.NetSim{Latency: 50 * time.Millisecond}, clk, uint64(i))
		s, err := netplay.NewSession(netplay.SessionConfig{Players: 2, Local: i, Addrs: addrs, InputSize: 1,
			Params: "walker", Clock: clk, Seed: uint64(i + 1)}, games[i], link)
		if err != nil {
			panic(err)
		}
		steps[i], _ = engine.NewTimestep(engine.Config{TPS: 60})
		s.SetTimeScaler(&steps[i])
		sessions[i] = s
	}
	for range 600 { // 10 s of 60 Hz frames
		clk.now += 16_666_667
		for i, s := range sessions {
			f := steps[i].Advance(16_666_667)
			for k := range f.Ticks {
				if err := s.Update(f.Tick(k)); err != nil {
					panic(err)
				}
			}
		}
	}
	a, b := sessions[0].Stats(), sessions[1].Stats()
	fmt.Println("rolled back:", a.Rollbacks > 0 && b.Rollbacks > 0)
	fmt.Println("deepest rollback within max prediction:", max(a.RollbackTicksMax, b.RollbackTicksMax) <= netplay.DefaultMaxPrediction)
	fmt.Println("hashes compared, no desync:", a.Hashes > 0 && a.Desyncs == 0)
	// Output:
	// rolled back: true
	// deepest rollback within max prediction: true
	// hashes compared, no desync: true
}

// A -netsim flag's value.
func ExampleParseNetSim() {
	n, err := netplay.ParseNetSim("latency=50ms,jitter=10ms,loss=0.05,dup=0.01")
	fmt.Println(n, err)
	_, err = netplay.ParseNetSim("latency=50")
	fmt.Println(err)
	// Output:
	// latency=50ms,jitter=10ms,loss=0.05,dup=0.01,reorder=0 <nil>
	// netplay: netsim latency="50": want a duration from 0 to 10s
}

// A host seats three players: the joiners know only its address, and
// take seats 2 and 3 in the order they call (the one at .3 first); once
// the table is full each one's SessionConfig names every player's address, for
// NewSession (or hand the lobby itself to NewLobbySession, and
// the session seats the players as its loop runs).
func ExampleLobby() {
	net := netplay.NewMemNet()
	clk := &clock{}
	hostAddr := netip.MustParseAddrPort("10.0.0.1:7000")
	host, err := netplay.NewLobby(netplay.SessionConfig{Players: 3, InputSize: 1, Params: "walker", Clock: clk, Seed: 1},
		net.Listen(hostAddr))
	if err != nil {
		panic(err)
	}
	var joiners []*netplay.Lobby
	for i, a := range []string{"10.0.0.3:7000", "10.0.0.2:7000"} {
		j, err := netplay.NewLobby(netplay.SessionConfig{Host: hostAddr, InputSize: 1, Params: "walker", Clock: clk, Seed: uint64(i + 2)},
			net.Listen(netip.MustParseAddrPort(a)))
		if err != nil {
			panic(err)
		}
		j.SetSim(0) // the Sim of its world, built for j.Players() once seated
		joiners = append(joiners, j)
		for range 15 { // 150 ms: a joiner calls every 100 ms
			for _, l := range append([]*netplay.Lobby{host}, joiners...) {
				if err := l.Poll(); err != nil {
					panic(err)
				}
			}
			clk.now += 10 * time.Millisecond
		}
	}
	for _, j := range joiners {
		c := j.Config()
		fmt.Println("player", c.Local+1, "of", c.Players, "done:", j.Done(), "addresses:", c.Addrs)
	}
	// Output:
	// player 2 of 3 done: true addresses: [10.0.0.1:7000 invalid AddrPort 10.0.0.2:7000]
	// player 3 of 3 done: true addresses: [10.0.0.1:7000 10.0.0.3:7000 invalid AddrPort]
}
