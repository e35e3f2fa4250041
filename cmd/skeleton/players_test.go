package main

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fixstep/fixstep/app/apptest"
)

// peers starts a four-player match of skeleton processes on a loopback
// address: a host with -players 4 and three -join peers, bots of seeds 1
// to 4 on 1 to 4 workers, each recording to p1.fxr ... p4.fxr in dir,
// with args.
func peers(t *testing.T, dir, args string) []*apptest.Child {
	t.Helper()
	addr := freeUDP(t)
	var cs []*apptest.Child
	for i := range 4 {
		a := fmt.Sprintf("-headless %s -bot %d -workers %d -record %s", args, i+1, i+1, filepath.Join(dir, fmt.Sprintf("p%d.fxr", i+1)))
		if i == 0 {
			a += " -host " + addr + " -players 4"
		} else {
			a += " -join " + addr
		}
		cs = append(cs, start(t, a))
	}
	return cs
}

// TestFourHeadlessBots: four skeleton processes on loopback, one hosting
// -players 4, each on its own number of workers, end a -ticks match on
// one state hash, and each one's recording replays alone to it.
func TestFourHeadlessBots(t *testing.T) {
	dir := t.TempDir()
	cs := peers(t, dir, "-ticks 180")
	var hashes []string
	for i, c := range cs {
		err := c.Wait()
		m := stateHash.FindStringSubmatch(c.Stdout.String())
		if err != nil || m == nil || !strings.Contains(c.Stderr.String(), " desyncs=0 ") {
			t.Fatalf("process %d: %v, stdout %q, want state-hash= and desyncs=0:\n%s", i+1, err, &c.Stdout, &c.Stderr)
		}
		hashes = append(hashes, m[1])
	}
	for i, h := range hashes {
		if h != hashes[0] {
			t.Errorf("process %d: state-hash=%s, host's %s: one match, two worlds", i+1, h, hashes[0])
		}
	}
	for i := range 4 {
		if got := hashOf(t, "-headless -replay "+filepath.Join(dir, fmt.Sprintf("p%d.fxr", i+1))); got != hashes[0] {
			t.Errorf("-replay p%d.fxr: state-hash=%s, want the match's %s", i+1, got, hashes[0])
		}
	}
}

// TestFourPlayersOneKilled kills a joiner with SIGKILL mid-match: the
// three others agree on the tick from which its seat is empty, play on to
// -ticks and exit 0 on one state hash, each saying who left and when
// (left=N@T, the same on all three), and each one's recording replays
// alone to that hash.
func TestFourPlayersOneKilled(t *testing.T) {
	dir := t.TempDir()
	cs := peers(t, dir, "-ticks 360")
	time.Sleep(2500 * time.Millisecond) // the seating, the handshakes, then a second of play
	cs[2].Cmd.Process.Signal(syscall.SIGKILL)
	cs[2].Wait()
	var hash, left string
	for i, c := range cs {
		if i == 2 {
			continue
		}
		err := c.Wait()
		m := stateHash.FindStringSubmatch(c.Stdout.String())
		l := leftOne.FindStringSubmatch(c.Stderr.String())
		if err != nil || m == nil || l == nil || !strings.Contains(c.Stderr.String(), " desyncs=0 ") {
			t.Fatalf("process %d: %v, stdout %q, want exit 0, state-hash=, desyncs=0 and left=N@T:\n%s", i+1, err, &c.Stdout, &c.Stderr)
		}
		t.Logf("process %d: %s", i+1, strings.TrimSpace(c.Stderr.String()))
		if hash == "" {
			hash, left = m[1], l[1]
		}
		if m[1] != hash || l[1] != left {
			t.Errorf("process %d: state-hash=%s left=%s, another's %s and %s: one match, two worlds", i+1, m[1], l[1], hash, left)
		}
	}
	if strings.HasPrefix(left, "1@") {
		t.Errorf("left=%s: the host, player 1, still plays", left)
	}
	for i := range 4 {
		if i == 2 {
			continue
		}
		if got := hashOf(t, "-headless -replay "+filepath.Join(dir, fmt.Sprintf("p%d.fxr", i+1))); got != hash {
			t.Errorf("-replay p%d.fxr: state-hash=%s, want the match's %s", i+1, got, hash)
		}
	}
}

// leftOne finds a stats line's left= of one player: N@T.
var leftOne = regexp.MustCompile(` left=([2-4]@[1-9][0-9]*)\n`)

// TestServerKillAndRejoin: a skeleton -server of 4 seats with -gravity 9
// and three -connect bots started without it, which take the server's
// (and say so); one is killed with SIGKILL and a new one connects in its
// place mid-match. The server frees the seat, the new client loads the
// server's state, and every client still running ends on the server's
// state hash, which the server's recording replays to. A client whose
// command line says -gravity 30 is refused, naming the flag and both
// values.
func TestServerKillAndRejoin(t *testing.T) {
	dir := t.TempDir()
	addr := freeUDP(t)
	rec := filepath.Join(dir, "server.fxr")
	srv := start(t, "-server "+addr+" -players 4 -ticks 420 -gravity 9 -record "+rec)
	var cs []*apptest.Child
	for i := range 3 {
		cs = append(cs, start(t, fmt.Sprintf("-headless -connect %s -bot %d", addr, i+1)))
	}
	other := start(t, "-headless -connect "+addr+" -bot 5 -gravity 30")
	if err := other.Wait(); err == nil || !strings.Contains(other.Stderr.String(), "-gravity 30, but the server "+addr+" has -gravity 9: run with -gravity 9, or without -gravity") {
		t.Errorf("a client of -gravity 30: %v, want it refused naming -gravity 30 and 9:\n%s", err, &other.Stderr)
	}
	time.Sleep(2 * time.Second)
	cs[1].Cmd.Process.Signal(syscall.SIGKILL)
	cs[1].Wait()
	time.Sleep(2500 * time.Millisecond) // the server frees its seat after 2 s of silence
	cs[1] = start(t, "-headless -connect "+addr+" -bot 9")
	if err := srv.Wait(); err != nil {
		t.Fatalf("server: %v\n%s", err, &srv.Stderr)
	}
	want := stateHash.FindStringSubmatch(srv.Stdout.String())
	if want == nil || !strings.Contains(srv.Stderr.String(), " joins=4 leaves=1 ") {
		t.Fatalf("server: stdout %q, want state-hash=, joins=4 leaves=1:\n%s", &srv.Stdout, &srv.Stderr)
	}
	for i, c := range cs {
		err := c.Wait()
		m := stateHash.FindStringSubmatch(c.Stdout.String())
		if err != nil || m == nil || m[1] != want[1] || !strings.Contains(c.Stderr.String(), " desyncs=0 ") ||
			!strings.Contains(c.Stderr.String(), name+": the server's match has -gravity=9 (was 20)") {
			t.Errorf("client %d: %v, stdout %q, want the server's state-hash=%s, desyncs=0 and -gravity=9 taken:\n%s", i+1, err, &c.Stdout, want[1], &c.Stderr)
		}
	}
	if got := hashOf(t, "-headless -replay "+rec); got != want[1] {
		t.Errorf("-replay of the server's recording: state-hash=%s, want %s", got, want[1])
	}
}
