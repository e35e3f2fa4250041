package agones

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// newTestSDK returns an SDK for f with a short health interval.
func newTestSDK(t *testing.T, f *fakeSDK, c Config) *SDK {
	t.Helper()
	c.Port = f.port()
	c.Host = "127.0.0.1"
	if c.HealthInterval == 0 {
		c.HealthInterval = 10 * time.Millisecond
	}
	s, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestProtocol checks that the fake answers as Agones' SDK server does:
// the table TestRealSDKServer runs against sdk-server --local too.
func TestProtocol(t *testing.T) {
	checkProtocol(t, newFakeSDK(t).srv.URL)
}

// TestLifecycle runs a server's whole life against the fake: Ready, health
// pings while the loop ticks, the player count as it changes, Shutdown;
// and checks each request's method, path, content type and body, and
// their order.
func TestLifecycle(t *testing.T) {
	f := newFakeSDK(t)
	s := newTestSDK(t, f, Config{})
	ctx := context.Background()

	if err := s.Ready(ctx); err != nil {
		t.Fatal(err)
	}
	s.Start(ctx)
	loopDone := make(chan struct{})
	stopLoop := make(chan struct{})
	go func() { // the game loop
		defer close(loopDone)
		for {
			select {
			case <-stopLoop:
				return
			default:
			}
			s.Tick()
			time.Sleep(time.Millisecond)
		}
	}()
	waitFor(t, "3 health pings", func() bool { return f.count("/health") >= 3 })
	s.Players(3)
	waitFor(t, "players=3", func() bool { v, _ := f.label("players"); return v == "3" })
	s.Players(2)
	waitFor(t, "players=2", func() bool { v, _ := f.label("players"); return v == "2" })
	waitFor(t, "2 more health pings", func() bool { return f.count("/health") >= 5 })
	close(stopLoop)
	<-loopDone
	// A skipped interval: every tick has been pinged for, and no ping is
	// on its way for Shutdown to cut.
	skipped := s.Stats().HealthSkipped
	waitFor(t, "an interval without a tick", func() bool { return s.Stats().HealthSkipped > skipped })
	if err := s.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	// Shutdown stopped the pinger: nothing comes after it.
	time.Sleep(50 * time.Millisecond)

	calls := f.recorded()
	if c := calls[0]; c != (fakeCall{"POST", "/ready", "application/json", "{}"}) {
		t.Errorf("first request %+v, want POST /ready {}", c)
	}
	if c := calls[len(calls)-1]; c != (fakeCall{"POST", "/shutdown", "application/json", "{}"}) {
		t.Errorf("last request %+v, want POST /shutdown {}", c)
	}
	var labels []string
	health := 0
	for _, c := range calls[1 : len(calls)-1] {
		switch c {
		case fakeCall{"POST", "/health", "application/json", "{}"}:
			health++
		case fakeCall{"PUT", "/metadata/label", "application/json", `{"key":"players","value":"3"}`},
			fakeCall{"PUT", "/metadata/label", "application/json", `{"key":"players","value":"2"}`}:
			labels = append(labels, c.Body)
		default:
			t.Errorf("unexpected request %+v between Ready and Shutdown", c)
		}
	}
	if want := []string{`{"key":"players","value":"3"}`, `{"key":"players","value":"2"}`}; strings.Join(labels, " ") != strings.Join(want, " ") {
		t.Errorf("labels sent %v, want %v", labels, want)
	}
	st := s.Stats()
	if st.HealthSent != int64(health) || health < 5 {
		t.Errorf("Stats.HealthSent %d, fake saw %d pings (want at least 5)", st.HealthSent, health)
	}
	if st.PlayersSent != 2 || st.Failed != 0 || st.Err != nil {
		t.Errorf("Stats %+v, want PlayersSent 2, Failed 0, no error", st)
	}
}

// TestBeat drives the pinger's step by hand: a ping goes only for an
// interval in which the loop ticked, one per interval however many ticks.
func TestBeat(t *testing.T) {
	f := newFakeSDK(t)
	s := newTestSDK(t, f, Config{})
	ctx := context.Background()
	steps := []struct {
		ticks      int
		wantHealth int
	}{{0, 0}, {1, 1}, {0, 1}, {0, 1}, {5, 2}, {1, 3}, {0, 3}}
	for i, st := range steps {
		for range st.ticks {
			s.Tick()
		}
		s.beat(ctx)
		if got := f.count("/health"); got != st.wantHealth {
			t.Fatalf("step %d (%d ticks): %d pings in all, want %d", i, st.ticks, got, st.wantHealth)
		}
	}
	if got := s.Stats(); got.HealthSent != 3 || got.HealthSkipped != 4 {
		t.Errorf("Stats %+v, want HealthSent 3, HealthSkipped 4", got)
	}
}

// TestHungLoop checks that a loop that stops ticking stops the pings,
// with the pinger running on its own clock, and that they resume with it.
func TestHungLoop(t *testing.T) {
	f := newFakeSDK(t)
	s := newTestSDK(t, f, Config{HealthInterval: 5 * time.Millisecond})
	s.Start(context.Background())
	ticking := make(chan struct{})
	go func() {
		defer close(ticking)
		for f.count("/health") < 3 {
			s.Tick()
			time.Sleep(time.Millisecond)
		}
	}()
	<-ticking // the loop hangs from here
	// The interval in which it last ticked may still ping once; then none.
	skipped := s.Stats().HealthSkipped
	waitFor(t, "2 intervals without a tick", func() bool { return s.Stats().HealthSkipped >= skipped+2 })
	pings := f.count("/health")
	skipped = s.Stats().HealthSkipped
	waitFor(t, "20 more intervals without a tick", func() bool { return s.Stats().HealthSkipped >= skipped+20 })
	if got := f.count("/health"); got != pings {
		t.Fatalf("%d pings while the loop was hung, want 0", got-pings)
	}
	s.Tick()
	waitFor(t, "a ping after the loop ticks again", func() bool { return f.count("/health") == pings+1 })
}

// TestPlayersFold checks that counts recorded while the pinger is busy
// fold into the latest, that an unchanged count is not sent again, and
// that a failed one is sent again.
func TestPlayersFold(t *testing.T) {
	f := newFakeSDK(t)
	s := newTestSDK(t, f, Config{})
	ctx := context.Background()
	s.sendPlayers(ctx) // nothing recorded yet
	if n := f.count("/metadata/label"); n != 0 {
		t.Fatalf("%d label requests before Players, want 0", n)
	}
	s.Players(1)
	s.Players(4)
	s.Players(3)
	s.sendPlayers(ctx)
	s.sendPlayers(ctx)
	s.Players(3)
	s.sendPlayers(ctx)
	if calls := f.recorded(); len(calls) != 1 || calls[0].Body != `{"key":"players","value":"3"}` {
		t.Fatalf("requests %v, want one label players=3", calls)
	}
	f.failNext("/metadata/label", 503, `{"code":14,"message":"unavailable","details":[]}`)
	s.Players(-2) // taken as 0
	s.sendPlayers(ctx)
	if v, _ := f.label("players"); v != "3" {
		t.Fatalf("label %q after a failed update, want 3 kept", v)
	}
	st := s.Stats()
	if st.Failed != 1 || st.Err == nil || st.Err.Error() != "agones: PUT /metadata/label: 503 Service Unavailable: unavailable" {
		t.Fatalf("Stats %+v, want Failed 1 and the label's error", st)
	}
	s.sendPlayers(ctx) // the retry
	if v, _ := f.label("players"); v != "0" {
		t.Fatalf("label %q after the retry, want 0", v)
	}
}

// TestPlayersWakes checks that the pinger sends a recorded count at once,
// not at its next interval.
func TestPlayersWakes(t *testing.T) {
	f := newFakeSDK(t)
	s := newTestSDK(t, f, Config{HealthInterval: time.Hour})
	s.Start(context.Background())
	s.Players(3)
	waitFor(t, "players=3", func() bool { v, _ := f.label("players"); return v == "3" })
	s.Players(1)
	waitFor(t, "players=1", func() bool { v, _ := f.label("players"); return v == "1" })
}

// TestErrors checks that what goes wrong names the method, the path, the
// status and Agones' message.
func TestErrors(t *testing.T) {
	f := newFakeSDK(t)
	s := newTestSDK(t, f, Config{Timeout: 200 * time.Millisecond})
	ctx := context.Background()

	f.failNext("/ready", 500, `{"code":2,"message":"boom","details":[]}`)
	err := s.Ready(ctx)
	var se *StatusError
	if !errors.As(err, &se) || *se != (StatusError{"POST", "/ready", 500, "boom"}) {
		t.Fatalf("Ready: %v, want a StatusError POST /ready 500 boom", err)
	}
	if got, want := err.Error(), "agones: POST /ready: 500 Internal Server Error: boom"; got != want {
		t.Errorf("Ready: %q, want %q", got, want)
	}
	if n := f.count("/ready"); n != 1 {
		t.Errorf("Ready sent %d requests after a 500, want 1 (no retry)", n)
	}

	err = s.setLabel(ctx, "bad key", "1")
	if got, want := err.Error(), `agones: PUT /metadata/label: 400 Bad Request: invalid label key "bad key": name part must consist of alphanumeric characters, '-', '_' or '.'`; got != want {
		t.Errorf("bad label: %q, want %q", got, want)
	}

	f.failNext("/shutdown", 502, "<html>bad gateway</html>")
	err = s.Shutdown(ctx)
	if got, want := err.Error(), `agones: POST /shutdown: 502 Bad Gateway: "<html>bad gateway</html>"`; got != want {
		t.Errorf("Shutdown: %q, want %q", got, want)
	}

	if err := s.SetPlayers(ctx, -1); err == nil || err.Error() != "agones: player count -1 is negative" {
		t.Errorf("SetPlayers(-1): %v", err)
	}

	f.stallOn("/shutdown")
	start := time.Now()
	err = s.Shutdown(ctx)
	if !errors.Is(err, context.DeadlineExceeded) || !strings.HasPrefix(err.Error(), "agones: POST /shutdown: ") {
		t.Errorf("Shutdown to a server that never answers: %v, want POST /shutdown and a deadline", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Shutdown took %v with a 200 ms timeout", d)
	}
}

// TestHealthErrors checks that the pinger counts and keeps its errors.
func TestHealthErrors(t *testing.T) {
	f := newFakeSDK(t)
	s := newTestSDK(t, f, Config{})
	f.failNext("/health", 503, `{"code":14,"message":"connection refused","details":[]}`)
	s.Tick()
	s.beat(context.Background())
	st := s.Stats()
	if st.Failed != 1 || st.HealthSent != 0 || st.Err == nil ||
		st.Err.Error() != "agones: POST /health: 503 Service Unavailable: connection refused" {
		t.Fatalf("Stats %+v after a failed ping", st)
	}
}

// TestNotAgones checks answers that cannot come from Agones: a 200 that is
// not a JSON object, an endless answer (read no further than maxAnswer),
// a long error (quoted no further than maxQuoted).
func TestNotAgones(t *testing.T) {
	var answer string
	var status int
	const endless = 256 << 20
	written := make(chan int, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(status)
		if answer == "endless" {
			chunk := []byte(strings.Repeat("{", 64<<10))
			n := 0
			for n < endless { // unless the client hangs up
				k, err := w.Write(chunk)
				n += k
				if err != nil {
					break
				}
			}
			written <- n
			return
		}
		w.Write([]byte(answer))
	}))
	defer srv.Close()
	s, err := New(Config{Port: srv.Listener.Addr().(*net.TCPAddr).Port, Host: "127.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()

	status, answer = 200, "<html>It works!</html>"
	err = s.Ready(ctx)
	if !errors.Is(err, ErrAnswer) || err.Error() != `agones: answer not from Agones' SDK: POST /ready: 200 with "<html>It works!</html>", not a JSON object` {
		t.Errorf("HTML answer: %v", err)
	}
	status, answer = 200, "endless"
	err = s.Shutdown(ctx)
	if !errors.Is(err, ErrAnswer) || err.Error() != "agones: answer not from Agones' SDK: POST /shutdown: answer longer than 65536 bytes" {
		t.Errorf("endless answer: %v", err)
	}
	// The client hung up after maxAnswer bytes: what the server wrote
	// before it knew is in the sockets' buffers (a few MiB), not 256.
	if n := <-written; n >= endless/4 {
		t.Errorf("the client read %d bytes of an endless answer, want it to stop after %d", n, maxAnswer)
	}
	status, answer = 500, strings.Repeat("x", 1000)
	err = s.SetPlayers(ctx, 1)
	if want := `agones: PUT /metadata/label: 500 Internal Server Error: "` + strings.Repeat("x", maxQuoted) + `"...`; err == nil || err.Error() != want {
		t.Errorf("long error: %v", err)
	}
}

// TestReadyWaitsForSidecar checks that Ready retries while nothing listens
// (the sidecar starting after the game), and gives up after ReadyWait
// naming the request and the cause.
func TestReadyWaitsForSidecar(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close() // nothing listens on port now

	s, err := New(Config{Port: port, Host: "127.0.0.1", ReadyWait: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	err = s.Ready(context.Background())
	if !errors.Is(err, syscall.ECONNREFUSED) || !strings.HasPrefix(err.Error(), "agones: POST /ready: ") ||
		!strings.HasSuffix(err.Error(), "(tried for 300ms, Config.ReadyWait)") {
		t.Fatalf("Ready with nothing listening: %v", err)
	}

	s, err = New(Config{Port: port, Host: "127.0.0.1", ReadyWait: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	f := &fakeSDK{t: t, labels: map[string]string{}, failures: map[string][]fakeFailure{}, stall: map[string]bool{}}
	f.srv = httptest.NewUnstartedServer(http.HandlerFunc(f.serve))
	done := make(chan error, 1)
	go func() { done <- s.Ready(context.Background()) }()
	time.Sleep(200 * time.Millisecond) // the sidecar starts late
	ln, err = net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		t.Skipf("port %d taken meanwhile: %v", port, err)
	}
	f.srv.Listener = ln
	f.srv.Start()
	defer f.srv.Close()
	if err := <-done; err != nil {
		t.Fatalf("Ready with a late sidecar: %v", err)
	}
	if n := f.count("/ready"); n != 1 {
		t.Errorf("the late sidecar got %d /ready, want 1", n)
	}
}

// TestStopping checks Close and Shutdown: they stop the pinger and wait
// for it, Start after them does nothing, and both can be called twice.
func TestStopping(t *testing.T) {
	f := newFakeSDK(t)
	s := newTestSDK(t, f, Config{HealthInterval: time.Millisecond})
	s.Start(context.Background())
	s.Start(context.Background()) // nothing
	for f.count("/health") < 2 {
		s.Tick()
		time.Sleep(time.Millisecond)
	}
	s.Close()
	// A ping on its way as Close cut it may still reach the fake; a
	// pinger still running would ping about 50 times more.
	n := f.count("/health")
	for range 50 {
		s.Tick()
		time.Sleep(time.Millisecond)
	}
	s.Start(context.Background())
	s.Players(7)
	time.Sleep(20 * time.Millisecond)
	if got := f.count("/health"); got > n+1 {
		t.Fatalf("%d pings after Close, want at most the 1 on its way", got-n)
	}
	if got := f.count("/metadata/label"); got != 0 {
		t.Fatalf("%d player counts sent after Close, want 0", got)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// Shutdown still sends after Close, and twice if asked.
	if err := s.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := s.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := f.count("/shutdown"); got != 2 {
		t.Errorf("%d /shutdown, want 2", got)
	}

	// Shutdown stops a running pinger too, while the loop still ticks.
	s3 := newTestSDK(t, f, Config{HealthInterval: time.Millisecond})
	s3.Start(context.Background())
	before := f.count("/health")
	for f.count("/health") < before+2 {
		s3.Tick()
		time.Sleep(time.Millisecond)
	}
	if err := s3.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	n = f.count("/health")
	for range 50 {
		s3.Tick()
		time.Sleep(time.Millisecond)
	}
	if got := f.count("/health"); got > n+1 {
		t.Fatalf("%d pings after Shutdown, want at most the 1 on its way", got-n)
	}

	// Never started: Close and Shutdown return at once.
	s2 := newTestSDK(t, f, Config{})
	s2.Close()
	s2.Start(context.Background())
	if err := s2.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// TestNil checks that a nil *SDK (outside a pod) does nothing.
func TestNil(t *testing.T) {
	var s *SDK
	ctx := context.Background()
	s.Tick()
	s.Players(3)
	s.Start(ctx)
	for _, err := range []error{s.Ready(ctx), s.SetPlayers(ctx, 1), s.Shutdown(ctx), s.Close()} {
		if err != nil {
			t.Errorf("nil SDK: %v", err)
		}
	}
	if s.Stats() != (Stats{}) || s.Config() != (Config{}) {
		t.Error("nil SDK: Stats or Config not zero")
	}
}

// TestNoAllocs checks that what the loop calls allocates nothing.
func TestNoAllocs(t *testing.T) {
	s, err := New(Config{Port: 9358})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	n := 0
	if a := testing.AllocsPerRun(1000, func() { s.Tick(); n++; s.Players(n % 5) }); a != 0 {
		t.Errorf("Tick and Players: %v allocations per call, want 0", a)
	}
}

// TestDefaults checks what zero Config fields stand for.
func TestDefaults(t *testing.T) {
	s, err := New(Config{Port: 9358})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	want := Config{Port: 9358, Host: "127.0.0.1", Timeout: 5 * time.Second, HealthInterval: 2 * time.Second,
		ReadyWait: 30 * time.Second, PlayersLabel: "players"}
	if got := s.Config(); got != want {
		t.Errorf("Config %+v, want %+v", got, want)
	}
	if s.base != "http://127.0.0.1:9358" {
		t.Errorf("base %q", s.base)
	}
}

// TestConfigErrors checks that a bad field is named with its value.
func TestConfigErrors(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{}, "agones: Config.Port 0 out of range (1 to 65535)"},
		{Config{Port: 65536}, "agones: Config.Port 65536 out of range (1 to 65535)"},
		{Config{Port: 1, Timeout: -1}, "agones: Config.Timeout -1ns is negative"},
		{Config{Port: 1, HealthInterval: -time.Second}, "agones: Config.HealthInterval -1s is negative"},
		{Config{Port: 1, ReadyWait: -time.Second}, "agones: Config.ReadyWait -1s is negative"},
		{Config{Port: 1, PlayersLabel: "-x"}, `agones: Config.PlayersLabel "-x" is not a label name (1 to 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit)`},
		{Config{Port: 1, PlayersLabel: "a b"}, `agones: Config.PlayersLabel "a b" is not a label name (1 to 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit)`},
		{Config{Port: 1, PlayersLabel: strings.Repeat("a", 64)}, `agones: Config.PlayersLabel "` + strings.Repeat("a", 64) + `" is not a label name (1 to 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit)`},
	} {
		_, err := New(c.cfg)
		if err == nil || err.Error() != c.want {
			t.Errorf("New(%+v): %v, want %q", c.cfg, err, c.want)
		}
	}
	if _, err := New(Config{Port: 1, PlayersLabel: strings.Repeat("a", 63)}); err != nil {
		t.Errorf("63-byte label: %v", err)
	}
}

// TestFromEnv checks AGONES_SDK_HTTP_PORT: unset, a port, not a port.
func TestFromEnv(t *testing.T) {
	t.Setenv(EnvPort, "")
	if s, ok, err := FromEnv(); s != nil || ok || err != nil {
		t.Errorf("unset: %v %v %v, want nil false nil", s, ok, err)
	}
	t.Setenv(EnvPort, "9358")
	s, ok, err := FromEnv()
	if err != nil || !ok || s.Config().Port != 9358 || s.base != "http://127.0.0.1:9358" {
		t.Errorf("9358: %v %v %v", s, ok, err)
	}
	// The sidecar's address is one no resolver is asked for: a bare
	// container has no /etc/hosts, and there "localhost" goes to DNS and
	// fails (docs/hosting.md shows it).
	if h := s.Config().Host; net.ParseIP(h) == nil || !net.ParseIP(h).IsLoopback() {
		t.Errorf("FromEnv's host %q: want a loopback address, not a name to resolve", h)
	}
	s.Close()
	for _, v := range []string{"abc", "0", "65536", "-1", " 9358"} {
		t.Setenv(EnvPort, v)
		s, ok, err := FromEnv()
		want := `agones: AGONES_SDK_HTTP_PORT="` + v + `" is not a port (1 to 65535)`
		if s != nil || !ok || err == nil || err.Error() != want {
			t.Errorf("%q: %v %v %v, want nil true %q", v, s, ok, err, want)
		}
	}
}

// FuzzMessage checks that whatever an error answer holds, the message
// quoted from it stays short.
func FuzzMessage(f *testing.F) {
	f.Add([]byte(`{"code":3,"message":"invalid label key","details":[]}`))
	f.Add([]byte(`{"message":null}`))
	f.Add([]byte(`{"message":"` + strings.Repeat("x", 1000) + `"}`))
	f.Add([]byte(strings.Repeat("\x00", 1000)))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		// A quoted byte takes at most 4 (\xNN); a kept message at most
		// maxQuoted bytes and "...".
		if m := message(b); len(m) > 4*maxQuoted+5 {
			t.Fatalf("message of %d bytes from a %d-byte answer", len(m), len(b))
		}
	})
}

// TestShutdownAfterSignal checks what Shutdown's doc says: the context
// SIGTERM cancelled sends nothing, context.WithoutCancel of it does.
func TestShutdownAfterSignal(t *testing.T) {
	f := newFakeSDK(t)
	s := newTestSDK(t, f, Config{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // SIGTERM
	if err := s.Shutdown(ctx); !errors.Is(err, context.Canceled) || f.count("/shutdown") != 0 {
		t.Fatalf("Shutdown with a done context: %v, %d sent; want context.Canceled and none", err, f.count("/shutdown"))
	}
	if err := s.Shutdown(context.WithoutCancel(ctx)); err != nil || f.count("/shutdown") != 1 {
		t.Fatalf("Shutdown with WithoutCancel: %v, %d sent; want one", err, f.count("/shutdown"))
	}
}
