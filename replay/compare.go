package replay

import (
	"errors"
	"fmt"
	"io"
	"math/bits"
	"os"
)

// Compare reads two recordings of one run side by side (a netplay
// match's, one from each peer; or a run and its re-recording) and names
// the first tick at which they differ: a player's seat (empty in one,
// occupied in the other), a player's input, or the state hash after it. It returns what the two hold in common, "the same 300
// ticks and 5 state hashes", when nothing differs; an error names the
// first difference, or a recording that cannot be read or is of another
// run (tick rate, players, input size, parameters or seed). A recording
// cut short (a killed run) is compared for the ticks both hold.
func Compare(pathA, pathB string) (string, error) {
	var rs [2]*tickReader
	for i, p := range []string{pathA, pathB} {
		r, err := openTicks(p)
		if err != nil {
			return "", err
		}
		defer r.f.Close()
		rs[i] = r
	}
	a, b := rs[0], rs[1]
	ha, hb := a.rr.Header, b.rr.Header
	if ha.TPS != hb.TPS || ha.InputSize != hb.InputSize || ha.Players != hb.Players || ha.Params != hb.Params || ha.Seed != hb.Seed {
		return "", fmt.Errorf("replay: compare: the recordings are of different runs: %s has %d TPS, %d players of %d bytes, seed %d, %q; %s has %d TPS, %d players of %d bytes, seed %d, %q",
			pathA, ha.TPS, ha.Players, ha.InputSize, ha.Seed, ha.Params, pathB, hb.TPS, hb.Players, hb.InputSize, hb.Seed, hb.Params)
	}
	size := int(ha.InputSize)
	for n := uint64(0); ; n++ {
		okA, errA := a.next()
		okB, errB := b.next()
		if err := errors.Join(errA, errB); err != nil {
			return "", err
		}
		if !okA || !okB {
			if !okA && !okB {
				if err := sameHash(a, b, n); err != nil {
					return "", err
				}
				return fmt.Sprintf("the same %d ticks and %d state hashes", n, a.hashes), nil
			}
			return fmt.Sprintf("the same for the %d ticks both hold (%s holds %d, %s %d), and %d state hashes",
				n, pathA, n+a.rest(), pathB, n+b.rest(), a.hashes), nil
		}
		// The hash of the state after n ticks is in the chunk of tick n.
		if err := sameHash(a, b, n); err != nil {
			return "", err
		}
		if d := a.empty ^ b.empty; d != 0 {
			p := bits.TrailingZeros32(d)
			state := [2]string{"occupied", "empty"}
			return "", fmt.Errorf("replay: compare: the recordings differ first at tick %d: player %d's seat is %s in %s, %s in %s", n, p+1, state[a.empty>>p&1], pathA, state[b.empty>>p&1], pathB)
		}
		for p := range int(ha.Players) {
			x, y := a.tick[p*size:(p+1)*size], b.tick[p*size:(p+1)*size]
			if string(x) != string(y) {
				return "", fmt.Errorf("replay: compare: the recordings differ first at tick %d: player %d's input is % x in %s, % x in %s", n, p+1, x, pathA, y, pathB)
			}
		}
	}
}

// sameHash compares the state hashes a and b hold for the state after n
// ticks, where both hold one.
func sameHash(a, b *tickReader, n uint64) error {
	want, ok := a.hashAt(n)
	if !ok {
		return nil
	}
	if got, ok := b.hashAt(n); ok && got != want {
		return fmt.Errorf("replay: compare: the recordings differ first after %d ticks: the state hash is %016x in %s, %016x in %s (the same inputs: the simulations differ)", n, want, a.path, got, b.path)
	}
	return nil
}

// tickReader reads a recording a tick at a time, for Compare.
type tickReader struct {
	path    string
	f       *os.File
	rr      *reader
	dec     inputDecoder
	tick    []byte     // the last tick's inputs
	empty   uint32     // the last tick's empty seats
	pending []tickHash // hashes of the chunks read, not yet passed
	hashes  int        // hashes compared
	read    uint64     // ticks read
	done    bool
}

func openTicks(path string) (*tickReader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("replay: compare: %w", err)
	}
	rr, err := newReader(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("replay: compare %s: %w", path, err)
	}
	return &tickReader{path: path, f: f, rr: rr, tick: make([]byte, int(rr.Header.InputSize)*int(rr.Header.Players))}, nil
}

// next reads the next tick's inputs into r.tick; false at the end.
func (r *tickReader) next() (bool, error) {
	for r.dec.Left() == 0 {
		if r.done {
			return false, nil
		}
		c, err := r.rr.Next()
		switch {
		case err == io.EOF || errors.Is(err, ErrTruncated):
			r.done = true
			return false, nil
		case err != nil:
			return false, fmt.Errorf("replay: compare %s: %w", r.path, err)
		}
		r.dec.Reset(c, r.rr.Header)
		// Hashes not yet reached stay: the one after a chunk's last tick
		// may be in it or in the next.
		kept := r.pending[:0]
		for _, h := range r.pending {
			if h.Tick >= r.read {
				kept = append(kept, h)
			}
		}
		r.pending = append(kept, c.Hashes...)
	}
	empty, err := r.dec.Next(r.tick)
	if err != nil {
		return false, fmt.Errorf("replay: compare %s: %w", r.path, err)
	}
	r.empty = empty
	r.read++
	return true, nil
}

// hashAt returns the state hash recorded after n ticks, if the chunks read
// have one.
func (r *tickReader) hashAt(n uint64) (uint64, bool) {
	for _, h := range r.pending {
		if h.Tick == n {
			r.hashes++
			return h.Hash, true
		}
	}
	return 0, false
}

// rest counts the ticks left, reading to the end.
func (r *tickReader) rest() uint64 {
	var n uint64
	for {
		ok, err := r.next()
		if !ok || err != nil {
			return n
		}
		n++
	}
}
