package agones

import (
	"bytes"
	"context"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// envSDKServer names the environment variable that points at an Agones
// sdk-server binary for TestRealSDKServer; docs/hosting.md says how to
// build one.
const envSDKServer = "FIXSTEP_AGONES_SDK_SERVER"

// lockedBuffer is a bytes.Buffer two goroutines can use.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// freePort returns a TCP port nothing listens on at the moment.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// TestRealSDKServer runs the lifecycle against Agones' own SDK server in
// its local mode (sdk-server --local), when FIXSTEP_AGONES_SDK_SERVER
// names its binary, and checks from the server's log that it received
// Ready, health pings, the player count and Shutdown; then checks that
// it answers the protocol table the fake is held to. Skipped otherwise:
// make test never needs it.
func TestRealSDKServer(t *testing.T) {
	bin := os.Getenv(envSDKServer)
	if bin == "" {
		t.Skipf("%s is not set (see docs/hosting.md)", envSDKServer)
	}
	httpPort := freePort(t)
	cmd := exec.Command(bin, "--local", "--address", "127.0.0.1",
		"--grpc-port", strconv.Itoa(freePort(t)), "--http-port", strconv.Itoa(httpPort))
	var log lockedBuffer
	cmd.Stdout = &log
	cmd.Stderr = &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() || testing.Verbose() {
			t.Logf("sdk-server's log:\n%s", log.String())
		}
	}()

	// As in a pod: the port comes from the environment, and Ready waits
	// for the sidecar, started a moment ago.
	t.Setenv(EnvPort, strconv.Itoa(httpPort))
	s, ok, err := FromEnv()
	if err != nil || !ok {
		t.Fatalf("FromEnv: %v %v", ok, err)
	}
	defer s.Close()
	s.cfg.HealthInterval = 100 * time.Millisecond
	ctx := context.Background()
	if err := s.Ready(ctx); err != nil {
		t.Fatal(err)
	}
	s.Start(ctx)
	for s.Stats().HealthSent < 3 {
		s.Tick()
		time.Sleep(time.Millisecond)
	}
	s.Players(3)
	waitFor(t, "players=3 sent", func() bool { return s.Stats().PlayersSent == 1 })
	s.Players(2)
	waitFor(t, "players=2 sent", func() bool { return s.Stats().PlayersSent == 2 })
	// The loop hangs: no more pings.
	time.Sleep(300 * time.Millisecond) // the interval in which it last ticked
	pings := s.Stats().HealthSent
	time.Sleep(time.Second)
	if got := s.Stats().HealthSent; got != pings {
		t.Errorf("%d pings while the loop was hung, want 0", got-pings)
	}
	if err := s.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if st := s.Stats(); st.Failed != 0 {
		t.Errorf("Stats %+v, want no failure", st)
	}

	waitFor(t, "the server's log of Shutdown", func() bool {
		return strings.Contains(log.String(), "Shutdown request has been received!")
	})
	out := log.String()
	for _, want := range []string{
		"Ready request has been received!",
		"Health Ping Received!",
		`"values":{"key":"players","value":"3"}`,
		`"values":{"key":"players","value":"2"}`,
		"Shutdown request has been received!",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("sdk-server's log lacks %q", want)
		}
	}
	if n := strings.Count(out, "Health Ping Received!"); int64(n) != pings {
		t.Errorf("sdk-server logged %d health pings, the SDK counted %d", n, pings)
	}
	ready := strings.Index(out, "Ready request has been received!")
	label := strings.Index(out, `"values":{"key":"players","value":"3"}`)
	shutdown := strings.Index(out, "Shutdown request has been received!")
	if !(ready < label && label < shutdown) {
		t.Errorf("sdk-server's log has Ready at %d, the label at %d, Shutdown at %d: out of order", ready, label, shutdown)
	}

	checkProtocol(t, s.base)
}
