package netplay

import "time"

// roundTrip measures the round trip to the other end of a link, from the
// clock readings its datagrams carry (a peer's input, a client's update,
// a server's final): each end sends its clock (us), keeps the newest
// reading the other sent, and echoes it back with how long it held it;
// the echo that comes back, less the hold, is a round trip. Every role
// keeps one per link.
type roundTrip struct {
	rtt  time.Duration // smoothed (1/8 of each sample), 0 until measured
	ts   uint32        // the newest clock reading the other end sent, µs
	tsAt time.Duration // when it came
	tsOK bool
}

// us returns d in whole µs, wrapping: the wire's clock.
func us(d time.Duration) uint32 { return uint32(d / time.Microsecond) }

// heard keeps ts, the other end's clock reading that came at now, if it
// is the first or newer than the last, and reports whether it was.
func (r *roundTrip) heard(ts uint32, now time.Duration) bool {
	if r.tsOK && int32(ts-r.ts) <= 0 {
		return false
	}
	r.ts, r.tsAt, r.tsOK = ts, now, true
	return true
}

// echo returns the reading to echo at now and how long it was held, or
// false before one came.
func (r *roundTrip) echo(now time.Duration) (ts, hold uint32, ok bool) {
	return r.ts, us(now - r.tsAt), r.tsOK
}

// measure takes the echo of our clock reading echo, held hold µs by the
// other end, that came back at now. A sample that is negative or over
// 10 s (a forged or mangled echo) is dropped; the first is taken whole,
// and is at least 1 ns, so a measured link never reads as unmeasured.
func (r *roundTrip) measure(now time.Duration, echo, hold uint32) {
	d := time.Duration(int32(us(now)-echo-hold)) * time.Microsecond
	if d < 0 || d >= 10*time.Second {
		return
	}
	if r.rtt == 0 {
		r.rtt = max(d, 1)
	} else {
		r.rtt += (d - r.rtt) / 8
	}
}

// timeout returns the retransmission timeout: a round trip, a quarter
// more and 20 ms, or unmeasured until the first sample.
func (r *roundTrip) timeout(unmeasured time.Duration) time.Duration {
	if r.rtt == 0 {
		return unmeasured
	}
	return r.rtt + r.rtt/4 + 20*time.Millisecond
}
