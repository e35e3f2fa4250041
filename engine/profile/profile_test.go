package profile

import (
	"flag"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestFlagsWriteEveryProfile(t *testing.T) {
	dir := t.TempDir()
	var f Flags
	fs := flag.NewFlagSet("game", flag.ContinueOnError)
	f.Register(fs)
	err := fs.Parse([]string{
		"-cpuprofile", filepath.Join(dir, "cpu.prof"), "-memprofile", filepath.Join(dir, "mem.prof"),
		"-trace", filepath.Join(dir, "run.trace"), "-pprof", ":0",
	})
	if err != nil {
		t.Fatal(err)
	}
	s, err := f.Start()
	if err != nil {
		t.Fatal(err)
	}
	if !s.Active() || !strings.HasPrefix(s.Addr(), "127.0.0.1:") {
		t.Errorf("active %v at %q; want a pprof server on loopback", s.Active(), s.Addr())
	}
	resp, err := http.Get("http://" + s.Addr() + "/debug/pprof/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), "goroutine") {
		t.Errorf("pprof index:\n%s", body)
	}
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	if err := s.Stop(); err != nil {
		t.Errorf("second Stop: %v", err)
	}
	for _, name := range []string{"cpu.prof", "mem.prof", "run.trace"} {
		if st, err := os.Stat(filepath.Join(dir, name)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v, size %v", name, err, st)
		}
	}
}

func TestBadPathIsAClearError(t *testing.T) {
	_, err := Flags{CPU: "/nonexistent/dir/cpu.prof"}.Start()
	if err == nil || !strings.Contains(err.Error(), "profile: -cpuprofile /nonexistent/dir/cpu.prof: cannot write there: no such file or directory") {
		t.Errorf("error %v", err)
	}
}

// TestFailedWriteLeavesNothing: a profile whose writes fail (a full disk)
// is an error from Stop naming it, and neither a truncated profile nor a
// temporary file is left.
func TestFailedWriteLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "cpu.prof")
	s, err := Flags{CPU: path}.Start()
	if err != nil {
		t.Fatal(err)
	}
	s.cpu.f.Close() // every write from now on fails, as on a full disk
	err = s.Stop()
	if err == nil || !strings.Contains(err.Error(), "-cpuprofile "+path+" not written") {
		t.Errorf("Stop = %v, want an error naming the profile", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("left behind: %v", ents)
	}
}

// TestFailedStartTouchesNothing: a start that fails (here on -pprof) leaves
// a file already at -cpuprofile's path as it was, and no temporary file.
func TestFailedStartTouchesNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "keep.prof")
	if err := os.WriteFile(path, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if _, err := (Flags{CPU: path, Trace: filepath.Join(dir, "t.out"), Addr: ln.Addr().String()}).Start(); err == nil {
		t.Fatal("Start on a busy port succeeded")
	}
	if b, _ := os.ReadFile(path); string(b) != "precious" {
		t.Errorf("the file at -cpuprofile now holds %q", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("left behind: %v", ents)
	}
}

func TestRefusesBadPaths(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "x")
	for _, c := range []struct {
		f    Flags
		want string
	}{
		{Flags{CPU: p, Trace: p}, "three different files"},
		{Flags{CPU: dir}, "not a regular file"},
		{Flags{Mem: "/dev/null"}, "not a regular file"},
	} {
		if _, err := c.f.Start(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: Start = %v, want %q", c.f, err, c.want)
		}
	}
}

// TestDiscardKeepsEarlierProfiles: a run that fails to start discards its
// profiles, and the files of an earlier run stay as they were.
func TestDiscardKeepsEarlierProfiles(t *testing.T) {
	dir := t.TempDir()
	f := Flags{CPU: filepath.Join(dir, "cpu.prof"), Mem: filepath.Join(dir, "mem.prof"), Trace: filepath.Join(dir, "run.trace")}
	for _, p := range []string{f.CPU, f.Mem} {
		if err := os.WriteFile(p, []byte("earlier run"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := f.Start()
	if err != nil {
		t.Fatal(err)
	}
	s.Discard()
	s.Discard()
	if err := s.Stop(); err != nil {
		t.Errorf("Stop after Discard: %v", err)
	}
	for _, p := range []string{f.CPU, f.Mem} {
		if b, err := os.ReadFile(p); err != nil || string(b) != "earlier run" {
			t.Errorf("%s: %q, %v; want the earlier run's file untouched", p, b, err)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("files left: %v; want only the two earlier profiles", names)
	}
}

// TestCPUClocks: on Linux both clocks are there, and 20 ms of work on a
// locked thread moves the thread's clock by most of that (a shared
// machine may take some of it), and the process's by at least as much;
// a sleep moves neither by much.
func TestCPUClocks(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the thread CPU clock is Linux's")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t0, ok1 := ThreadCPU()
	p0, ok2 := ProcessCPU()
	if !ok1 || !ok2 {
		t.Fatalf("ThreadCPU %v, ProcessCPU %v: want both on Linux", ok1, ok2)
	}
	x := 1.0
	for start := time.Now(); time.Since(start) < 20*time.Millisecond; {
		x = x*1.0000001 + 1e-9
	}
	t1, _ := ThreadCPU()
	p1, _ := ProcessCPU()
	if d := t1 - t0; d < 2*time.Millisecond || d > 200*time.Millisecond {
		t.Errorf("20 ms of work moved the thread's clock by %v", d)
	}
	if d := p1 - p0; d < t1-t0-time.Millisecond {
		t.Errorf("the process's clock moved by %v, less than the thread's %v", d, t1-t0)
	}
	time.Sleep(20 * time.Millisecond)
	if t2, _ := ThreadCPU(); t2-t1 > 5*time.Millisecond {
		t.Errorf("a 20 ms sleep moved the thread's clock by %v", t2-t1)
	}
	_ = x
}
