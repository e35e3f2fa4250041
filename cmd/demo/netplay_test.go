package main

import (
	"bytes"
	"net"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fixstep/fixstep/app"
	"github.com/fixstep/fixstep/engine"
	fxreplay "github.com/fixstep/fixstep/replay"
)

// freePort returns a loopback address with a port free now.
func freePort(t *testing.T) string {
	t.Helper()
	c, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Skipf("no loopback UDP: %v", err)
	}
	defer c.Close()
	return c.LocalAddr().String()
}

// field returns the value of key= in a stats line or the state-hash line.
func field(out, key string) string {
	m := regexp.MustCompile(`(?m)(?:^| )` + regexp.QuoteMeta(key) + `=(\S+)`).FindStringSubmatch(out)
	if m == nil {
		return ""
	}
	return m[1]
}

// wait waits for a child demo, at most limit, and returns its exit status.
func wait(t *testing.T, cmd *exec.Cmd, limit time.Duration) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return exitCode(err)
	case <-time.After(limit):
		cmd.Process.Kill()
		<-done
		t.Fatalf("the demo ran past %v", limit)
		return -1
	}
}

// TestNetplayMatch plays two headless demos against each other over
// loopback UDP, the joiner's datagrams through the link simulator (50 ms,
// 10 ms jitter, 5 % loss, 1 % duplication), both players bots, and a
// spectator watching, each stepping its world on its own number of
// workers (1, 4 and 3): all three end at tick 300 on the same state hash,
// without a desync, each having compared state hashes, and each one's
// recording replays alone to that hash (on the machine's cores);
// -compare finds them the same.
func TestNetplayMatch(t *testing.T) {
	addr, dir := freePort(t), t.TempDir()
	host, hostOut := startDemo(t, "-headless", "-ticks", "300", "-host", addr, "-bot", "1", "-record", dir+"/host.fxr", "-workers", "1")
	join, joinOut := startDemo(t, "-headless", "-ticks", "300", "-join", addr, "-bot", "2", "-record", dir+"/join.fxr",
		"-netsim", "latency=50ms,jitter=10ms,loss=0.05,dup=0.01", "-workers", "4")
	spec, specOut := startDemo(t, "-headless", "-ticks", "300", "-spectate", addr, "-record", dir+"/spectator.fxr", "-workers", "3")
	for _, p := range []struct {
		name string
		cmd  *exec.Cmd
		out  *bytes.Buffer
	}{{"host", host, hostOut}, {"join", join, joinOut}, {"spectator", spec, specOut}} {
		if code := wait(t, p.cmd, 60*time.Second); code != 0 {
			t.Fatalf("%s exited %d:\n%s", p.name, code, p.out)
		}
		t.Logf("%s:\n%s", p.name, p.out)
	}
	h, j, s := hostOut.String(), joinOut.String(), specOut.String()
	hash := field(h, "state-hash")
	if hash == "" || field(j, "state-hash") != hash || field(s, "state-hash") != hash {
		t.Fatalf("state hashes %q, %q and %q (the spectator's)", hash, field(j, "state-hash"), field(s, "state-hash"))
	}
	for _, out := range []string{h, j, s} {
		if n := field(out, "hashes_checked"); n == "" || n == "0" {
			t.Errorf("no state hash compared, hashes_checked=%q:\n%s", n, out)
		}
	}
	for _, out := range []string{h, j} {
		if field(out, "ticks") != "300" || field(out, "desyncs") != "0" || field(out, "rtt_ms") == "" ||
			field(out, "rollbacks") == "" || field(out, "rollback_ticks_max") == "" || field(out, "predicted") == "" || field(out, "packets_bad") != "0" {
			t.Errorf("stats line:\n%s", out)
		}
	}
	for _, f := range []string{"host.fxr", "join.fxr", "spectator.fxr"} {
		if out, stderr, err := replay(t, filepath.Join(dir, f)); err != nil || out != "state-hash="+hash+"\n" {
			t.Errorf("-replay %s: %v, stdout %q\n%s", f, err, out, stderr)
		}
	}
	if out, _, err := run(t, "-compare", dir+"/host.fxr", dir+"/join.fxr"); err != nil || !strings.HasPrefix(out, "compare: the same 300 ticks") {
		t.Errorf("-compare: %v\n%s", err, out)
	}
}

// TestNetplayRefusesOtherRules: a joiner with another tick rate is
// refused at the handshake and stops, naming the difference; the host
// counts it and goes on waiting for its peer, until a signal ends it.
func TestNetplayRefusesOtherRules(t *testing.T) {
	addr := freePort(t)
	host, hostOut := startDemo(t, "-headless", "-ticks", "120", "-host", addr, "-bot", "1")
	join, joinOut := startDemo(t, "-headless", "-ticks", "120", "-join", addr, "-bot", "2", "-tps", "30")
	if code := wait(t, join, 30*time.Second); code != 1 || !strings.Contains(joinOut.String(), "tick rate differs: ours 30, theirs 60") {
		t.Errorf("joiner exit %d, want 1 with the tick rates named:\n%s", code, joinOut)
	}
	time.Sleep(300 * time.Millisecond)
	host.Process.Signal(syscall.SIGINT)
	if code := wait(t, host, 10*time.Second); code != 130 || field(hostOut.String(), "refused") == "0" || field(hostOut.String(), "refused") == "" {
		t.Errorf("host exit %d, want 130 after refusing the caller:\n%s", code, hostOut)
	}
	t.Logf("host:\n%s\njoin:\n%s", hostOut, joinOut)
}

// TestNetplayPeerKilled: a joiner killed with kill -9 mid-match is
// reported by the host within the disconnect timeout ("player 2
// disconnected"); the host prints its stats line and exits 3, its
// recording closed, and that recording of a match of 2 players replays.
func TestNetplayPeerKilled(t *testing.T) {
	addr, dir := freePort(t), t.TempDir()
	rec := filepath.Join(dir, "host.fxr")
	host, hostOut := startDemo(t, "-headless", "-ticks", "100000", "-host", addr, "-bot", "1", "-record", rec)
	join, _ := startDemo(t, "-headless", "-ticks", "100000", "-join", addr, "-bot", "2")
	waitForSize(t, rec, 400) // a few chunks: the match is under way
	join.Process.Signal(syscall.SIGKILL)
	join.Wait()
	killed := time.Now()
	code := wait(t, host, 20*time.Second)
	took := time.Since(killed)
	out := hostOut.String()
	t.Logf("host, %v after the kill:\n%s", took, out)
	if code != app.ExitPeerVanished || !strings.Contains(out, "demo: player 2 disconnected") || !strings.Contains(out, "stats frames=") {
		t.Fatalf("host exit %d, want %d with \"player 2 disconnected\" and a stats line", code, app.ExitPeerVanished)
	}
	if took > 4*time.Second {
		t.Errorf("the host took %v to notice, the timeout is 2 s", took)
	}
	if h, err := fxreplay.ReadHeader(rec); err != nil || h.Players != 2 {
		t.Errorf("the host's recording: %+v, %v; want a match of 2 players", h, err)
	}
	if rout, stderr, err := replay(t, rec); err != nil || !strings.HasPrefix(rout, "state-hash=") || !strings.Contains(stderr, " state hashes verified") {
		t.Errorf("-replay of the host's recording: %v, stdout %q\n%s", err, rout, stderr)
	}
}

// TestCompareNamesTheFirstDifference: -compare names the first tick whose
// input differs, and the first state hash that differs under the same
// inputs, and refuses recordings of other runs.
func TestCompareNamesTheFirstDifference(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, params string, input func(n uint64) []byte, state func(n uint64) []byte) string {
		t.Helper()
		path := filepath.Join(dir, name)
		r, err := fxreplay.RecordSession(path, 60, 2, 2, fxreplay.Header{Params: params, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		for n := range uint64(300) {
			if err := r.Confirmed(n, engine.NewInputs(input(n), 2, 0), state(n)); err != nil {
				t.Fatal(err)
			}
		}
		if err := r.Close(nil); err != nil {
			t.Fatal(err)
		}
		return path
	}
	in := func(n uint64) []byte { return []byte{byte(n / 7), 0, byte(n / 11), 1} }
	st := func(n uint64) []byte { return []byte{byte(n)} }
	a := write("a.fxr", "n=1", in, st)
	b := write("b.fxr", "n=1", func(n uint64) []byte {
		x := in(n)
		if n == 137 {
			x[3] = 0
		}
		return x
	}, st)
	c := write("c.fxr", "n=1", in, func(n uint64) []byte {
		if n >= 180 {
			return []byte{0}
		}
		return st(n)
	})
	d := write("d.fxr", "n=2", in, st)
	for _, k := range []struct {
		b, want string
	}{
		{b, "differ first at tick 137: player 2's input is 0c 01 in"},
		{c, "differ first after 180 ticks: the state hash is"},
		{d, "of different runs"},
	} {
		if _, _, err := run(t, "-compare", a, k.b); err == nil || !strings.Contains(err.Error(), k.want) {
			t.Errorf("compare a.fxr %s: %v, want %q", filepath.Base(k.b), err, k.want)
		}
	}
}
