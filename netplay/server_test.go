package netplay

import (
	"errors"
	"testing"
	"time"

	"github.com/fixstep/fixstep/engine"
)

// endsOnServer checks that every client still running ended the match
// with engine.ErrStopped in the server's state.
func (w *sworld) endsOnServer(tb testing.TB) {
	tb.Helper()
	if !errors.Is(w.srv.err, engine.ErrStopped) {
		tb.Fatalf("server: %v, want the end", w.srv.err)
	}
	want := w.srv.g.hash()
	for i, n := range w.nodes[1:] {
		if n.off {
			continue
		}
		if !errors.Is(n.err, engine.ErrStopped) {
			tb.Fatalf("client %d: %v (tick %d, final %d), want the end", i, n.err, n.cl.tick, n.cl.recv)
		}
		if h := n.g.hash(); h != want {
			tb.Fatalf("client %d ended on %016x, the server on %016x", i, h, want)
		}
	}
}

// A server and two clients on a clean link play to the end: both end in
// the server's state, having verified its hashes.
func TestServerTwoClients(t *testing.T) {
	w := newSWorld(t, ServerConfig{Players: 4, EndTick: 600}, 0, 1)
	a := w.join(t, 0, NetSim{Latency: 20 * time.Millisecond}, 0, nil)
	b := w.join(t, 1, NetSim{Latency: 30 * time.Millisecond}, 300*time.Millisecond, nil)
	w.run(20 * time.Second)
	w.noErrors(t)
	w.endsOnServer(t)
	for i, n := range []*snode{a, b} {
		st := n.cl.Stats()
		t.Logf("client %d:%s", i, n.cl.Report())
		if st.Hashes < 5 || st.Desyncs != 0 || st.Seat != i {
			t.Errorf("client %d: %d hashes, %d desyncs, seat %d", i, st.Hashes, st.Desyncs, st.Seat)
		}
	}
	t.Logf("server:%s", w.srv.srv.Report())
}
