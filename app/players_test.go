package app_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/fixstep/fixstep/app"
	"github.com/fixstep/fixstep/engine"
	"github.com/fixstep/fixstep/netplay"
)

// crowd is a game of up to 4 walkers, one per player: its world is built
// for the run's players (Start), and every player's input moves its own.
type crowd struct {
	started int // the players Start built the world for
	x, v    []int64
}

func (c *crowd) Start(players int) error {
	c.started, c.x, c.v = players, make([]int64, players), make([]int64, players)
	return nil
}

func (c *crowd) Input(t engine.Tick, dst []byte) { dst[0] = 1 }

func (c *crowd) Update(t engine.Tick) error {
	for p := range c.x {
		c.v[p] += int64(int8(t.Input.Player(p)[0])) - 1
		c.x[p] += c.v[p]
	}
	return nil
}

func (c *crowd) Draw(f engine.Frame) {}

func (c *crowd) Save(dst []byte) []byte {
	for p := range c.x {
		dst = binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(dst, uint64(c.x[p])), uint64(c.v[p]))
	}
	return dst
}

func (c *crowd) Load(src []byte) error {
	if len(src) != 16*len(c.x) {
		return fmt.Errorf("crowd: a save of %d players is %d bytes, not %d", len(c.x), 16*len(c.x), len(src))
	}
	for p := range c.x {
		c.x[p], c.v[p] = int64(binary.LittleEndian.Uint64(src[16*p:])), int64(binary.LittleEndian.Uint64(src[16*p+8:]))
	}
	return nil
}

// crowdRun runs a crowd with args in process.
func crowdRun(g *crowd, args ...string) (stdout, stderr string, err error) {
	var o, e bytes.Buffer
	err = app.Run(g, app.Options{Name: "crowd", InputSize: 1, MaxPlayers: netplay.MaxPeers, Bot: bot, Params: "crowd v1",
		Args: args, Stdout: &o, Stderr: &e})
	return o.String(), e.String(), err
}

// TestFourPlayers: a host of -players 4 and three -join peers, each a
// bot of its own seed, and a spectator, on loopback: the joiners learn
// the count from the host before their worlds are built, take seats 2 to
// 4, and all five end at -ticks on one state hash that each recording
// replays to.
func TestFourPlayers(t *testing.T) {
	addr, dir := freeAddr(t), t.TempDir()
	type result struct {
		stdout, stderr string
		err            error
		g              *crowd
	}
	res := make([]result, 5)
	var wg sync.WaitGroup
	for i := range res {
		args := []string{"-headless", "-ticks", "180", "-record", filepath.Join(dir, fmt.Sprintf("p%d.fxr", i))}
		switch i {
		case 0:
			args = append(args, "-bot", "1", "-host", addr, "-players", "4")
		case 4:
			args = append(args, "-spectate", addr, "-players", "4")
		default:
			args = append(args, "-bot", fmt.Sprint(i+1), "-join", addr)
		}
		res[i].g = &crowd{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			res[i].stdout, res[i].stderr, res[i].err = crowdRun(res[i].g, args...)
		}()
	}
	wg.Wait()
	for i, r := range res {
		if r.err != nil || !strings.HasPrefix(r.stdout, "state-hash=") || r.g.started != 4 || !strings.Contains(r.stderr, " desyncs=0 ") {
			t.Fatalf("peer %d: %v, stdout %q, world of %d players, want state-hash= of 4 players, desyncs=0:\n%s", i+1, r.err, r.stdout, r.g.started, r.stderr)
		}
		if r.stdout != res[0].stdout {
			t.Errorf("peer %d: %s, host: %s: one match, two worlds", i+1, r.stdout, res[0].stdout)
		}
	}
	for i := range res {
		rec := filepath.Join(dir, fmt.Sprintf("p%d.fxr", i))
		g := &crowd{}
		out, stderr, err := crowdRun(g, "-headless", "-replay", rec)
		if err != nil || out != res[0].stdout || g.started != 4 {
			t.Errorf("-replay p%d.fxr: %v, %q of %d players, want %q of 4:\n%s", i, err, out, g.started, res[0].stdout, stderr)
		}
	}
}

// freeAddr returns a loopback address with a free UDP port.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Skipf("no loopback UDP: %v", err)
	}
	defer l.Close()
	return l.LocalAddr().String()
}
