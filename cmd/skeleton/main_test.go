package main

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fixstep/fixstep/app/apptest"
)

// TestMain lets a test run the game's main in a child process
// (apptest.Start): SDL must own the main thread, which the test runner
// keeps.
func TestMain(m *testing.M) { apptest.RunMain(m, name, main) }

// run runs the game with args (split at spaces) to its end, in a window
// under SDL's offscreen driver unless args say -headless, and returns its
// stdout and stderr. A windowed run without a GL context skips the test
// (outside CI); another failure fails it.
func run(t *testing.T, args string) (stdout, stderr string) {
	t.Helper()
	return apptest.Run(t, strings.Fields(args)...)
}

// start starts the game in a child process with args (split at spaces),
// headless or under SDL's offscreen driver.
func start(t *testing.T, args string) *apptest.Child {
	t.Helper()
	return apptest.Start(t, strings.Fields(args)...)
}

// TestSkeletonRuns runs the skeleton for 30 frames under SDL's offscreen
// driver, profiles on, saving the last frame, so the template can never rot.
func TestSkeletonRuns(t *testing.T) {
	dir := t.TempDir()
	prof, shot := filepath.Join(dir, "cpu.prof"), filepath.Join(dir, "last.png")
	if _, stderr := run(t, "-frames 30 -screenshot "+shot+" -cpuprofile "+prof); !strings.Contains(stderr, "stats frames=30 ticks=") {
		t.Errorf("no stats line of 30 frames:\n%s", stderr)
	}
	if st, err := os.Stat(prof); err != nil || st.Size() == 0 {
		t.Errorf("CPU profile not flushed at exit: %v", err)
	}
	if png, err := os.ReadFile(shot); err != nil || !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) {
		t.Errorf("-screenshot wrote no PNG: %v", err)
	}
}

// TestSkeletonSyncTest runs the skeleton under -synctest 8: every tick is
// run again after a rollback of 8 ticks, and none differs.
func TestSkeletonSyncTest(t *testing.T) {
	if _, out := run(t, "-frames 90 -synctest 8"); !strings.Contains(out, " synctest=8 synctest_checked=") || strings.Contains(out, "synctest_checked=0\n") {
		t.Errorf("no ticks checked:\n%s", out)
	}
}

// TestSkeletonRecordAndReplay records 150 frames with -record and plays
// them back with -replay: every state hash is verified and the replay
// stops at the recording's last tick, on its own.
func TestSkeletonRecordAndReplay(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.fxr")
	_, out := run(t, "-frames 150 -record "+path)
	var ticks uint64
	if i := strings.Index(out, "recorded "); i < 0 {
		t.Fatalf("-record:\n%s", out)
	} else if _, err := fmt.Sscanf(out[i:], "recorded %d ticks", &ticks); err != nil || ticks < 100 {
		t.Fatalf("-record: %v:\n%s", err, out)
	}
	// A hash each second of game time, and one after the last tick.
	hashes := ticks / 60
	if ticks%60 != 0 {
		hashes++
	}
	_, out = run(t, "-replay "+path)
	if want := fmt.Sprintf("replay: %d ticks, %d state hashes verified", ticks, hashes); !strings.Contains(out, want) {
		t.Errorf("-replay: want %q in\n%s", want, out)
	}
}

// TestSkeletonNetplay runs two skeletons, -host and -join, over loopback
// UDP for 240 frames each: both handshake, play, and end with the
// session's fields on their stats lines. Whoever ends first says goodbye;
// the other stops there too, cleanly.
func TestSkeletonNetplay(t *testing.T) {
	addr, dir := freeUDP(t), t.TempDir()
	host := start(t, "-frames 240 -host "+addr+" -record "+dir+"/host.fxr")
	join := start(t, "-frames 240 -join "+addr+" -netsim latency=20ms,jitter=5ms -record "+dir+"/join.fxr")
	for _, p := range []struct {
		name string
		*apptest.Child
	}{{"host", host}, {"join", join}} {
		err := p.Wait()
		out := p.Stderr.String()
		if err != nil {
			apptest.SkipWithoutGL(t, out)
			t.Errorf("%s: %v\n%s", p.name, err, out)
			continue
		}
		if !strings.Contains(out, "stats frames=") || !strings.Contains(out, " rtt_ms=") || !strings.Contains(out, " desyncs=0 hashes_checked=") || !strings.Contains(out, " packets_bad=0 ") {
			t.Errorf("%s: no netplay stats:\n%s", p.name, out)
		}
		t.Logf("%s:\n%s", p.name, out)
	}
	// Each peer's recording holds both players' inputs: it replays alone.
	for _, name := range []string{"host", "join"} {
		if _, out := run(t, "-replay "+dir+"/"+name+".fxr"); !strings.Contains(out, "state hashes verified") {
			t.Errorf("-replay %s.fxr:\n%s", name, out)
		}
	}
}

// TestBadFlagExitsOne: a flag the game does not have is an error, exit
// status 1 (2 is a panic's); -h prints the usage and exits 0.
func TestBadFlagExitsOne(t *testing.T) {
	for _, c := range []struct {
		args string
		code int
		want string
	}{
		{"-nosuch", 1, "flag provided but not defined: -nosuch"},
		{"-frames x", 1, `invalid value "x" for flag -frames`},
		{"-h", 0, "-synctest"},
	} {
		cmd := apptest.Command(strings.Fields(c.args)...)
		out, _ := cmd.CombinedOutput()
		if code := cmd.ProcessState.ExitCode(); code != c.code || !strings.Contains(string(out), c.want) {
			t.Errorf("%s: exit status %d, want %d, with %q in:\n%s", c.args, code, c.code, c.want, out)
		}
	}
}

var stateHash = regexp.MustCompile(`^state-hash=([0-9a-f]{16})\n$`)

// hashOf runs the skeleton with args to its end and returns the state hash
// it printed, failing the test for any other exit or output.
func hashOf(t *testing.T, args string) string {
	t.Helper()
	c := start(t, args)
	if err := c.Wait(); err != nil {
		t.Fatalf("%s: %v\n%s%s", args, err, &c.Stdout, &c.Stderr)
	}
	m := stateHash.FindStringSubmatch(c.Stdout.String())
	if m == nil {
		t.Fatalf("%s: stdout %q, want state-hash=<16 hex digits>\n%s", args, &c.Stdout, &c.Stderr)
	}
	return m[1]
}

// TestHeadlessModesAgree runs one bot's 240 ticks headless in every
// single-machine mode: at two frame rates, under -synctest 8, recorded,
// and replayed from that recording. All end on one state hash, and the
// bot made the world move (another seed ends elsewhere).
func TestHeadlessModesAgree(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "bot.fxr")
	want := hashOf(t, "-headless -ticks 240 -sim-frame 16ms -bot 7")
	for _, args := range []string{
		"-headless -ticks 240 -sim-frame 7ms -bot 7",
		"-headless -ticks 240 -sim-frame 33ms -bot 7 -synctest 8",
		"-headless -ticks 240 -sim-frame 16ms -bot 7 -record " + rec,
		"-headless -replay " + rec,
	} {
		if got := hashOf(t, args); got != want {
			t.Errorf("%s: state-hash=%s, want %s (the same ticks and inputs at 16 ms frames)", args, got, want)
		}
	}
	if other := hashOf(t, "-headless -ticks 240 -sim-frame 16ms -bot 8"); other == want {
		t.Errorf("-bot 8 ends on -bot 7's state-hash=%s: the bot does not move the world", want)
	}
}

// TestOneWorldOnEveryBuild: a bot's headless run ends on one state hash
// when the game is built for amd64 v1, amd64 v3 and arm64 (under
// qemu-user where the machine cannot run a build): the game's own code
// rounds its products, as cmd/fixvet checks line by line. A line the
// compiler fuses on one build and not another fails here, before it
// fails a match between a PC and a Mac.
func TestOneWorldOnEveryBuild(t *testing.T) {
	apptest.OneWorld(t, ".", strings.Fields("-headless -ticks 600 -sim-frame 16ms -bot 1"))
}

// TestHeadlessNetplay plays a two-bot match on loopback: host and joiner
// end at -ticks on one state hash, exit 0, and each one's recording
// replays alone to that hash.
func TestHeadlessNetplay(t *testing.T) {
	addr, dir := freeUDP(t), t.TempDir()
	host := start(t, "-headless -ticks 180 -host "+addr+" -bot 1 -record "+dir+"/host.fxr")
	join := start(t, "-headless -ticks 180 -join "+addr+" -bot 2 -netsim latency=20ms,jitter=5ms -record "+dir+"/join.fxr")
	var hashes []string
	for _, p := range []struct {
		name string
		*apptest.Child
	}{{"host", host}, {"join", join}} {
		err := p.Wait()
		m := stateHash.FindStringSubmatch(p.Stdout.String())
		if err != nil || m == nil || !strings.Contains(p.Stderr.String(), " desyncs=0 ") {
			t.Fatalf("%s: %v, stdout %q, want state-hash= and desyncs=0:\n%s", p.name, err, &p.Stdout, &p.Stderr)
		}
		hashes = append(hashes, m[1])
	}
	if hashes[0] != hashes[1] {
		t.Errorf("host state-hash=%s, join state-hash=%s: one match, two worlds", hashes[0], hashes[1])
	}
	for _, name := range []string{"host", "join"} {
		if got := hashOf(t, "-headless -replay "+dir+"/"+name+".fxr"); got != hashes[0] {
			t.Errorf("-replay %s.fxr: state-hash=%s, want the match's %s", name, got, hashes[0])
		}
	}
}

// TestPeerVanished kills the joiner with SIGKILL mid-match: the host
// waits out the disconnect timeout, says which peer vanished and exits 3,
// and its recording, whose every tick is final, replays to exit 0.
func TestPeerVanished(t *testing.T) {
	addr, rec := freeUDP(t), filepath.Join(t.TempDir(), "host.fxr")
	host := start(t, "-headless -host "+addr+" -bot 1 -record "+rec)
	join := start(t, "-headless -join "+addr+" -bot 2")
	time.Sleep(1500 * time.Millisecond) // the handshake, then a second of play
	join.Cmd.Process.Signal(syscall.SIGKILL)
	join.Wait()
	err := host.Wait()
	if code := host.Cmd.ProcessState.ExitCode(); code != 3 || !strings.Contains(host.Stderr.String(), name+": player 2 disconnected") {
		t.Fatalf("host: %v, exit status %d, want 3 and \"player 2 disconnected\":\n%s", err, code, &host.Stderr)
	}
	c := start(t, "-headless -replay "+rec)
	if err := c.Wait(); err != nil || !stateHash.MatchString(c.Stdout.String()) || !strings.Contains(c.Stderr.String(), "state hashes verified") {
		t.Errorf("-replay of the host's recording: %v, want exit 0 and its state-hash:\n%s%s", err, &c.Stdout, &c.Stderr)
	}
}

// freeUDP returns a loopback address with a free UDP port.
func freeUDP(t *testing.T) string {
	conn, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Skipf("no loopback UDP: %v", err)
	}
	defer conn.Close()
	return conn.LocalAddr().String()
}

// TestSkeletonZeroGarbage: after the warm-up, a frame allocates nothing
// and the GC never runs, headless on a bot and in a window
// (apptest.NoGarbage says why a run may be made again).
func TestSkeletonZeroGarbage(t *testing.T) {
	for _, args := range []string{"-headless -ticks 600 -sim-frame 16ms -bot 3", "-frames 400 -fps-cap 4000"} {
		apptest.NoGarbage(t, strings.Fields(args)...)
	}
}

// TestStaticBuild builds the game without cgo (CGO_ENABLED=0), as a
// server or a minimal container runs it: a static binary with no SDL and
// no OpenGL that runs every headless mode on the same state hash as this
// (cgo) build, and refuses a windowed run at once, with exit status 1 and
// a message that says why and what to do.
func TestStaticBuild(t *testing.T) {
	bin := apptest.BuildStatic(t, ".")
	static := func(args string) (stdout, stderr string, code int) {
		t.Helper()
		cmd := exec.Command(bin, strings.Fields(args)...)
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		cmd.Run()
		return o.String(), e.String(), cmd.ProcessState.ExitCode()
	}
	rec := filepath.Join(t.TempDir(), "static.fxr")
	want := "state-hash=" + hashOf(t, "-headless -ticks 600 -sim-frame 16ms -bot 5") + "\n"
	for _, args := range []string{
		"-headless -ticks 600 -sim-frame 16ms -bot 5 -record " + rec,
		"-headless -replay " + rec,
		"-headless -ticks 600 -sim-frame 7ms -bot 5 -synctest 8",
	} {
		if out, stderr, code := static(args); code != 0 || out != want {
			t.Errorf("static %s: exit status %d, stdout %q, want 0 and the cgo build's %q\n%s", args, code, out, want, stderr)
		}
	}
	// Netplay, headless: a static host and a static joiner end on one hash.
	addr := freeUDP(t)
	host := exec.Command(bin, strings.Fields("-headless -ticks 120 -host "+addr+" -bot 1")...)
	var hostOut, hostErr bytes.Buffer
	host.Stdout, host.Stderr = &hostOut, &hostErr
	if err := host.Start(); err != nil {
		t.Fatal(err)
	}
	defer host.Process.Kill()
	out, stderr, code := static("-headless -ticks 120 -join " + addr + " -bot 2")
	host.Wait()
	if code != 0 || !stateHash.MatchString(out) || hostOut.String() != out || !strings.Contains(stderr, " desyncs=0 ") {
		t.Errorf("static netplay: join exit status %d, stdout %q, host's %q: want 0 and one state-hash with desyncs=0\n%s\nhost:\n%s", code, out, &hostOut, stderr, &hostErr)
	}
	// A window: refused before anything runs.
	if out, stderr, code := static("-frames 30"); code != 1 || out != "" || stderr != name+": "+apptest.NoWindow+"\n" {
		t.Errorf("static -frames 30: exit status %d, stdout %q, stderr %q: want 1 and only %q", code, out, stderr, name+": "+apptest.NoWindow)
	}
}
