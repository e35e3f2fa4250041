package netplay

import (
	"slices"
	"testing"
	"time"

	"github.com/fixstep/fixstep/engine"
)

// costGame is a seatGame whose ticks cost time: its Update moves the
// world's fake clock on by cost, as a big world's physics keeps the CPU,
// so the frames of the role that runs it overrun as they would (see
// step), and its spiral, if it has one, is the same on every run.
type costGame struct {
	*seatGame
	clock *fakeClock
	cost  time.Duration
	read  []uint64 // the ticks Input was called for
	// While the clock is in the first busyFor of every busyEvery, each
	// Update costs busy more: other processes hold the machine's cores.
	busy, busyFor, busyEvery time.Duration
}

func (g *costGame) Update(t engine.Tick) error {
	g.clock.now += g.cost
	if g.busyEvery > 0 && g.clock.now%g.busyEvery < g.busyFor {
		g.clock.now += g.busy
	}
	return g.seatGame.Update(t)
}

func (g *costGame) Input(t engine.Tick, dst []byte) {
	g.read = append(g.read, t.N)
	g.seatGame.Input(t, dst)
}

// link150 is the big world's link (tools/bigworld): a 150 ms round trip,
// half each way, 5 ms of jitter each way, 5 % of the datagrams lost.
var link150 = NetSim{Latency: 75 * time.Millisecond, Jitter: 5 * time.Millisecond, Loss: 0.05}

// frameFigures returns the frame rate and the 99th percentile of the
// frame intervals of iv.
func frameFigures(iv []time.Duration) (fps float64, p99 time.Duration) {
	var sum time.Duration
	for _, d := range iv {
		sum += d
	}
	s := slices.Clone(iv)
	slices.Sort(s)
	return float64(len(s)) / sum.Seconds(), s[len(s)*99/100]
}

// spiralMatch plays 1,800 ticks between a server and two clients on
// link150 whose ticks cost cost each, client 0 configured by tweak, and
// returns client 0 and its frame intervals. Both clients must end on the
// server's state hash.
func spiralMatch(t *testing.T, cost time.Duration, tweak func(*ClientConfig)) (*snode, []time.Duration, []uint64) {
	t.Helper()
	_, a, iv, read := busyMatch(t, cost, 0, 0, 0, tweak)
	return a, iv, read
}

// busyMatch is spiralMatch on a machine that is busy for busyFor every
// busyEvery, when the clients' ticks cost busy more; it returns the
// server too.
func busyMatch(t *testing.T, cost, busy, busyFor, busyEvery time.Duration, tweak func(*ClientConfig)) (*snode, *snode, []time.Duration, []uint64) {
	t.Helper()
	w := newSWorld(t, ServerConfig{Players: 2, EndTick: 1800}, 0, 4)
	var games []*costGame
	w.wrapClient = func(i int, g *seatGame) engine.Game {
		games = append(games, &costGame{seatGame: g, clock: w.clock, cost: cost, busy: busy, busyFor: busyFor, busyEvery: busyEvery})
		return games[i]
	}
	a := w.join(t, 0, link150, 0, tweak)
	w.join(t, 1, link150, 10*time.Millisecond, tweak)
	a.intervals = make([]time.Duration, 0, 4096)
	w.endsOnServer(t, 90*time.Second)
	return w.srv, a, a.intervals[60:], games[0].read // from the second second on: joined and loaded
}

// A client whose ticks cost 5 ms (a big world) on a 150 ms round trip
// would roll back 14 ticks, 70 ms, every time a prediction was wrong: its
// frames overran, the loop gave it more ticks, it ran further ahead and
// rolled back further, and it spiralled (on the code before: 14.3 fps,
// frame p99 155 ms, rollbacks of up to 30 ticks). It measures
// its ticks' cost instead, predicts no further than a frame can run
// again, delays its input by more, and keeps 60 fps with short frames;
// both clients end on the server's hash.
func TestClientDoesNotSpiral(t *testing.T) {
	a, iv, read := spiralMatch(t, 5*time.Millisecond, nil)
	st := a.cl.Stats()
	fps, p99 := frameFigures(iv)
	t.Logf("client: fps %.1f, frame p99 %v;%s", fps, p99, a.cl.Report())
	if fps < 58 || p99 > 25*time.Millisecond {
		t.Errorf("client: %.1f fps, frame p99 %v; want at least 58 and at most 25 ms", fps, p99)
	}
	if st.TickCost != 5*time.Millisecond || st.InputDelay <= 5 || st.DelayChanges == 0 {
		t.Errorf("client: tick cost %v, input delay %d, %d changes; want 5 ms, over 5 (half the round trip) and some", st.TickCost, st.InputDelay, st.DelayChanges)
	}
	// A frame's budget (12.5 ms) runs two 5 ms ticks: a rollback of one
	// and the next tick.
	if st.RollbackTicksMax > 1 {
		t.Errorf("client: rollbacks %d ticks deep; want 1 at most", st.RollbackTicksMax)
	}
	// Each input is read once, for one tick, in order, though the delay
	// moved (none for a tick that was final before the client ran it:
	// its input is the server's).
	for k := 1; k < len(read); k++ {
		if read[k] <= read[k-1] {
			t.Fatalf("input %d read for tick %d, after tick %d", k, read[k], read[k-1])
		}
	}
	if len(read) < 1600 {
		t.Errorf("%d inputs read in 1,800 ticks", len(read))
	}
}

// The same match with the adaptation off (a budget no frame exceeds, and
// no input delay: as the client was, but for the link's limit on its
// predictions) spirals: 20 fps, frame p99 110 ms. The harness shows what
// the test above guards against.
func TestClientSpiralsWithoutBudget(t *testing.T) {
	a, iv, _ := spiralMatch(t, 5*time.Millisecond, func(c *ClientConfig) { c.FrameBudget, c.InputDelay = time.Hour, NoDelay })
	fps, p99 := frameFigures(iv)
	t.Logf("client: fps %.1f, frame p99 %v;%s", fps, p99, a.cl.Report())
	if fps > 40 || p99 < 100*time.Millisecond {
		t.Errorf("client: %.1f fps, frame p99 %v: no spiral", fps, p99)
	}
}

// A client whose ticks cost 5 ms, on a machine whose other processes
// hold its cores for 300 ms every 3 s, its ticks then costing 25 ms: a
// frame then lasts a tick or more, and the loop brings the next one as
// many loop ticks as it lasted. Running a tick for each (at least one a
// loop tick, as it did) made the next frame longer still, a spiral
// while the machine was busy: frame p99 75 ms, 37 frames over 33 ms. It
// runs no tick past its frame's budget but the frame's first, runs those
// it put off when a frame has room, and reads their inputs as their loop
// ticks come, so that they reach the server no later than on a machine
// never busy: no frame over 33 ms, and about as few of its inputs
// replaced by the server for coming late.
func TestClientStallDoesNotSpiral(t *testing.T) {
	calm, _, _, _ := busyMatch(t, 5*time.Millisecond, 0, 0, 0, nil)
	srv, a, iv, _ := busyMatch(t, 5*time.Millisecond, 20*time.Millisecond, 300*time.Millisecond, 3*time.Second, nil)
	fps, p99 := frameFigures(iv)
	long := 0
	for _, d := range iv {
		if d > 33*time.Millisecond {
			long++
		}
	}
	st := a.cl.Stats()
	late, calmLate := srv.srv.Stats().InputsLate, calm.srv.Stats().InputsLate
	t.Logf("client: fps %.1f, frame p99 %v, %d frames over 33 ms;%s", fps, p99, long, a.cl.Report())
	t.Logf("inputs late: %d on the busy machine, %d on a calm one", late, calmLate)
	if fps < 55 || p99 > 25*time.Millisecond || long > 0 {
		t.Errorf("client: %.1f fps, frame p99 %v, %d frames over 33 ms; want at least 55, at most 25 ms and none", fps, p99, long)
	}
	if st.Deferred == 0 {
		t.Error("no tick put off")
	}
	// Ten busy spells, two clients: two inputs more late in each at most
	// (the code before: 419 against 231).
	if late > calmLate+40 {
		t.Errorf("%d inputs late on the busy machine, %d on a calm one: the ticks put off held their inputs back", late, calmLate)
	}
}

// costTestGame is a testGame whose ticks cost time (see costGame), and
// which notes the ticks its Input was called for.
type costTestGame struct {
	*testGame
	clock *fakeClock
	cost  time.Duration
	read  []uint64
}

func (g *costTestGame) Update(t engine.Tick) error {
	g.clock.now += g.cost
	return g.testGame.Update(t)
}

func (g *costTestGame) Input(t engine.Tick, dst []byte) {
	g.read = append(g.read, t.N)
	g.testGame.Input(t, dst)
}

// sessionMatch plays two peers on a 150 ms round trip (75 ms, 5 ms of
// jitter and 5 % loss each way) for 20 s, their ticks costing cost,
// configured by tweak; both must run the same ticks to the same hashes.
func sessionMatch(t *testing.T, cost time.Duration, tweak func(i int, c *SessionConfig)) (*world, []*costTestGame) {
	t.Helper()
	var games []*costTestGame
	w := newWorld(t, worldOpts{players: 2, seed: 5, jitter: true, tweak: tweak, sim: link150,
		wrap: func(i int, g *testGame) engine.Game {
			games = append(games, &costTestGame{testGame: g, cost: cost})
			return games[i]
		}})
	for i, n := range w.nodes {
		games[i].clock = w.clock
		n.intervals = make([]time.Duration, 0, 2048)
	}
	w.runInStep(t, 20*time.Second, 1000)
	return w, games
}

// Two peers whose ticks cost 5 ms each on a 150 ms round trip: with
// the default MaxPrediction (8), a rollback ran 6 and 7 ticks, 35 ms, and
// the frames overran (under 55 fps, frame p99 over 30 ms with the budget
// off). Each predicts no further than a frame can run again and delays
// its input for the other, so both keep 60 fps, each had the same input
// delay, and every final tick has the same hash on both. Every tick's
// input was read once, in order, though the delay grew.
func TestSessionDoesNotSpiral(t *testing.T) {
	w, games := sessionMatch(t, 5*time.Millisecond, nil)
	for i, n := range w.nodes {
		st := n.s.Stats()
		fps, p99 := frameFigures(n.intervals[60:])
		t.Logf("peer %d: fps %.1f, frame p99 %v;%s", i, fps, p99, n.s.Report())
		if fps < 59 || p99 > 20*time.Millisecond {
			t.Errorf("peer %d: %.1f fps, frame p99 %v; want at least 59 and at most 20 ms", i, fps, p99)
		}
		if st.RollbackTicksMax > 1 || st.InputDelay <= DefaultInputDelay || st.InputDelay != w.nodes[0].s.Stats().InputDelay {
			t.Errorf("peer %d: rollbacks %d deep, input delay %d (peer 0: %d); want 1 at most, over %d, the same",
				i, st.RollbackTicksMax, st.InputDelay, w.nodes[0].s.Stats().InputDelay, DefaultInputDelay)
		}
		for k, n := range games[i].read {
			if n != uint64(DefaultInputDelay+k) {
				t.Fatalf("peer %d: input %d read for tick %d, want %d", i, k, n, DefaultInputDelay+k)
			}
		}
	}
	// With the budget off, the same match overruns its frames.
	w, _ = sessionMatch(t, 5*time.Millisecond, func(i int, c *SessionConfig) { c.FrameBudget = time.Hour })
	fps, p99 := frameFigures(w.nodes[0].intervals[60:])
	t.Logf("budget off: fps %.1f, frame p99 %v;%s", fps, p99, w.nodes[0].s.Report())
	if fps > 56 || p99 < 30*time.Millisecond {
		t.Errorf("budget off: %.1f fps, frame p99 %v: the match does not show what the budget is for", fps, p99)
	}
}

// On a 150 ms round trip a client's rollbacks go back as far as its
// link: without an input delay its input reaches the server half a round
// trip and the Lead before it runs the tick, and the final inputs come
// back half a round trip after, so it rolls back the whole round trip
// and the Lead (14 ticks at 180 ms measured, p99 16). Its input delayed
// by half the round trip, its rollbacks are within half the round trip,
// the jitter and the Lead (99 % of them, and a joiner's, whose final
// inputs come in bursts, no deeper than its link either).
func TestClientRollbackAsDeepAsTheLink(t *testing.T) {
	for _, delay := range []int{0, NoDelay} {
		w := newSWorld(t, ServerConfig{Players: 2, EndTick: 3600}, 0, 4)
		tweak := func(c *ClientConfig) { c.InputDelay = delay }
		a := w.join(t, 0, link150, 0, tweak)
		w.join(t, 1, link150, 10*time.Millisecond, tweak)
		w.endsOnServer(t, 90*time.Second)
		st := a.cl.Stats()
		tick := time.Second / 60
		// Half the round trip (as the client measures it), the jitter of
		// a round trip and the Lead, in ticks.
		bound := int((st.RTT/2+2*link150.Jitter)/tick) + DefaultLead
		t.Logf("InputDelay %d: bound %d;%s", delay, bound, a.cl.Report())
		switch {
		case delay == 0 && (st.RollbackP99 > bound || st.RollbackTicksMax > bound+2 || st.InputDelay != int((st.RTT/2+tick-1)/tick)+1):
			t.Errorf("rollback p99 %d, max %d, input delay %d; want at most %d, %d and half the round trip and a tick",
				st.RollbackP99, st.RollbackTicksMax, st.InputDelay, bound, bound+2)
		case delay == NoDelay && (st.RollbackP99 < int(st.RTT/tick)+DefaultLead || st.InputDelay != 0):
			t.Errorf("no input delay: rollback p99 %d, input delay %d; want the round trip and the Lead, %d, and 0",
				st.RollbackP99, st.InputDelay, int(st.RTT/tick)+DefaultLead)
		}
	}
}

// A client that joins a match of a large world allocates nothing per
// frame from the one that loads the state on: not while it catches up,
// saving a state a tick into every slot, rolling back and adapting its
// input delay to a tick that costs 2 ms, nor after.
func TestClientCatchUpZeroAllocs(t *testing.T) {
	w := newSWorld(t, ServerConfig{Players: 2, EndTick: 3600}, 200_000, 3)
	w.join(t, 0, link150, 0, nil)
	w.run(3 * time.Second)
	w.wrapClient = func(i int, g *seatGame) engine.Game {
		return &costGame{seatGame: g, clock: w.clock, cost: 2 * time.Millisecond, read: make([]uint64, 0, 4096)}
	}
	j := w.join(t, 1, link150, 0, nil)
	jframe := func() { // the world up to the joiner's next frame, and that frame
		for f := j.last; j.last == f && w.step(); {
		}
	}
	for !j.cl.Running() {
		jframe()
	}
	jframe() // the frame that loaded it ran the first ticks
	tick, srv := j.cl.Tick(), w.srv.srv.Tick()
	n := allocs(600, jframe)
	w.noErrors(t)
	st := j.cl.Stats()
	t.Logf("%d allocations in 600 frames; from tick %d (the server's %d) on;%s", n, tick, srv, j.cl.Report())
	if n != 0 {
		t.Errorf("%d allocations in 600 frames, want 0", n)
	}
	if srv < tick+20 || st.Catchup == 0 || st.Rollbacks == 0 || st.TickCost != 2*time.Millisecond || st.DelayChanges == 0 {
		t.Errorf("measured from tick %d, the server's %d: no catching up, or %v catch-up, %d rollbacks, tick cost %v, %d delay changes",
			tick, srv, st.Catchup, st.Rollbacks, st.TickCost, st.DelayChanges)
	}
}

// A client's input delay for its round trip and the one its cost adds
// stay within MaxInputDelay together when the round trip grows while the
// client cannot adapt (behind its final inputs, catching up): a client
// on a loaded machine reported 17.
func TestClientDelayWithinMax(t *testing.T) {
	s := &Client{rollback: rollback{ticks: newTickTime(60)}}
	s.rt.rtt = 150 * time.Millisecond
	s.linkDelay()
	s.work.delay = 9 // the cost's
	if d := s.inputDelay(); d != 6+9 {
		t.Fatalf("input delay %d at 150 ms, want 15", d)
	}
	s.rt.rtt = 270 * time.Millisecond
	s.linkDelay()
	if d := s.inputDelay(); s.delay != 10 || d != MaxInputDelay {
		t.Errorf("at 270 ms: input delay %d (%d for the round trip), want %d (10)", d, s.delay, MaxInputDelay)
	}
}

// The account's arithmetic, on made-up numbers: a frame of 12.5 ms and
// ticks of 3 ms.
func TestWorkload(t *testing.T) {
	if maxDepth < MaxClientPrediction || maxDepth < MaxPredictionTicks {
		t.Fatalf("rollbacks counted to a depth of %d: a client predicts up to %d, a peer %d", maxDepth, MaxClientPrediction, MaxPredictionTicks)
	}
	w := workload{budget: frameBudget(0, 60)}
	if w.budget != 12500*time.Microsecond || frameBudget(time.Millisecond, 60) != time.Millisecond {
		t.Fatalf("frame budget %v, want 12.5 ms at 60 TPS and a set budget as set", w.budget)
	}
	if w.limit(40) != 40 || w.room(0) != maxDepth {
		t.Errorf("before a tick was timed: limit %d, room %d; want 40 and %d", w.limit(40), w.room(0), maxDepth)
	}
	w.took(30*time.Millisecond, 10) // a rollback of 10 ticks: 3 ms each
	w.took(3*time.Millisecond, 1)
	if w.cost != 3*time.Millisecond {
		t.Fatalf("cost %v, want 3 ms", w.cost)
	}
	w.took(11*time.Millisecond, 1) // one slow tick moves it an eighth of the way
	if w.cost != 4*time.Millisecond {
		t.Errorf("cost %v after an 11 ms tick, want 4 ms", w.cost)
	}
	// 12.5 ms holds 3 ticks of 4 ms: a rollback of 2 and the next.
	if w.limit(40) != 2 || w.limit(1) != 1 {
		t.Errorf("limit %d (at most 40), %d (at most 1); want 2 and 1", w.limit(40), w.limit(1))
	}
	w.begin(100 * time.Millisecond)
	if w.room(100*time.Millisecond) != 3 || w.room(105*time.Millisecond) != 1 || w.room(113*time.Millisecond) != 0 {
		t.Errorf("room at 0, 5 and 13 ms into the frame: %d, %d, %d; want 3, 1, 0",
			w.room(100*time.Millisecond), w.room(105*time.Millisecond), w.room(113*time.Millisecond))
	}
	if !w.canRerun(112*time.Millisecond, 30) {
		t.Error("the frame's first rollback waits")
	}
	w.rolled(2)
	if w.canRerun(104*time.Millisecond, 3) || !w.canRerun(104*time.Millisecond, 2) {
		t.Error("a second rollback in the frame: 3 ticks run though 2 fit, or 2 wait")
	}
	// A tick after the frame's rollback only while the budget holds one.
	if w.canRun(112*time.Millisecond) || !w.canRun(104*time.Millisecond) {
		t.Error("a tick after the frame's rollback: runs with 0.5 ms left, or waits with 8.5 ms")
	}
	w.end()
	w.update(120 * time.Millisecond) // an Update with no Begin is a frame of its own
	if !w.canRun(130 * time.Millisecond) {
		t.Error("an Update outside a frame: its tick waits for another's")
	}
	// Without a rollback, the frame's first tick runs whatever the time,
	// the next only while the budget holds one.
	w.begin(200 * time.Millisecond)
	if !w.canRun(250 * time.Millisecond) {
		t.Error("the frame's first tick waits")
	}
	w.ran++
	if !w.canRun(204*time.Millisecond) || w.canRun(209*time.Millisecond) {
		t.Error("a second tick: waits with 8.5 ms left, or runs with 3.5 ms")
	}
	w.end()
	w.update(300 * time.Millisecond)
	if !w.canRerun(120*time.Millisecond, 30) {
		t.Error("an Update outside a frame: its rollback waits for another's")
	}
	for d, n := range map[int]int{1: 50, 2: 40, 3: 9, 7: 1} {
		for range n {
			w.rolled(d)
		}
	}
	// 101 rollbacks (the one above, of 2): the 100th deepest is of 3.
	if w.p99() != 3 {
		t.Errorf("p99 %d, want 3", w.p99())
	}
	w.rolled(9)
	if w.p99() != 7 { // 102: the 101st deepest is of 7
		t.Errorf("p99 %d, want 7", w.p99())
	}

	// The delay: up to need at most two ticks a raiseEvery, down a tick
	// once need stayed below it lowerEvery.
	s := time.Second
	steps := []struct {
		at         time.Duration
		need, want int
	}{
		{0, 5, 2}, {s / 4, 5, 2}, {s / 2, 5, 4}, {s, 5, 5}, {2 * s, 5, 5}, {3 * s, 3, 5},
		{4 * s, 3, 4}, {5 * s, 3, 4}, {6 * s, 3, 3}, {7 * s, 9, 5}, {7*s + s/4, 9, 5}, {8 * s, 20, 7},
		{9 * s, -2, 7}, {10 * s, 1, 6}, {11 * s, 7, 7}, {12 * s, 1, 7}, {13 * s, 1, 6},
	}
	for _, c := range steps {
		w.steer(c.at, c.need, 7)
		if w.delay != c.want {
			t.Fatalf("at %v needing %d: delay %d, want %d", c.at, c.need, w.delay, c.want)
		}
	}
	// The role's own delay grew (a client's round trip did): the cost's
	// falls at once to what the role's maximum leaves it.
	if w.steer(13*s+s/10, 7, 3); w.delay != 3 {
		t.Errorf("at most 3: delay %d", w.delay)
	}
}
