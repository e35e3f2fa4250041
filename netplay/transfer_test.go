package netplay

import (
	"testing"
	"time"
)

// sendAll sends every chunk next offers, as a sender's role does, at
// now, and returns them.
func sendAll(x *sender, now, rto time.Duration) []int {
	var out []int
	for i := x.next(0, now, rto, chunkWindow); i >= 0; i = x.next(i+1, now, rto, chunkWindow) {
		x.sent(i, now)
		out = append(out, i)
	}
	return out
}

// A chunk is sent again as soon as an acknowledgement shows that one sent
// reorderWindow after it arrived (TCP's RACK), not a retransmission
// timeout later; one sent in the same burst as those that arrived, or
// later, is not; a chunk acknowledged stays so when an older
// acknowledgement comes after.
func TestSenderResendsOnAGap(t *testing.T) {
	var x sender
	x.start(600, 10*chunkData)
	rto, rtt := 250*time.Millisecond, 180*time.Millisecond
	ms := time.Millisecond
	if got := sendAll(&x, 0, rto); len(got) != 10 {
		t.Fatalf("first burst: %v", got)
	}
	// A tick later: nothing more to send.
	if got := sendAll(&x, 16*ms, rto); len(got) != 0 {
		t.Fatalf("a tick later, with nothing acknowledged: %v sent", got)
	}
	// 0-3 arrived, 4 did not, 5 did: 4 was sent with 5, so it may yet
	// come (reordered).
	if n := x.ack(4, 0b1, nil, 180*ms, rtt); n != 5 || x.have != 4 {
		t.Fatalf("acknowledged %d, have %d; want 5, 4", n, x.have)
	}
	if got := sendAll(&x, 180*ms, rto); len(got) != 0 {
		t.Fatalf("chunk 4, sent with 5, taken lost: %v", got)
	}
	// Later chunks: 4 and 9 sent again (9 was lost too, say) at 196 ms...
	x.sent(4, 196*ms)
	x.sent(9, 196*ms)
	// ... and an acknowledgement of 6 to 8, sent at 0 ms, shows nothing new.
	x.ack(4, 0b1111, nil, 200*ms, rtt)
	if got := sendAll(&x, 200*ms, rto); len(got) != 0 {
		t.Fatalf("after the resends: %v sent", got)
	}
	// Chunk 4's first copy arrives after all, 10 ms after it went again:
	// that tells nothing of when 9's went (either copy may be 4's).
	x.ack(5, 0b1111, nil, 206*ms, rtt)
	if x.last != 0 {
		t.Errorf("the latest sending that arrived: %v, want 0 (chunk 4's resend could not have arrived yet)", x.last)
	}
	// A new state of 100 chunks, in two bursts a tick apart: the second's
	// arrival shows the first's loss at once.
	x.start(700, 100*chunkData)
	for i := range 50 {
		x.sent(i, 0)
	}
	for i := 50; i < 100; i++ {
		x.sent(i, 16*ms)
	}
	var tail [(chunkWindow - 64) / 8]byte
	for i := 75; i < 99; i++ { // the tail goes on from the mask: bit 0 is chunk have+65
		tail[(i-75)/8] |= 1 << ((i - 75) % 8)
	}
	x.ack(10, ^uint64(0)>>24, tail[:3], 190*ms, rtt) // 0-9; 11-50 (the mask); 75-98 (the tail)
	if x.have != 10 || x.count != 10+40+24 {
		t.Fatalf("have %d, %d acknowledged; want 10, 74", x.have, x.count)
	}
	got := sendAll(&x, 190*ms, rto)
	// 10 (first burst, lost: the second's arrived) is sent again; 51-74
	// and 99 are of the second burst, sent with those that arrived.
	if len(got) != 1 || got[0] != 10 {
		t.Errorf("sent again %v, want [10]", got)
	}
	// An older acknowledgement, overtaken, takes nothing back.
	if n := x.ack(3, 0, nil, 200*ms, rtt); n != 74 || x.have != 10 {
		t.Errorf("after an older acknowledgement: %d acknowledged, have %d; want 74, 10", n, x.have)
	}
	// A timeout sends the rest.
	if got := sendAll(&x, 16*ms+rto, rto); len(got) != 25 || got[0] != 51 || got[24] != 99 {
		t.Errorf("after a timeout: %v sent, want 51 to 74 and 99", got)
	}
}

// Once every chunk was sent, the tail probe offers the last ones sent
// within the span that are not acknowledged, newest first, each once,
// an eighth of them at most; never before every chunk was sent.
func TestSenderTailProbe(t *testing.T) {
	var x sender
	x.start(0, 80*chunkData)
	ms := time.Millisecond
	for i := range 79 {
		x.sent(i, time.Duration(i)*ms)
	}
	if i := x.tail(100*ms, 50*ms); i != -1 {
		t.Fatalf("probed %d before the last chunk was sent", i)
	}
	x.sent(79, 79*ms)
	x.ack(0, 0, nil, 100*ms, 0)
	x.mark(77, 100*ms, 0)
	var got []int
	for i := x.tail(100*ms, 50*ms); i >= 0; i = x.tail(100*ms, 50*ms) {
		got = append(got, i)
	}
	want := []int{79, 78, 76, 75, 74, 73, 72, 71, 70} // 10 at most: 80/8, 77 acknowledged
	if len(got) != len(want) {
		t.Fatalf("probed %v, want %v", got, want)
	}
	for k := range want {
		if got[k] != want[k] {
			t.Fatalf("probed %v, want %v", got, want)
		}
	}
	// Within the span only: sent less than 22 ms before.
	x.start(0, 80*chunkData)
	for i := range 80 {
		x.sent(i, time.Duration(i)*ms)
	}
	n := 0
	for i := x.tail(100*ms, 22*ms); i >= 0; i = x.tail(100*ms, 22*ms) {
		n++
	}
	if n != 1 { // chunk 79 only, sent 21 ms before; 78, 22
		t.Errorf("probed %d chunks, want 1 within 22 ms", n)
	}
}
