package app_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fixstep/fixstep/app"
	"github.com/fixstep/fixstep/engine"
	"github.com/fixstep/fixstep/netplay"
	"github.com/fixstep/fixstep/replay"
)

// strider is a walker with flags of its own: -stride and -tps, what its
// simulation depends on (its SimFlags: a recording carries them, a server
// sends them), and -notes, a file it reads. It has its own stats fields,
// and keeps its loop.
type strider struct {
	walker
	stride, tps int
	notes       string
	loop        *engine.Loop
	attached    int
}

func (s *strider) Flags(fs *flag.FlagSet) {
	fs.IntVar(&s.stride, "stride", 1, "steps a push takes, 1 to 9")
	fs.IntVar(&s.tps, "tps", 60, "ticks per second")
	fs.StringVar(&s.notes, "notes", "", "a file the walker reads")
}

func (s *strider) Configure(c *app.Config) error {
	if s.stride < 1 || s.stride > 9 {
		return fmt.Errorf("-stride %d: want 1 to 9", s.stride)
	}
	c.TPS = s.tps
	c.Inputs = map[string]string{"-notes": s.notes}
	return nil
}

func (s *strider) Update(t engine.Tick) error {
	s.v += int64(s.stride) * int64(int8(t.Input.Player(0)[0]))
	s.x += s.v
	return nil
}

func (s *strider) Report() string { return fmt.Sprintf(" x=%d", s.x) }

func (s *strider) Attach(l *engine.Loop, _ netplay.Match) { s.loop, s.attached = l, s.attached+1 }

func (s *strider) Begin(f engine.Frame) error {
	if s.loop == nil {
		return fmt.Errorf("frame %d: not attached", f.Index)
	}
	return nil
}

// runStrider runs a strider with args in process.
func runStrider(t *testing.T, s *strider, args ...string) (string, string, error) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	err := app.Run(s, app.Options{Name: "strider", InputSize: 1, MaxPlayers: 2, Bot: bot, Params: "strider v1",
		SimFlags: []string{"stride", "tps"}, Args: args, Stdout: &stdout, Stderr: &stderr})
	return stdout.String(), stderr.String(), err
}

// TestConfigurer: a game's own flags decide its parameters and tick rate;
// a recording carries them, and its replay sets them from it, parsed,
// whatever the command line says, to the recorded state hash; the game's
// stats fields end the stats line (Reporter) and it is attached to
// its loop before the first frame (Attacher).
func TestConfigurer(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "run.fxr")
	s := &strider{}
	want, stderr, err := runStrider(t, s, "-headless", "-ticks", "100", "-sim-frame", "10ms", "-bot", "2", "-stride", "3", "-tps", "50", "-record", rec)
	if err != nil || want != fmt.Sprintf("state-hash=%016x\n", engine.StateHash(s.Save(nil))) {
		t.Fatalf("%v, stdout %q, want the state hash of x=%d\n%s", err, want, s.x, stderr)
	}
	// The steady state's garbage is not this test's: the run shares the
	// test binary's heap with the package's other tests (the skeleton's and
	// the demo's tests count it in a process of its own).
	if !regexp.MustCompile(fmt.Sprintf(` allocs_per_frame=[0-9.]+ gc_cycles=[0-9]+ x=%d\n`, s.x)).MatchString(stderr) || s.attached != 1 {
		t.Errorf("attached %d times; stats line without the game's x=%d at its end:\n%s", s.attached, s.x, stderr)
	}
	if other, _, _ := runStrider(t, &strider{}, "-headless", "-ticks", "100", "-sim-frame", "10ms", "-bot", "2", "-stride", "1", "-tps", "50"); other == want {
		t.Fatalf("-stride 1 ends on -stride 3's %q", want)
	}
	for _, args := range [][]string{{"-headless", "-replay", rec}, {"-headless", "-replay", rec, "-stride", "1", "-tps", "60"}} {
		if out, stderr, err := runStrider(t, &strider{}, args...); err != nil || out != want {
			t.Errorf("%q: %v, stdout %q, want %q\n%s", args, err, out, want, stderr)
		}
	}
}

// TestConfigurerRefused: the game's flags are checked as the runner's are,
// a recording's parameters as its flags, and the runner's outputs against
// the files the game reads.
func TestConfigurerRefused(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "run.fxr")
	if _, _, err := runStrider(t, &strider{}, "-headless", "-ticks", "10", "-sim-frame", "10ms", "-record", rec); err != nil {
		t.Fatal(err)
	}
	// Recordings whose parameters are not the flags' values.
	forged, alien := filepath.Join(dir, "forged.fxr"), filepath.Join(dir, "alien.fxr")
	for _, r := range []struct{ path, params string }{{forged, "strider v1\n-stride=x\n-tps=60"}, {alien, "strider v1\n-notes=/etc/passwd"}} {
		rec, err := replay.RecordSession(r.path, 60, 1, 1, replay.Header{Params: r.params})
		if err != nil {
			t.Fatal(err)
		}
		if err := rec.Close(nil); err != nil {
			t.Fatal(err)
		}
	}
	notes := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notes, []byte("walk"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-headless", "-stride", "0"}, "-stride 0: want 1 to 9"},
		{[]string{"-headless", "-tps", "0"}, "app: Config.TPS 0: want 1 to 1000"},
		{[]string{"-headless", "-notes", notes, "-cpuprofile", notes}, "-cpuprofile " + notes + " and -notes " + notes + " are the same file"},
		{[]string{"-headless", "-notes", notes, "-record", notes}, "-record " + notes + " and -notes " + notes + " are the same file"},
		{[]string{"-headless", "-record", rec, "-memprofile", rec}, "-memprofile " + rec + " and -record " + rec + " are the same file"},
		{[]string{"-headless", "-nostride"}, "flag provided but not defined: -nostride"},
	} {
		_, _, err := runStrider(t, &strider{}, append(c.args, "-ticks", "1", "-sim-frame", "10ms")...) // a check that lets it run ends
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want an error with %q", c.args, err, c.want)
		}
	}
	for _, c := range []struct{ rec, want string }{
		{forged, "-replay " + forged + ": -stride=x: parse error"},
		{alien, `-replay ` + alien + `: parameter "-notes=/etc/passwd": not one of this game's simulation flags (-stride, -tps)`},
	} {
		if _, _, err := runStrider(t, &strider{}, "-headless", "-replay", c.rec); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("-replay %s: %v, want an error with %q", c.rec, err, c.want)
		}
	}
	if b, err := os.ReadFile(notes); err != nil || string(b) != "walk" {
		t.Errorf("the game's input: %q, %v", b, err)
	}
}

// TestSimJitterAndCompare: -sim-jitter's frames end on -sim-frame's hash;
// -compare finds two recordings of one run the same and names the first
// tick of another's.
func TestSimJitterAndCompare(t *testing.T) {
	dir := t.TempDir()
	a, b, c := filepath.Join(dir, "a.fxr"), filepath.Join(dir, "b.fxr"), filepath.Join(dir, "c.fxr")
	want, _, err := run(t, &walker{}, "-headless", "-ticks", "300", "-sim-frame", "16ms", "-bot", "5", "-record", a)
	if err != nil {
		t.Fatal(err)
	}
	if out, stderr, err := run(t, &walker{}, "-headless", "-ticks", "300", "-sim-jitter", "9", "-bot", "5", "-record", b); err != nil || out != want {
		t.Errorf("-sim-jitter 9: %v, stdout %q, want %q\n%s", err, out, want, stderr)
	}
	if _, _, err := run(t, &walker{}, "-headless", "-ticks", "300", "-sim-jitter", "9", "-bot", "6", "-record", c); err != nil {
		t.Fatal(err)
	}
	if out, _, err := run(t, &walker{}, "-compare", a, b); err != nil || out != "compare: the same 300 ticks and 5 state hashes\n" {
		t.Errorf("-compare a b: %v, stdout %q", err, out)
	}
	if _, _, err := run(t, &walker{}, "-compare", a, c); err == nil || !strings.Contains(err.Error(), "differ first at tick 0") {
		t.Errorf("-compare a c: %v, want the first tick named", err)
	}
	for _, args := range [][]string{{"-compare", a}, {"-sim-jitter", "3"}, {"-headless", "-sim-jitter", "3", "-sim-frame", "5ms"}} {
		if _, _, err := run(t, &walker{}, args...); err == nil {
			t.Errorf("%q: no error", args)
		}
	}
}

// TestServerSendsSimFlags: a -server's simulation flags (-stride 3 -tps
// 50) reach its clients before their Configure: a -connect and a
// -spectate started without them take them, said on their stderr, and end
// on the server's state hash; a -connect whose command line sets another
// -stride is refused, naming the flag and both values.
func TestServerSendsSimFlags(t *testing.T) {
	addr := freeAddr(t)
	type result struct {
		stdout, stderr string
		err            error
	}
	runs := [][]string{
		{"-server", addr, "-players", "2", "-ticks", "240", "-stride", "3", "-tps", "50"},
		{"-headless", "-connect", addr, "-bot", "1"},
		{"-headless", "-spectate", addr},
		{"-headless", "-connect", addr, "-bot", "2", "-stride", "2"},
	}
	res := make([]result, len(runs))
	var wg sync.WaitGroup
	for i, args := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(i) * 200 * time.Millisecond)
			res[i].stdout, res[i].stderr, res[i].err = runStrider(t, &strider{}, args...)
		}()
	}
	wg.Wait()
	want := res[0].stdout
	if res[0].err != nil || !strings.HasPrefix(want, "state-hash=") {
		t.Fatalf("server: %v, stdout %q\n%s", res[0].err, want, res[0].stderr)
	}
	for i, r := range res[1:3] {
		if r.err != nil || r.stdout != want || !strings.Contains(r.stderr, "strider: the server's match has -stride=3 (was 1)") ||
			!strings.Contains(r.stderr, "-tps=50 (was 60)") {
			t.Errorf("%q: %v, stdout %q (the server's %q):\n%s", runs[i+1], r.err, r.stdout, want, r.stderr)
		}
	}
	if err, want := res[3].err, "-stride 2, but the server "+addr+" has -stride 3: run with -stride 3, or without -stride"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("%q: %v, want an error with %q", runs[3], err, want)
	}
}
