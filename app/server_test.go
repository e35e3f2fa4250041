package app_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fixstep/fixstep/replay"
)

// fakeAgones answers as Agones' SDK sidecar does (200 and "{}" to POST
// /ready, /health and /shutdown and to PUT /metadata/label), and keeps
// the calls in order, with what the recording held when Shutdown came.
type fakeAgones struct {
	mu     sync.Mutex
	calls  []string
	record string // the server's -record file
	atStop string // its replay header at Shutdown, or why not
}

func (f *fakeAgones) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	call := r.Method + " " + r.URL.Path
	if r.URL.Path == "/metadata/label" {
		var kv struct{ Key, Value string }
		json.NewDecoder(r.Body).Decode(&kv)
		call += " " + kv.Key + "=" + kv.Value
	}
	if r.URL.Path == "/shutdown" {
		h, err := replay.ReadHeader(f.record)
		f.atStop = fmt.Sprintf("%d players, err %v", h.Players, err)
		if _, err := os.Stat(f.record); err != nil {
			f.atStop = err.Error()
		}
	}
	f.calls = append(f.calls, call)
	w.Header().Set("Content-Type", "application/json")
	w.Write([]byte("{}"))
}

// TestServerAndClients: a -server of 3 seats with -ticks, two -connect
// bots (one joining a second in, mid-match) and a -spectate, on loopback,
// the server in an Agones pod (a fake SDK sidecar): every client ends on
// the server's state hash, the server's recording replays to it, and the
// server told Agones it was ready, healthy, how many players it had, and
// to shut it down once the recording was written.
func TestServerAndClients(t *testing.T) {
	addr, dir := freeAddr(t), t.TempDir()
	rec := filepath.Join(dir, "server.fxr")
	sdk := &fakeAgones{record: rec}
	hs := httptest.NewServer(sdk)
	defer hs.Close()
	u, _ := url.Parse(hs.URL)
	t.Setenv("AGONES_SDK_HTTP_PORT", u.Port())

	type result struct {
		stdout, stderr string
		err            error
		g              *crowd
	}
	res := make([]result, 4)
	var wg sync.WaitGroup
	for i := range res {
		var args []string
		switch i {
		case 0:
			args = []string{"-server", addr, "-players", "3", "-ticks", "300", "-record", rec}
		case 3:
			args = []string{"-headless", "-spectate", addr}
		default:
			args = []string{"-headless", "-connect", addr, "-bot", fmt.Sprint(i), "-netsim", "latency=20ms,loss=0.02"}
		}
		res[i].g = &crowd{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(i) * 400 * time.Millisecond) // the last client joins mid-match
			res[i].stdout, res[i].stderr, res[i].err = crowdRun(res[i].g, args...)
		}()
	}
	wg.Wait()
	want := res[0].stdout
	if res[0].err != nil || !strings.HasPrefix(want, "state-hash=") || res[0].g.started != 3 {
		t.Fatalf("server: %v, stdout %q, world of %d players:\n%s", res[0].err, want, res[0].g.started, res[0].stderr)
	}
	for _, f := range []string{" joins=3 ", " players=2 spectators=1 ", " inputs_replaced=", " resyncs=0 ", " down_kbps_per_client=", " tick_us_p99="} {
		if !strings.Contains(res[0].stderr, f) {
			t.Errorf("the server's stats line has no %q:\n%s", f, res[0].stderr)
		}
	}
	for i, r := range res[1:] {
		if r.err != nil || r.stdout != want || r.g.started != 3 || !strings.Contains(r.stderr, " desyncs=0 ") || !strings.Contains(r.stderr, " catchup_ms=") {
			t.Errorf("client %d: %v, stdout %q (server %q), world of %d players:\n%s", i+1, r.err, r.stdout, want, r.g.started, r.stderr)
		}
	}
	g := &crowd{}
	out, stderr, err := crowdRun(g, "-headless", "-replay", rec)
	if err != nil || out != want || g.started != 3 {
		t.Errorf("-replay of the server's recording: %v, %q of %d players, want %q of 3:\n%s", err, out, g.started, want, stderr)
	}

	sdk.mu.Lock()
	defer sdk.mu.Unlock()
	calls := strings.Join(sdk.calls, "\n")
	t.Logf("Agones calls:\n%s", calls)
	if len(sdk.calls) < 4 || sdk.calls[0] != "POST /ready" || sdk.calls[len(sdk.calls)-1] != "POST /shutdown" ||
		!strings.Contains(calls, "POST /health") || !strings.Contains(calls, "PUT /metadata/label players=2") {
		t.Errorf("the server told Agones:\n%s\nwant ready, a health ping, players=2, shutdown", calls)
	}
	if sdk.atStop != "3 players, err <nil>" {
		t.Errorf("at Shutdown, the recording: %s", sdk.atStop)
	}
}
