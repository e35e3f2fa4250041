package profile

import (
	"flag"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	if err == nil || !strings.Contains(err.Error(), "profile: -cpuprofile:") {
		t.Errorf("error %v", err)
	}
}
