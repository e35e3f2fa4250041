package apptest

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"testing"
)

func TestMain(m *testing.M) { RunMain(m, "fake", fakeMain) }

// fakeMain is the program the tests run as a child: "echo" prints its
// os.Args and what it sees of the environment as JSON; "fail CODE TEXT"
// prints TEXT on stderr and exits with status CODE.
func fakeMain() {
	switch os.Args[1] {
	case "echo":
		_, child := os.LookupEnv(argsEnv)
		json.NewEncoder(os.Stdout).Encode(echo{Args: os.Args, Driver: os.Getenv("SDL_VIDEODRIVER"), Child: child})
	case "fail":
		code, _ := strconv.Atoi(os.Args[2])
		fmt.Fprintln(os.Stderr, os.Args[3])
		os.Exit(code)
	}
}

type echo struct {
	Args   []string
	Driver string
	Child  bool // the child's environment still marks it one
}

// TestRunPassesArgs: the child's main gets every argument as it was given,
// spaces and quotes included, after the program's name, under SDL's
// offscreen driver, and without the mark that made it a child.
func TestRunPassesArgs(t *testing.T) {
	t.Setenv("SDL_VIDEODRIVER", "")
	args := []string{"echo", "-record", "my run.fxr", `-params "a b"`, ""}
	stdout, stderr := Run(t, args...)
	var got echo
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("stdout %q, stderr %q: %v", stdout, stderr, err)
	}
	if want := append([]string{"fake"}, args...); !slices.Equal(got.Args, want) {
		t.Errorf("os.Args = %q, want %q", got.Args, want)
	}
	if got.Driver != "offscreen" || got.Child {
		t.Errorf("SDL_VIDEODRIVER=%q, child mark kept: %v; want offscreen, false", got.Driver, got.Child)
	}
	t.Setenv("SDL_VIDEODRIVER", "x11")
	stdout, _ = Run(t, "echo")
	if err := json.Unmarshal([]byte(stdout), &got); err != nil || got.Driver != "x11" {
		t.Errorf("SDL_VIDEODRIVER=x11 in the test: the child has %q (%v)", got.Driver, err)
	}
}

// TestStartKeepsTheExitStatus: a child's status and its stderr come back
// through Wait and Child.Stderr.
func TestStartKeepsTheExitStatus(t *testing.T) {
	c := Start(t, "fail", "3", "boom")
	var ee *exec.ExitError
	if err := c.Wait(); !errors.As(err, &ee) || ee.ExitCode() != 3 || c.Stderr.String() != "boom\n" || c.Stdout.Len() != 0 {
		t.Errorf("Wait = %v, stderr %q, stdout %q; want exit status 3 and \"boom\"", err, &c.Stderr, &c.Stdout)
	}
}

// tb records what a test would have done: Skipf and Fatalf return here.
type tb struct {
	testing.TB
	skipped, failed string
}

func (t *tb) Helper()                           {}
func (t *tb) Skipf(format string, args ...any)  { t.skipped = fmt.Sprintf(format, args...) }
func (t *tb) Fatalf(format string, args ...any) { t.failed = fmt.Sprintf(format, args...) }

// TestSkipWithoutGL: gfx's no-display and no-context errors skip a test,
// or fail it under CI=true; other failures are left to the caller, and a
// child that failed for another reason fails Run's test.
func TestSkipWithoutGL(t *testing.T) {
	noDisplay := "gfx: no display: SDL video init failed: No available video device (set DISPLAY ...)"
	for _, c := range []struct {
		ci, out    string
		skip, fail bool
	}{
		{"", noDisplay, true, false},
		{"", "mygame: gfx: create an OpenGL 3.3 core context (video driver x11): GLXBadFBConfig", true, false},
		{"true", noDisplay, false, true},
		{"", "gfx: WindowConfig size 0x0: must be positive", false, false},
		{"true", "panic: boom", false, false},
	} {
		t.Setenv("CI", c.ci)
		r := &tb{TB: t}
		SkipWithoutGL(r, c.out)
		if (r.skipped != "") != c.skip || (r.failed != "") != c.fail {
			t.Errorf("CI=%q, %q: skipped %q, failed %q; want skip %v, fail %v", c.ci, c.out, r.skipped, r.failed, c.skip, c.fail)
		}
	}
	t.Setenv("CI", "")
	r := &tb{TB: t}
	Run(r, "fail", "1", noDisplay)
	if r.skipped == "" {
		t.Errorf("a child without a display: not skipped (failed %q)", r.failed)
	}
	r = &tb{TB: t}
	Run(r, "fail", "1", "mygame: -frames: bad value")
	if r.skipped != "" || r.failed == "" {
		t.Errorf("a child that failed on a flag: skipped %q, failed %q; want a failure", r.skipped, r.failed)
	}
}
