package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fixstep/fixstep/app"
	"github.com/fixstep/fixstep/engine"
)

// startDemo starts the demo's main in a child process under SDL's
// offscreen driver, with its output in the returned buffer.
func startDemo(t *testing.T, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "SDL_VIDEODRIVER=offscreen", "FIXSTEP_DEMO_MAIN=1", "FIXSTEP_DEMO_ARGS="+strings.Join(args, " "))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &out
}

// waitForSize waits until path holds at least n bytes: the run is under way
// and has written that much of its recording.
func waitForSize(t *testing.T, path string, n int64) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if fi, err := os.Stat(path); err == nil && fi.Size() >= n {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%s never reached %d bytes", path, n)
}

func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err == nil {
		return 0
	}
	return -1
}

// TestSignalsEndTheRunCleanly sends SIGINT, SIGTERM and SIGHUP to a
// recording, profiling demo: each ends the run through the same path as
// the close button, with exit status 128+n, the stats line, every GL
// object deleted, a CPU profile pprof reads, and a recording that replays.
func TestSignalsEndTheRunCleanly(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the demo three times")
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		dir := t.TempDir()
		rec, prof := filepath.Join(dir, "run.fxr"), filepath.Join(dir, "cpu.prof")
		cmd, out := startDemo(t, "-record", rec, "-cpuprofile", prof, "-n", "60")
		waitForSize(t, rec, 150) // the header and the first second's chunk
		cmd.Process.Signal(sig)
		err := cmd.Wait()
		if code := exitCode(err); code != 128+int(sig) {
			t.Errorf("%v: exit status %d, want %d\n%s", sig, code, 128+int(sig), out)
		}
		if !strings.Contains(out.String(), "stats frames=") || !strings.Contains(out.String(), "gl_objects=0") {
			t.Errorf("%v: no stats line with gl_objects=0 in\n%s", sig, out)
		}
		if top, err := exec.Command("go", "tool", "pprof", "-top", os.Args[0], prof).CombinedOutput(); err != nil {
			t.Errorf("%v: pprof cannot read the profile: %v\n%s", sig, err, top)
		}
		if out, stderr, err := replay(t, rec); err != nil || !strings.HasPrefix(out, "state-hash=") || !strings.Contains(stderr, " state hashes verified") {
			t.Errorf("%v: replay of the recording: %v, stdout %q\n%s", sig, err, out, stderr)
		}
	}
}

// TestKill9LeavesAReplayableRecording kills a recording demo outright: the
// file replays up to its last complete chunk and says where it ends.
func TestKill9LeavesAReplayableRecording(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "run.fxr")
	cmd, _ := startDemo(t, "-record", rec, "-n", "60")
	waitForSize(t, rec, 250) // two chunks
	cmd.Process.Kill()
	cmd.Wait()
	out, stderr, err := replay(t, rec)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if !strings.Contains(stderr, ": the rest was not written") || !strings.Contains(stderr, "state hashes verified") || !strings.HasPrefix(out, "state-hash=") {
		t.Errorf("replay of a killed run: stdout %q\n%s", out, stderr)
	}
}

// TestPanicExitsTwoAndLeavesACrashReplay: a panic in Update prints the
// panic with its tick and stack, still closes everything and prints the
// stats line, exits with status 2, writes a readable profile, and the
// recording reproduces it.
func TestPanicExitsTwoAndLeavesACrashReplay(t *testing.T) {
	dir := t.TempDir()
	rec, prof := filepath.Join(dir, "crash.fxr"), filepath.Join(dir, "cpu.prof")
	cmd, out := startDemo(t, "-record", rec, "-cpuprofile", prof, "-n", "60", "-panic-at", "90")
	err := cmd.Wait()
	if code := exitCode(err); code != 2 {
		t.Errorf("exit status %d, want 2", code)
	}
	if !strings.Contains(out.String(), "demo: engine: panic in Update at tick 90: demo: -panic-at 90") ||
		!strings.Contains(out.String(), "goroutine") {
		t.Errorf("output does not show the panic and its stack:\n%s", out)
	}
	if !strings.Contains(out.String(), "stats frames=") || !strings.Contains(out.String(), "gl_objects=0") {
		t.Errorf("no stats line with gl_objects=0 after the panic:\n%s", out)
	}
	if top, err := exec.Command("go", "tool", "pprof", "-top", os.Args[0], prof).CombinedOutput(); err != nil {
		t.Errorf("pprof cannot read the profile: %v\n%s", err, top)
	}
	// Its replay panics again at the same tick, exit status 2, and says
	// it reproduced the recorded crash.
	_, stderr, err := replay(t, rec)
	var pe *engine.PanicError
	if !errors.As(err, &pe) || pe.Tick != 90 || app.ExitCode(err) != 2 || !strings.Contains(stderr, "replay reproduced the recorded crash") {
		t.Errorf("replay of the crash: %v\n%s", err, stderr)
	}
}

// TestUnwritableOutputFailsBeforeTheFirstFrame: an output that cannot be
// written stops the run before it starts, and leaves the others alone.
func TestUnwritableOutputFailsBeforeTheFirstFrame(t *testing.T) {
	dir := t.TempDir()
	ok := filepath.Join(dir, "ok.fxr")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-frames", "60", "-screenshot", "/proc/x.png", "-record", ok}, "-screenshot: open /proc/x.png"},
		{[]string{"-frames", "60", "-record", "/proc/x.fxr"}, "-record: replay: open /proc/x.fxr"},
		{[]string{"-frames", "60", "-memprofile", "/proc/x.prof", "-record", ok}, "-memprofile /proc/x.prof: cannot write there"},
	} {
		out, err := runDemo(t, []string{"SDL_VIDEODRIVER=offscreen"}, c.args...)
		if err == nil || !strings.Contains(out, c.want) {
			t.Errorf("%q: %v\n%s\nwant an error containing %q", c.args, err, out, c.want)
		}
		if strings.Contains(out, "stats frames=") {
			t.Errorf("%q: the run started", c.args)
		}
		if _, err := os.Stat(ok); err == nil {
			t.Errorf("%q: %s was written, though the run never started", c.args, ok)
		}
	}
}

// TestFailedStartKeepsEarlierProfiles: a run that fails before its loop
// starts (here a bindings file that does not parse, read after the
// profiles began) leaves the profiles of an earlier run as they were.
func TestFailedStartKeepsEarlierProfiles(t *testing.T) {
	dir := t.TempDir()
	cpu, mem, bad := filepath.Join(dir, "cpu.prof"), filepath.Join(dir, "mem.prof"), filepath.Join(dir, "bad.bindings")
	for _, p := range []string{cpu, mem} {
		if err := os.WriteFile(p, []byte("earlier run"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(bad, []byte("left = key:NoSuchKey\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := runDemo(t, nil, "-headless", "-ticks", "10", "-bindings", bad, "-cpuprofile", cpu, "-memprofile", mem)
	if err == nil || !strings.Contains(out, "NoSuchKey") {
		t.Fatalf("a bad bindings file: %v\n%s", err, out)
	}
	for _, p := range []string{cpu, mem} {
		if b, err := os.ReadFile(p); err != nil || string(b) != "earlier run" {
			t.Errorf("%s: %.20q, %v; want the earlier run's profile untouched", p, b, err)
		}
	}
}

// TestSignalAtStartEndsCleanly: a SIGTERM in the first milliseconds,
// while the demo still opens its window, is caught (signals are caught
// before main runs) and ends the run as a later one would: status 143, the
// stats line, a closed recording, a profile.
func TestSignalAtStartEndsCleanly(t *testing.T) {
	// Go code can catch nothing before the runtime has started and run the
	// imported packages' init (a few ms, far more under -race on a loaded
	// machine); from then on every moment counts. So the delays count from
	// the child's word that its package variables are set, and signals
	// caught. The demo opens its window for 130 ms and more: these land
	// in it.
	for _, delay := range []time.Duration{0, 50 * time.Millisecond, 100 * time.Millisecond, 150 * time.Millisecond} {
		dir := t.TempDir()
		rec, prof := filepath.Join(dir, "run.fxr"), filepath.Join(dir, "cpu.prof")
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "SDL_VIDEODRIVER=offscreen", "FIXSTEP_DEMO_MAIN=1", "FIXSTEP_DEMO_READY=1",
			"FIXSTEP_DEMO_ARGS=-record "+rec+" -cpuprofile "+prof)
		cmd.ExtraFiles = []*os.File{w}
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		w.Close()
		if _, err := r.Read(make([]byte, 1)); err != nil {
			t.Fatalf("the child never said it started: %v", err)
		}
		r.Close()
		time.Sleep(delay)
		cmd.Process.Signal(syscall.SIGTERM)
		err = cmd.Wait()
		if code := exitCode(err); code != 143 || !strings.Contains(out.String(), "stats frames=") {
			t.Errorf("SIGTERM after %v: status %d, want 143 and the stats line:\n%s", delay, code, out.String())
			continue
		}
		if _, stderr, err := replay(t, rec); err != nil {
			t.Errorf("SIGTERM after %v: the recording does not replay: %v\n%s", delay, err, stderr)
		}
		if st, err := os.Stat(prof); err != nil || st.Size() == 0 {
			t.Errorf("SIGTERM after %v: no CPU profile: %v", delay, err)
		}
	}
}
