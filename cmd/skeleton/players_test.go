package main

import (
	"bytes"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// peers starts a four-player match of skeleton processes on a loopback
// address: a host with -players 4 and three -join peers, bots of seeds 1
// to 4, each recording to p1.fxr ... p4.fxr in dir, with args.
func peers(t *testing.T, dir, args string) (cmds []*exec.Cmd, stdouts, stderrs []*bytes.Buffer) {
	t.Helper()
	addr := freeUDP(t)
	for i := range 4 {
		a := fmt.Sprintf("-headless %s -bot %d -record %s", args, i+1, filepath.Join(dir, fmt.Sprintf("p%d.fxr", i+1)))
		if i == 0 {
			a += " -host " + addr + " -players 4"
		} else {
			a += " -join " + addr
		}
		cmd, out, errb := skeleton(t, a)
		cmds, stdouts, stderrs = append(cmds, cmd), append(stdouts, out), append(stderrs, errb)
	}
	return cmds, stdouts, stderrs
}

// TestFourHeadlessBots: four skeleton processes on loopback, one hosting
// -players 4, end a -ticks match on one state hash, and each one's
// recording replays alone to it.
func TestFourHeadlessBots(t *testing.T) {
	dir := t.TempDir()
	cmds, outs, errs := peers(t, dir, "-ticks 180")
	var hashes []string
	for i, cmd := range cmds {
		err := cmd.Wait()
		m := stateHash.FindStringSubmatch(outs[i].String())
		if err != nil || m == nil || !strings.Contains(errs[i].String(), " desyncs=0 ") {
			t.Fatalf("process %d: %v, stdout %q, want state-hash= and desyncs=0:\n%s", i+1, err, outs[i], errs[i])
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
// three others report the vanished peer and exit 3, and each one's
// recording, whose every tick is final, replays to exit 0.
func TestFourPlayersOneKilled(t *testing.T) {
	dir := t.TempDir()
	cmds, _, errs := peers(t, dir, "")
	time.Sleep(2500 * time.Millisecond) // the seating, the handshakes, then a second of play
	cmds[2].Process.Signal(syscall.SIGKILL)
	cmds[2].Wait()
	for i, cmd := range cmds {
		if i == 2 {
			continue
		}
		err := cmd.Wait()
		if code := cmd.ProcessState.ExitCode(); code != 3 || !strings.Contains(errs[i].String(), " disconnected: nothing from ") {
			t.Fatalf("process %d: %v, exit status %d, want 3 and \"disconnected\":\n%s", i+1, err, code, errs[i])
		}
		t.Logf("process %d: %s", i+1, strings.TrimSpace(errs[i].String()))
		cmd, out, stderr := skeleton(t, "-headless -replay "+filepath.Join(dir, fmt.Sprintf("p%d.fxr", i+1)))
		if err := cmd.Wait(); err != nil || !stateHash.MatchString(out.String()) || !strings.Contains(stderr.String(), "state hashes verified") {
			t.Errorf("-replay of process %d's recording: %v, want exit 0 and its state-hash:\n%s%s", i+1, err, out, stderr)
		}
	}
}
