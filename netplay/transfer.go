package netplay

import (
	"bytes"
	"compress/flate"
	"fmt"
	"io"
	"math/bits"
	"time"

	"github.com/fixstep/fixstep/engine"
)

// A state goes in chunks (kind chunk: wire_server.go) from a sender to a
// receiver: a server's to a client that joins or resyncs, a peer-to-peer
// host's to a late spectator. The sender announces it (a welcome, an
// offer: its tick, length and hash) and sends the chunks; the receiver
// acknowledges those it has: how many in order (have), and a bitmap of
// those past them. The sender sends again a chunk that is lost: one sent
// a reordering window before a chunk that arrived (it learns that from
// the first acknowledgement that shows the gap, as TCP's RACK does,
// rather than a timeout later), or one not acknowledged within a
// retransmission timeout (the last ones sent, with none after them to
// show the gap). The roles decide how fast (a server's credit and
// budget, a host's burst); sender and receiver are the one place that
// keeps the chunks' account.

// chunkWindow is how far past the first chunk the receiver lacks a
// sender sends: as far as an acknowledgement describes (a client's
// update is a datagram whose bitmap fills it, past its 64-bit mask:
// 3,648 chunks, 1.7 MB). A lost chunk at the front of the window is sent
// again about a round trip after it was first, and arrives a half round
// trip later, while the window goes on: a server's fastest
// (chunksPerTick) sends some 2,700 on a 151 ms link meanwhile. It was 512
// when a server sent 32 slices a tick.
const chunkWindow = 64 + 8*(MaxPacket-updateHead)

// sender is the sending end of a state's transfer.
type sender struct {
	tick  int             // the state's tick: the state before it
	at    []time.Duration // per chunk: when it was last sent, -1 never
	acked []uint64        // per chunk, a bit: acknowledged, for good
	again []uint64        // per chunk, a bit: sent more than once
	have  int             // the chunks acknowledged in order: the first that is not
	count int             // the chunks acknowledged in all
	last  time.Duration   // the latest sending of a chunk acknowledged, -1 none
	probe int             // the tail probe's cursor: the chunks from it on were probed
}

// start begins sending a state of tick of size bytes.
func (x *sender) start(tick, size int) {
	n := chunks(size)
	if cap(x.at) < n {
		x.at = make([]time.Duration, n)
	}
	if cap(x.acked) < (n+63)/64 {
		x.acked, x.again = make([]uint64, (n+63)/64), make([]uint64, (n+63)/64)
	}
	x.at, x.acked, x.again = x.at[:n], x.acked[:(n+63)/64], x.again[:(n+63)/64]
	for i := range x.at {
		x.at[i] = -1
	}
	clear(x.acked)
	clear(x.again)
	x.tick, x.have, x.count, x.last, x.probe = tick, 0, 0, -1, n
}

// ack takes the receiver's acknowledgement, come at now, a round trip
// of rtt (0: not measured) after the chunks it names were sent: have
// chunks in order, mask the 64 past them (bit d is chunk have+1+d), and
// tail's bytes when it sends them (bit d of byte k is chunk
// have+65+8k+d), as many as the window holds. What it acknowledged
// stays acknowledged: an older acknowledgement, overtaken, takes nothing
// back. It returns how many chunks the receiver has acknowledged in all.
func (x *sender) ack(have int, mask uint64, tail []byte, now, rtt time.Duration) int {
	for i := x.have; i < min(have, len(x.at)); i++ {
		x.mark(i, now, rtt)
	}
	for ; mask != 0; mask &= mask - 1 {
		x.mark(have+1+bits.TrailingZeros64(mask), now, rtt)
	}
	for k, c := range tail[:min(len(tail), (chunkWindow-64)/8)] {
		for ; c != 0; c &= c - 1 {
			x.mark(have+65+8*k+bits.TrailingZeros8(c), now, rtt)
		}
	}
	for x.have < len(x.at) && x.acked[x.have/64]>>(x.have%64)&1 != 0 {
		x.have++
	}
	return x.count
}

// mark takes chunk i as acknowledged at now, and when it was sent as
// the latest sending known to have arrived: for a chunk sent more than
// once, its last sending only if that was long enough ago (three
// quarters of rtt) for the copy that arrived to be that one, as TCP's
// RACK does.
func (x *sender) mark(i int, now, rtt time.Duration) {
	if i < 0 || i >= len(x.at) || x.acked[i/64]>>(i%64)&1 != 0 {
		return
	}
	x.acked[i/64] |= 1 << (i % 64)
	x.count++
	if x.again[i/64]>>(i%64)&1 == 0 || now-x.at[i] >= rtt*3/4 {
		x.last = max(x.last, x.at[i])
	}
}

// sent records that chunk i was sent at now.
func (x *sender) sent(i int, now time.Duration) {
	if x.at[i] >= 0 {
		x.again[i/64] |= 1 << (i % 64)
	}
	x.at[i] = now
}

// allSent reports whether every chunk was sent at least once.
func (x *sender) allSent() bool { return len(x.at) > 0 && x.at[len(x.at)-1] >= 0 }

// done reports whether every chunk arrived.
func (x *sender) done() bool { return x.have >= len(x.at) }

// reorderWindow is how much earlier than a chunk that arrived one must
// have been sent to be taken as lost: the jitter a link may reorder
// datagrams by. Under a 60 TPS tick (a server sends its slices a tick at
// a time), so that the slices of one tick show the losses of the tick
// before.
const reorderWindow = 8 * time.Millisecond

// next returns the first chunk from i on, and within window of the first
// the receiver lacks, that it has not acknowledged and that is not in
// flight: never sent, sent reorderWindow or more before a chunk that
// arrived, or sent rto or longer ago; -1 when there is none.
func (x *sender) next(i int, now, rto time.Duration, window int) int {
	for i = max(i, x.have); i < len(x.at) && i < x.have+window; i++ {
		if x.acked[i/64]>>(i%64)&1 != 0 {
			continue
		}
		if at := x.at[i]; at < 0 || now-at >= rto || at+reorderWindow <= x.last {
			return i
		}
	}
	return -1
}

// tail returns the next chunk to send again before it is known lost,
// or -1: once every chunk was sent, those sent within the last span
// (half a round trip) and not acknowledged, newest first, each once, an
// eighth of the chunks at most. A loss among the last chunks shows only
// a round trip after they went (no chunk sent after them shows it
// sooner); sent again at once, newest first, while the sender has
// nothing else to send, the last of them arrive half a round trip sooner.
func (x *sender) tail(now, span time.Duration) int {
	if !x.allSent() {
		return -1
	}
	for x.probe > max(x.have, len(x.at)-len(x.at)/8) {
		x.probe--
		i := x.probe
		if now-x.at[i] >= span {
			x.probe = x.have // older ones: a chunk sent after them shows their loss
			return -1
		}
		if x.acked[i/64]>>(i%64)&1 == 0 {
			return i
		}
	}
	return -1
}

// Limits of a state being received.
const (
	// maxStatesInRow is how many states a receiver takes in a row, none
	// verified by a matching hash, before its role stops: a server
	// restarts a state only when the client diverged (and drops it after
	// ServerConfig.MaxResyncs) or fell far behind, a host when its
	// spectator fell far behind.
	maxStatesInRow = 8
	// minStateRate is the slowest a state may arrive on average, in bytes
	// a second, past the handshake timeout after it was announced:
	// 16 kB/s (the demo's 300 bodies, 110 kB, in 16.9 s at worst; a
	// server's default TransferRate gives each of 250 joiners at once
	// that much).
	minStateRate = 16 << 10
)

// receiver is the receiving end of a state's transfer: a Client's, a
// late spectator's. Its role checks the announced length against its
// limit before anything is allocated; the receiver takes the chunks in
// any order, says which arrived, and once all did, inflates the state
// when it came compressed, checks its hash and loads it. A sender that
// makes no progress, sends too slowly, or sends state after state with
// none verified is one that does not serve: its receiver's role stops,
// saying so (stalled, again).
type receiver struct {
	tick  int    // the state's tick (the state before it), -1 before the first
	size  int    // its length as sent
	raw   int    // its length inflated; 0: sent as it is
	hash  uint64 // its hash, as announced (inflated)
	buf   []byte // the chunks as they arrive
	state []byte // the state inflated
	got   []bool // the chunks arrived
	have  int    // the chunks arrived in order
	count int    // the chunks arrived, in any order
	top   int    // the last chunk arrived + 1
	on    bool   // a state is coming
	start time.Duration
	at    time.Duration // when the last new chunk came (or the state was announced)
	loads int           // states begun since one was verified
}

// begin starts receiving the state of tick announced at now: size bytes
// as sent, raw inflated (0: not compressed), of hash. The caller has
// checked the sizes against its limit.
func (r *receiver) begin(tick, size, raw int, hash uint64, now time.Duration) {
	r.tick, r.size, r.raw, r.hash = tick, size, raw, hash
	r.start, r.at = now, now
	if cap(r.buf) < size {
		r.buf = make([]byte, size)
	}
	r.buf = r.buf[:size]
	n := chunks(size)
	if cap(r.got) < n {
		r.got = make([]bool, n)
	}
	r.got = r.got[:n]
	clear(r.got)
	r.have, r.count, r.top, r.on = 0, 0, 0, true
}

// again counts one more state begun without one verified, and returns why
// that is too many, or "".
func (r *receiver) again(tick int) string {
	if r.loads++; r.loads > maxStatesInRow {
		return fmt.Sprintf("it sent %d states in a row with none verified (the last of tick %d)", r.loads, tick)
	}
	return ""
}

// verified says a state hash matched: the states so far served.
func (r *receiver) verified() { r.loads = 0 }

// take takes chunk index of the state being received (decodeChunk has
// checked its size), at now, and reports whether it was the last one
// missing. A repeat changes nothing.
func (r *receiver) take(index int, data []byte, now time.Duration) bool {
	if !r.on || r.got[index] {
		return false
	}
	copy(r.buf[index*chunkData:], data)
	r.got[index] = true
	r.count++
	r.top = max(r.top, index+1)
	r.at = now
	for r.have < len(r.got) && r.got[r.have] {
		r.have++
	}
	return r.have == len(r.got)
}

// arrived reports whether chunk i arrived.
func (r *receiver) arrived(i int) bool { return i >= 0 && i < len(r.got) && r.got[i] }

// mask returns the acknowledgement of the 64 chunks past have: bit d is
// chunk have+1+d.
func (r *receiver) mask() uint64 {
	var m uint64
	if r.on {
		for d := range 64 {
			if r.arrived(r.have + 1 + d) {
				m |= 1 << d
			}
		}
	}
	return m
}

// appendTail appends the acknowledgement's bitmap past mask's: bit d of
// byte k is chunk have+65+8k+d, up to the last chunk arrived, at most
// chunkWindow past have.
func (r *receiver) appendTail(dst []byte) []byte {
	if !r.on {
		return dst
	}
	from := r.have + 65
	for k := range (min(r.top-from, chunkWindow-64) + 7) / 8 {
		var c byte
		for d := range 8 {
			if r.arrived(from + 8*k + d) {
				c |= 1 << d
			}
		}
		dst = append(dst, c)
	}
	return dst
}

// load ends the transfer and loads the state into the game: inflated to
// exactly raw bytes when it came compressed, its hash checked first. from
// names the sender in errors ("server 10.0.0.1:7000").
func (r *receiver) load(into engine.Saver, from string) error {
	r.on = false
	st := r.buf
	if r.raw > 0 {
		if cap(r.state) < r.raw {
			r.state = make([]byte, r.raw)
		}
		r.state = r.state[:r.raw]
		zr := flate.NewReader(bytes.NewReader(r.buf))
		_, err := io.ReadFull(zr, r.state)
		var one [1]byte
		if n, _ := zr.Read(one[:]); err == nil && n != 0 {
			err = fmt.Errorf("more than the %d bytes announced", r.raw)
		}
		if err != nil {
			return fmt.Errorf("netplay: the state of tick %d from %s does not inflate: %w", r.tick, from, err)
		}
		st = r.state
	}
	if h := engine.StateHash(st); h != r.hash {
		return fmt.Errorf("netplay: the state of tick %d from %s has hash %016x, not the %016x it announced", r.tick, from, h, r.hash)
	}
	if err := into.Load(st); err != nil {
		return fmt.Errorf("netplay: load the state of tick %d from %s: %w", r.tick, from, err)
	}
	return nil
}

// stalled returns why the state being received shows a sender that does
// not serve, or "": no new chunk for timeout, or, once grace has passed
// since it was announced, slower than minStateRate on average (a state
// of n bytes may take grace and a second for each minStateRate bytes,
// however its chunks trickle in).
func (r *receiver) stalled(now, timeout, grace time.Duration) string {
	if !r.on {
		return ""
	}
	if now-r.at > timeout {
		return fmt.Sprintf("it sent no new slice of its state of tick %d for %v (%d of %d slices arrived)",
			r.tick, (now - r.at).Round(time.Millisecond), r.count, len(r.got))
	}
	if late := now - r.start - grace; late > 0 && int64(r.count)*chunkData < int64(late)*minStateRate/int64(time.Second) {
		return fmt.Sprintf("its state of tick %d (%d bytes) comes slower than %d kB/s: %d of %d slices in %v",
			r.tick, r.size, minStateRate>>10, r.count, len(r.got), (now - r.start).Round(time.Millisecond))
	}
	return ""
}
