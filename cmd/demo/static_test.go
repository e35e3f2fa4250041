package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fixstep/fixstep/app/apptest"
)

// TestStaticBuild builds the demo without cgo (CGO_ENABLED=0 go build
// ./cmd/demo), as a server or a minimal container runs it: a static
// binary with no SDL and no OpenGL (apptest.BuildStatic checks both) that
// runs every headless mode on the same state hashes as the cgo build: the
// README's documented run, a bot recorded and replayed and run under
// -synctest (against this test binary, the cgo build, in process), and a
// netplay match of a static host, joiner and spectator. A window, or the
// sprites benchmark, is refused at once with exit status 1.
func TestStaticBuild(t *testing.T) {
	bin := apptest.BuildStatic(t, ".")
	static := func(args ...string) (stdout, stderr string, code int) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		cmd.Run()
		return o.String(), e.String(), cmd.ProcessState.ExitCode()
	}

	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	claim := regexp.MustCompile(`-headless -ticks 3600 -sim-frame 6\.94ms +# [^\n]*state-hash=([0-9a-f]{16})`).FindSubmatch(readme)
	if claim == nil {
		t.Fatal("README.md does not say which state hash -headless -ticks 3600 prints")
	}
	if out, stderr, code := static("-headless", "-ticks", "3600", "-sim-frame", "6.94ms"); code != 0 || out != "state-hash="+string(claim[1])+"\n" {
		t.Errorf("static -headless -ticks 3600 -sim-frame 6.94ms: exit status %d, stdout %q, want the README's state-hash=%s\n%s", code, out, claim[1], stderr)
	}

	bot := []string{"-headless", "-ticks", "600", "-sim-frame", "16ms", "-bot", "3", "-n", "50"}
	want, stderr, err := run(t, bot...) // the cgo build
	if err != nil || !strings.HasPrefix(want, "state-hash=") {
		t.Fatalf("%q in process: %v, stdout %q\n%s", bot, err, want, stderr)
	}
	rec := filepath.Join(t.TempDir(), "static.fxr")
	for _, args := range [][]string{
		append(bot[:len(bot):len(bot)], "-record", rec),
		{"-headless", "-replay", rec},
		append(bot[:len(bot):len(bot)], "-synctest", "8", "-sim-frame", "7ms"),
	} {
		if out, stderr, code := static(args...); code != 0 || out != want {
			t.Errorf("static %q: exit status %d, stdout %q, want 0 and the cgo build's %q\n%s", args, code, out, want, stderr)
		}
	}

	addr := freePort(t)
	var outs [3]bytes.Buffer
	var cmds [3]*exec.Cmd
	for i, args := range [][]string{{"-host", addr, "-bot", "1"}, {"-join", addr, "-bot", "2"}, {"-spectate", addr}} {
		cmds[i] = exec.Command(bin, append([]string{"-headless", "-ticks", "180"}, args...)...)
		cmds[i].Stdout, cmds[i].Stderr = &outs[i], &outs[i]
		if err := cmds[i].Start(); err != nil {
			t.Fatal(err)
		}
	}
	for i, name := range []string{"host", "join", "spectator"} {
		if code := wait(t, cmds[i], 60*time.Second); code != 0 {
			t.Fatalf("static %s exited %d:\n%s", name, code, &outs[i])
		}
	}
	hash := field(outs[0].String(), "state-hash")
	for i, name := range []string{"host", "join", "spectator"} {
		out := outs[i].String()
		if hash == "" || field(out, "state-hash") != hash || field(out, "desyncs") != "0" || field(out, "hashes_checked") == "0" {
			t.Errorf("static %s: want the host's state-hash=%s, desyncs=0 and hashes compared:\n%s", name, hash, out)
		}
	}

	// The static build serves a match that a static client and this
	// (cgo) build's client play: one world.
	addr = freePort(t)
	var sout, cout bytes.Buffer
	srv := exec.Command(bin, "-server", addr, "-players", "2", "-ticks", "240", "-n", "50")
	srv.Stdout, srv.Stderr = &sout, &sout
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	cl := exec.Command(bin, "-headless", "-connect", addr, "-bot", "1", "-n", "50")
	cl.Stdout, cl.Stderr = &cout, &cout
	if err := cl.Start(); err != nil {
		t.Fatal(err)
	}
	cgoOut, cgoErr, err := run(t, "-headless", "-connect", addr, "-bot", "2", "-n", "50")
	for name, c := range map[string]*exec.Cmd{"server": srv, "client": cl} {
		if code := wait(t, c, 60*time.Second); code != 0 {
			t.Errorf("static %s exited %d:\n%s%s", name, code, &sout, &cout)
		}
	}
	if hash := field(sout.String(), "state-hash"); hash == "" || field(cout.String(), "state-hash") != hash || field(cgoOut, "state-hash") != hash || err != nil {
		t.Errorf("a static -server and static and cgo -connect clients: want one state-hash\nserver:\n%s\nstatic client:\n%s\ncgo client: %v\n%s%s", &sout, &cout, err, cgoOut, cgoErr)
	}

	for _, args := range [][]string{{"-frames", "30"}, {"-replay", rec}} {
		if out, stderr, code := static(args...); code != 1 || out != "" || stderr != "demo: "+apptest.NoWindow+"\n" {
			t.Errorf("static %q: exit status %d, stdout %q, stderr %q: want 1 and only %q", args, code, out, stderr, "demo: "+apptest.NoWindow)
		}
	}
	if out, stderr, code := static("-bench", "sprites", "-n", "10"); code != 1 || out != "" || !strings.Contains(stderr, "this build has no window (built with CGO_ENABLED=0)") {
		t.Errorf("static -bench sprites: exit status %d, stdout %q, stderr %q: want 1 and no window", code, out, stderr)
	}
}
