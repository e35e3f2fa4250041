package netplay

import (
	"bytes"
	"testing"
	"time"

	"github.com/fixstep/fixstep/engine"
)

// ownLoads is a test world's game that tells the Loads of bytes its own
// Save returned, where it returned them and unchanged, from the others:
// what a physics.World needs to restore a rollback's state without
// checking it (World.Restore knows its own snapshots by where they lie).
type ownLoads struct {
	simGame
	saved       map[*byte][]byte // a buffer's first byte → what Save wrote there last
	own, others int
}

func newOwnLoads(g simGame) *ownLoads { return &ownLoads{simGame: g, saved: map[*byte][]byte{}} }

func (g *ownLoads) Save(dst []byte) []byte {
	off := len(dst)
	dst = g.simGame.Save(dst)
	if len(dst) > off {
		g.saved[&dst[off]] = append(g.saved[&dst[off]][:0], dst[off:]...)
	}
	return dst
}

func (g *ownLoads) Load(src []byte) error {
	if len(src) > 0 && bytes.Equal(g.saved[&src[0]], src) {
		g.own++
	} else {
		g.others++
	}
	return g.simGame.Load(src)
}

// TestRollbackLoadsItsOwnSave: every rollback, a peer's or a server's
// client's, hands the game's Load the very bytes its Save returned, in
// place (the rollback core's ring): so a physics world restores them
// unchecked. The only other bytes a client loads are the server's states
// (its join, a snap back), which are checked.
func TestRollbackLoadsItsOwnSave(t *testing.T) {
	sim := NetSim{Latency: 40 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.05, Dup: 0.02}
	t.Run("peers", func(t *testing.T) {
		var games [3]*ownLoads
		w := newWorld(t, worldOpts{players: 3, sim: sim, seed: 5, jitter: true,
			wrap: func(i int, g *testGame) engine.Game { games[i] = newOwnLoads(g); return games[i] }})
		w.run(8 * time.Second)
		w.noErrors(t)
		for i, n := range w.nodes {
			st, g := n.s.Stats(), games[i]
			if st.Rollbacks == 0 || uint64(g.own) != st.Rollbacks || g.others != 0 {
				t.Errorf("peer %d: %d rollbacks loaded %d of its own saves and %d other states; want every rollback its own", i, st.Rollbacks, g.own, g.others)
			}
		}
	})
	t.Run("server clients", func(t *testing.T) {
		w := newSWorld(t, ServerConfig{Players: 3}, 0, 6)
		var games [3]*ownLoads
		w.wrapClient = func(i int, g *seatGame) engine.Game { games[i] = newOwnLoads(g); return games[i] }
		nodes := []*snode{w.join(t, 0, sim, 0, nil), w.join(t, 1, sim, 0, nil), w.join(t, 2, sim, 2*time.Second, nil)}
		w.run(8 * time.Second)
		for i, n := range nodes {
			st, g := n.cl.Stats(), games[i]
			if st.Rollbacks == 0 || uint64(g.own) != st.Rollbacks || uint64(g.others) != 1+st.Resyncs {
				t.Errorf("client %d: %d rollbacks and %d resyncs loaded %d of its own saves and %d other states; want every rollback its own, the join and each resync another",
					i, st.Rollbacks, st.Resyncs, g.own, g.others)
			}
		}
	})
}
