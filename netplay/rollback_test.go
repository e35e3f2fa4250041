package netplay

import (
	"bytes"
	"testing"
)

// growSaver is a game whose saved state grows: size bytes, each its
// tick's, and size grows by grow every save.
type growSaver struct {
	size, grow int
	tick       byte
}

func (g *growSaver) Save(dst []byte) []byte {
	g.size += g.grow
	for range g.size {
		dst = append(dst, g.tick)
	}
	return dst
}

func (g *growSaver) Load([]byte) error { return nil }

// A world's state grows as its bodies come to rest (the demo's by half):
// saved states that outgrow their room make room in all at once, so the
// states a role keeps do not each grow by appends, and each keeps its
// bytes. 43 states (a client's) of 100 kB growing 100 bytes a tick to
// 200 kB: 6 allocations (each of 3 times, the one state's append and the
// room for all) where growing each by itself took 86.
func TestSavedStatesGrowTogether(t *testing.T) {
	g := &growSaver{size: 100_000, grow: 100}
	var st MatchStats
	r := newRollback(nil, 60, nil, 0, &st)
	r.saver = g
	r.setup(2, 1, 64, 43, 0, 0)
	r.reserve(g.size)
	tick := 0
	n := allocs(999, func() {
		g.tick = byte(tick)
		r.save(tick)
		tick++
	})
	t.Logf("%d allocations for 1,000 saves from %d to %d bytes", n, 100_100, g.size)
	if n > 6 {
		t.Errorf("%d allocations, want at most 6", n)
	}
	for f := tick - 43; f < tick; f++ {
		s, ok := r.stateAt(f)
		if !ok || len(s) != 100_000+100*(f+1) || s[0] != byte(f) || !bytes.Equal(s, bytes.Repeat([]byte{byte(f)}, len(s))) {
			t.Fatalf("the state before tick %d: kept %v, %d bytes, want %d of %d", f, ok, len(s), 100_000+100*(f+1), byte(f))
		}
	}
}
