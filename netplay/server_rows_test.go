package netplay

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// A final row is written as its changes from the row before: a mask, the
// empty seats when they changed, the inputs of the seats that changed.
// Rows read back are the rows written, and a row costs its mask and what
// changed, whatever the seats.
func TestRowsAsChanges(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, players := range []int{1, 2, 7, 8, 9, 31, 32} {
		size := min(4, maxRowInputs(players)/players)
		n := players * size
		rows, empties := make([][]byte, 40), make([]uint32, 40)
		prev := make([]byte, n)
		var prevEmpty uint32
		for i := range rows {
			row := append([]byte(nil), prev...)
			empty := prevEmpty
			if i%9 == 4 {
				empty ^= 1 << rng.IntN(players) // a join or a leave
			}
			for p := range players {
				if rng.IntN(4) == 0 {
					row[p*size+rng.IntN(size)] = byte(rng.Uint32())
				}
				if empty>>p&1 != 0 {
					clear(row[p*size : (p+1)*size]) // an empty seat's input is zero
				}
			}
			rows[i], empties[i], prev, prevEmpty = row, empty, row, empty
		}
		// Written as changes, from zero (a key) for the first.
		var b []byte
		prev, prevEmpty = make([]byte, n), 0
		for i, row := range rows {
			before := len(b)
			var ok bool
			if b, ok = appendRow(b, 1<<20, prev, row, prevEmpty, empties[i], players, size); !ok {
				t.Fatal("a row did not fit a megabyte")
			}
			changed := 0
			for p := range players {
				if string(row[p*size:(p+1)*size]) != string(prev[p*size:(p+1)*size]) {
					changed++
				}
			}
			want := maskLen(players) + changed*size
			if empties[i] != prevEmpty {
				want += 4
			}
			if got := len(b) - before; got != want {
				t.Fatalf("%d players, row %d: %d bytes, want %d (%d seats changed)", players, i, got, want, changed)
			}
			prev, prevEmpty = row, empties[i]
		}
		if err := checkRows(b, len(rows), players, size); err != nil {
			t.Fatalf("%d players: %v", players, err)
		}
		if err := checkRows(b, len(rows)-1, players, size); err != errLength {
			t.Errorf("%d players, one row fewer: %v, want errLength", players, err)
		}
		row, empty := make([]byte, n), uint32(0)
		for i := range rows {
			b = readRow(b, row, &empty, players, size)
			if string(row) != string(rows[i]) || empty != empties[i] {
				t.Fatalf("%d players, row %d: read %x empty %x, wrote %x empty %x", players, i, row, empty, rows[i], empties[i])
			}
		}
		if len(b) != 0 {
			t.Fatalf("%d players: %d bytes left", players, len(b))
		}
	}
	// A row that does not fit is not written.
	row := make([]byte, 64)
	row[0] = 1
	if b, ok := appendRow(make([]byte, 10), 12, make([]byte, 64), row, 0, 0, 32, 2); ok || len(b) != 10 {
		t.Errorf("a 7-byte row put in 2 bytes: %v, %d bytes", ok, len(b))
	}
}

// checkRows refuses a mask bit past the seats, an empty seat past them,
// and rows shorter or longer than their masks say.
func TestCheckRowsRefuses(t *testing.T) {
	for _, c := range []struct {
		name           string
		b              []byte
		count, players int
		want           error
	}{
		{"a mask bit past the seats", []byte{0b1000}, 1, 2, errField},
		{"the empty seats past the seats", []byte{0b100, 4, 0, 0, 0}, 1, 2, errField},
		{"no empty seats after their bit", []byte{0b100, 1}, 1, 2, errLength},
		{"no input after its seat's bit", []byte{0b10, 5}, 1, 2, errLength},
		{"no mask", []byte{0b1, 5, 6}, 2, 2, errLength},
		{"a byte left over", []byte{0b1, 5, 6, 0}, 1, 2, errLength},
		{"32 seats and the empty ones", []byte{0, 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff}, 1, 32, nil},
		{"32 seats, a bit past them", []byte{0, 0, 0, 0, 2}, 1, 32, errField},
	} {
		if err := checkRows(c.b, c.count, c.players, 2); err != c.want {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
}

// A server whose every seat's input of a tick would not fit one datagram
// is refused, naming InputSize.
func TestServerConfigRowFits(t *testing.T) {
	if _, err := (ServerConfig{Players: 32, InputSize: 13}).withDefaults(); err != nil {
		t.Errorf("32 players of 13 bytes: %v", err)
	}
	_, err := (ServerConfig{Players: 32, InputSize: 14}).withDefaults()
	if err == nil || !strings.Contains(err.Error(), "ServerConfig.InputSize = 14") || !strings.Contains(err.Error(), "at most 13 bytes each") {
		t.Errorf("32 players of 14 bytes: %v", err)
	}
}

// A client takes a final datagram's rows only from a row it holds: one
// whose first row follows a row it lacks is counted stale, and nothing
// of it is kept; a key (from zero inputs) it takes whole.
func TestFinalRowsNeedTheRowBefore(t *testing.T) {
	w := newSWorld(t, ServerConfig{Players: 2}, 0, 14)
	a := w.join(t, 0, NetSim{}, 0, nil)
	w.run(time.Second)
	if !a.cl.Running() {
		t.Fatal("the client did not start")
	}
	toClient := w.net.Listen(serverAddr)
	start := w.srv.srv.tick + 100 // a tick the server has not run: no row before it was sent
	final := func(flags uint8) []byte {
		p := sPacket{token: a.cl.nonce, tick: uint32(start), flags: flags, players: 2, isize: 2, ack: 0, start: uint32(start), count: 2}
		// Seat 0 plays 1,2 then 3,2.
		return append(p.appendFinalHead(nil), 0b01, 1, 2, 0b01, 3, 2)
	}
	stale := a.cl.stats.PacketsStale
	toClient.WriteTo(final(0), clientAddr(0))
	a.cl.poll(w.clock.now)
	if a.cl.stats.PacketsStale != stale+1 || a.cl.rowTick[start%clientRing] == start {
		t.Fatalf("rows from a row the client lacks: %d stale, row kept %v; want 1, false", a.cl.stats.PacketsStale-stale, a.cl.rowTick[start%clientRing] == start)
	}
	toClient.WriteTo(final(finalKey), clientAddr(0))
	a.cl.poll(w.clock.now)
	if a.cl.stats.PacketsStale != stale+1 || a.cl.rowTick[(start+1)%clientRing] != start+1 {
		t.Fatalf("a key: %d stale, row kept %v; want none stale, the rows kept", a.cl.stats.PacketsStale-stale-1, a.cl.rowTick[(start+1)%clientRing] == start+1)
	}
	if got := string(a.cl.row(a.cl.rows, start+1)); got != "\x03\x02\x00\x00" {
		t.Errorf("the key's second row: %x, want 03020000", got)
	}
}

// The final inputs' downstream to a client stays under 64 kbit/s at 32
// seats on links of 66 to 201 ms (88 to 138 when every datagram carried
// every seat's input, and sent one a tick on a long link): inputs go as
// changes, and only the rows not sent yet set how often.
func TestDownstreamFlatInSeats(t *testing.T) {
	kbps := func(players int, sim NetSim) float64 {
		w := newSWorld(t, ServerConfig{Players: players, EndTick: 600}, 0, 21)
		for i := range players {
			w.join(t, i, sim, time.Duration(i)*10*time.Millisecond, nil)
		}
		w.endsOnServer(t, 30*time.Second)
		return w.srv.srv.Stats().DownKbpsPerClient(60)
	}
	for _, p := range serverProfiles {
		few, many := kbps(4, p.sim), kbps(32, p.sim)
		t.Logf("%s: %.1f kbit/s per client at 4 seats, %.1f at 32", p.name, few, many)
		if many > 64 {
			t.Errorf("%s: %.1f kbit/s per client at 32 seats, want at most 64", p.name, many)
		}
	}
}

// Final datagrams lost in a row (the link down for 600 ms, 32 seats)
// cost a retransmission timeout, not a storm: the client, whose later
// datagrams follow rows it lacks, gets every row again from the first it
// lacks, in datagrams that follow each other (more than one holds), catches up, and ends on the
// server's hash; the server sends it no more datagrams over the next
// second than over a second without loss.
func TestFinalRowsAfterBurstLoss(t *testing.T) {
	link := NetSim{Latency: 75500 * time.Microsecond}
	w := newSWorld(t, ServerConfig{Players: 32, EndTick: 900}, 0, 15)
	var cs []*snode
	for i := range 32 {
		cs = append(cs, w.join(t, i, link, 0, nil))
	}
	w.run(5 * time.Second)
	a := cs[0]
	down := w.links.to[clientAddr(0)]
	count := func(d time.Duration) uint64 { // the datagrams the client received
		before := a.cl.stats.PacketsIn
		w.run(d)
		return a.cl.stats.PacketsIn - before
	}
	normal := count(time.Second)
	stale := a.cl.stats.PacketsStale
	down.sim.Loss = 1 // the link down
	w.run(600 * time.Millisecond)
	down.sim.Loss = 0
	lost, at := w.srv.srv.tick, w.clock.now // the rows before it lost, some of them
	for w.clock.now < at+5*time.Second && a.cl.confirmed() < lost {
		w.step()
	}
	took := w.clock.now - at
	after := count(time.Second)
	behind := w.srv.srv.tick - a.cl.confirmed()
	t.Logf("datagrams in a second: %d, and %d after the loss (%d stale); the lost rows were all in %v; %d ticks behind the server a second later", normal, after, a.cl.stats.PacketsStale-stale, took, behind)
	// The rows come again a timeout after the last acknowledged moved,
	// and a one-way trip later.
	if rto := w.srv.srv.clients[0].rt.timeout(0); took > rto+link.Latency+40*time.Millisecond {
		t.Errorf("the lost rows took %v to come again; want a timeout (%v) and a one-way trip", took, rto)
	}
	if a.cl.stats.PacketsStale == stale {
		t.Errorf("no datagram counted stale: the loss did not break the rows' chain as meant")
	}
	if after > normal*5/4 {
		t.Errorf("%d datagrams in the second after the loss, %d in one without", after, normal)
	}
	if behind > 15 {
		t.Errorf("the client's rows %d ticks behind the server's a second after the loss", behind)
	}
	w.endsOnServer(t, 20*time.Second)
}
