// Package apptest is the scaffolding a game's tests share: running the
// game's main in a child process of the test binary (SDL wants the main
// thread, which the test runner keeps), and skipping a test that needs a
// window on a machine without one, except in CI.
//
// A game's main_test.go (the skeleton's, and so every game made by make
// new) starts:
//
//	func TestMain(m *testing.M) { apptest.RunMain(m, "mygame", main) }
//
//	func TestRuns(t *testing.T) {
//		stdout, stderr := apptest.Run(t, "-frames", "30")
//		...
//	}
//
// BuildStatic builds the game without cgo, as a server or a minimal
// container runs it, and checks the binary is static and links neither
// SDL nor OpenGL (CheckStatic); the skeleton's TestStaticBuild runs the
// result headless against the cgo build's state hash. NewAgones starts a
// stand-in for Agones' SDK sidecar, for a test that runs the game's
// -server as an Agones pod does (the skeleton's TestServerUnderAgones).
//
// The package is pure Go and imports only the standard library: a game's
// module, or a test of a package that app imports, can use it.
package apptest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// argsEnv carries a child's arguments, as JSON, from Command to RunMain;
// its presence is what makes a test binary a child.
const argsEnv = "FIXSTEP_APPTEST_ARGS"

// RunMain is a game's TestMain. In a child process that Command, Start or
// Run began, it runs main with the child's arguments (os.Args[0] is name)
// and exits 0 when main returns; main exits itself with any other status.
// Otherwise it runs the tests and exits with their status.
func RunMain(m *testing.M, name string, main func()) {
	enc, child := os.LookupEnv(argsEnv)
	if !child {
		os.Exit(m.Run())
	}
	var args []string
	if err := json.Unmarshal([]byte(enc), &args); err != nil {
		fmt.Fprintf(os.Stderr, "apptest: %s=%q: %v\n", argsEnv, enc, err)
		os.Exit(2)
	}
	os.Unsetenv(argsEnv) // a program the child runs is not a child
	os.Args = append([]string{name}, args...)
	main()
	os.Exit(0)
}

// Command returns a command that runs the test binary's main with args,
// through RunMain, under SDL's offscreen video driver unless
// SDL_VIDEODRIVER names another: a windowed run needs no display server
// (Mesa's llvmpipe draws it). Its Env is set; add to it before starting.
func Command(args ...string) *exec.Cmd {
	enc, err := json.Marshal(append([]string{}, args...))
	if err != nil {
		panic(err) // strings always marshal
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), argsEnv+"="+string(enc))
	if os.Getenv("SDL_VIDEODRIVER") == "" {
		cmd.Env = append(cmd.Env, "SDL_VIDEODRIVER=offscreen")
	}
	return cmd
}

// Child is a game's main running in a child process (Start), its stdout
// and stderr kept apart. Read them after Wait.
type Child struct {
	Cmd            *exec.Cmd
	Stdout, Stderr bytes.Buffer
}

// Start starts the test binary's main with args in a child process (see
// Command); a failure to start fails t. A child still running when the
// test ends is killed then.
func Start(t testing.TB, args ...string) *Child {
	t.Helper()
	c := &Child{Cmd: Command(args...)}
	c.Cmd.Stdout, c.Cmd.Stderr = &c.Stdout, &c.Stderr
	if err := c.Cmd.Start(); err != nil {
		t.Fatalf("apptest: start %q: %v", args, err)
	}
	t.Cleanup(func() {
		if c.Cmd.ProcessState == nil {
			c.Cmd.Process.Kill()
			c.Cmd.Wait()
		}
	})
	return c
}

// Wait waits for the child to exit: nil for exit status 0, an
// *exec.ExitError for another.
func (c *Child) Wait() error { return c.Cmd.Wait() }

// Run runs the test binary's main with args in a child process to its end
// and returns its stdout and stderr. A run that fails is skipped when its
// stderr says there is no GL (SkipWithoutGL), and fails t otherwise.
func Run(t testing.TB, args ...string) (stdout, stderr string) {
	t.Helper()
	c := Start(t, args...)
	if err := c.Wait(); err != nil {
		SkipWithoutGL(t, c.Stderr.String())
		t.Fatalf("%q: %v\n%s%s", args, err, &c.Stdout, &c.Stderr)
	}
	return c.Stdout.String(), c.Stderr.String()
}

// noGL are the starts of package gfx's errors for a machine that gives a
// window no OpenGL 3.3 core context: no video driver or display
// (gfx.ErrNoDisplay), no window, no context, an older GL.
var noGL = []string{
	"gfx: no display",
	"gfx: create window",
	"gfx: create an OpenGL 3.3 core context",
	"gfx: load OpenGL functions",
	"gfx: OpenGL 3.3 core needed",
}

// NoGL reports whether out, an error's text or a program's output, says
// that this machine could not open a window with an OpenGL 3.3 context.
func NoGL(out string) bool {
	for _, s := range noGL {
		if strings.Contains(out, s) {
			return true
		}
	}
	return false
}

// SkipWithoutGL skips t when out (an error's text or a program's output)
// says this machine has no GL window to give (NoGL); see Missing for CI.
// Otherwise it returns, and the caller reports out as a failure.
func SkipWithoutGL(t testing.TB, out string) {
	t.Helper()
	if NoGL(out) {
		Missing(t, "no GL context: %s", out)
	}
}

// Missing stops t because this machine lacks something the test needs (a
// display, a GL driver, Xvfb): it skips t, except in CI (CI=true), where
// it fails t, since a test that cannot run there has not passed.
func Missing(t testing.TB, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("missing in CI: "+format, args...)
		return
	}
	t.Skipf(format, args...)
}
