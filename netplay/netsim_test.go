package netplay

import (
	"net/netip"
	"strings"
	"testing"
	"time"
)

func TestParseNetSim(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want NetSim
		err  string // a part of the error, "" for none
	}{
		{"", NetSim{}, ""},
		{"latency=50ms,jitter=10ms,loss=0.05,dup=0.01", NetSim{Latency: 50 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.05, Dup: 0.01}, ""},
		{" reorder=0.2 , latency=1s", NetSim{Latency: time.Second, Reorder: 0.2}, ""},
		{"latency=50", NetSim{}, `latency="50"`},
		{"loss=1.5", NetSim{}, `loss="1.5"`},
		{"loss=NaN", NetSim{}, `loss="NaN"`},
		{"jitter=-1ms", NetSim{}, `jitter="-1ms"`},
		{"latency=11s", NetSim{}, `latency="11s"`},
		{"lag=5ms", NetSim{}, `key "lag"`},
		{"latency", NetSim{}, "key=value"},
	} {
		got, err := ParseNetSim(tc.in)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%q: %v", tc.in, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: error %v, want one naming %s", tc.in, err, tc.err)
		case got != tc.want:
			t.Errorf("%q: %+v, want %+v", tc.in, got, tc.want)
		}
		if err == nil {
			back, err := ParseNetSim(got.String())
			if err != nil || back != got {
				t.Errorf("%q: String %q reads back as %+v, %v", tc.in, got.String(), back, err)
			}
		}
	}
}

// The link simulator loses, duplicates and delays as told, delivers in
// order of due time, and repeats itself for a seed.
func TestSimTransport(t *testing.T) {
	run := func(seed uint64) (delays []time.Duration, st SimStats) {
		net := NewMemNet()
		clk := &fakeClock{}
		a, b := addr(0), addr(1)
		sim := NetSim{Latency: 50 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.1, Dup: 0.05}
		tr := NewSimTransport(net.Listen(a), sim, clk, seed)
		dst := net.Listen(b)
		var buf [MaxPacket]byte
		const n = 20000
		for i := range n {
			clk.now = time.Duration(i) * time.Millisecond
			le.PutUint64(buf[:], uint64(clk.now))
			tr.WriteTo(buf[:8], b)
			for {
				k, from, ok := dst.ReadFrom(buf[:])
				if !ok {
					break
				}
				if k != 8 || from != a {
					t.Fatalf("got %d bytes from %v", k, from)
				}
				delays = append(delays, clk.now-time.Duration(le.Uint64(buf[:])))
			}
		}
		return delays, tr.Stats()
	}
	delays, st := run(1)
	t.Logf("%d delivered, %+v", len(delays), st)
	if st.Lost < 1800 || st.Lost > 2200 || st.Dups < 800 || st.Dups > 1000 || st.Overflow != 0 {
		t.Errorf("lost %d, duplicated %d, overflowed %d of 20000", st.Lost, st.Dups, st.Overflow)
	}
	for _, d := range delays {
		if d < 40*time.Millisecond || d > 61*time.Millisecond { // + up to the 1 ms until the next flush
			t.Fatalf("a delay of %v from a 50 ms ± 10 ms link", d)
		}
	}
	again, _ := run(1)
	if len(again) != len(delays) {
		t.Fatal("the same seed gave another run")
	}
	for i := range again {
		if again[i] != delays[i] {
			t.Fatal("the same seed gave another run")
		}
	}
	other, _ := run(2)
	if len(other) == len(delays) {
		t.Error("another seed gave the same count")
	}
}

// The in-memory network drops what overflows a queue, and delivers
// nothing to an address no one listens at.
func TestMemNetBounded(t *testing.T) {
	net := NewMemNet()
	a := net.Listen(addr(0))
	b := net.Listen(addr(1))
	for range queueLen + 10 {
		a.WriteTo([]byte("x"), addr(1))
	}
	a.WriteTo([]byte("x"), netip.MustParseAddrPort("10.9.9.9:1"))
	a.WriteTo(make([]byte, MaxPacket+1), addr(1))
	if b.Dropped() != 11 {
		t.Errorf("%d dropped, want 11", b.Dropped())
	}
	n := 0
	var buf [MaxPacket]byte
	for {
		if _, _, ok := b.ReadFrom(buf[:]); !ok {
			break
		}
		n++
	}
	if n != queueLen {
		t.Errorf("%d delivered, want %d", n, queueLen)
	}
}

// A link holds 1,024 datagrams in flight (a server's fastest transfer on
// a 201 ms link is about 770), delivers each at its delay, and drops
// what is past that.
func TestSimTransportHoldsAThousand(t *testing.T) {
	net := NewMemNet()
	clk := &fakeClock{}
	a, b := addr(0), addr(1)
	tr := NewSimTransport(net.Listen(a), NetSim{Latency: 100 * time.Millisecond, Jitter: 20 * time.Millisecond}, clk, 1)
	dst := net.Listen(b)
	var buf [MaxPacket]byte
	for i := range 1100 {
		clk.now = time.Duration(i) * 50 * time.Microsecond // 55 ms of a transfer at 20,000 datagrams a second
		le.PutUint64(buf[:], uint64(i))
		tr.WriteTo(buf[:8], b)
	}
	if st := tr.Stats(); st.Held != 1024 || st.Overflow != 1100-1024 {
		t.Fatalf("%+v: want 1,024 held and the rest dropped", st)
	}
	// The MemConn's queue takes 512 at a time: read as they come due.
	seen := 0
	for clk.now = 0; clk.now < time.Second; clk.now += time.Millisecond {
		tr.Flush()
		for {
			n, _, ok := dst.ReadFrom(buf[:])
			if !ok {
				break
			}
			i := int(le.Uint64(buf[:n]))
			sent := time.Duration(i) * 50 * time.Microsecond
			if d := clk.now - sent; d < 80*time.Millisecond || d > 121*time.Millisecond {
				t.Fatalf("datagram %d delivered %v after it was sent", i, d)
			}
			seen++
		}
	}
	if seen != 1024 || dst.Dropped() != 0 {
		t.Errorf("%d delivered, %d dropped by the queue; want 1,024, none", seen, dst.Dropped())
	}
}
