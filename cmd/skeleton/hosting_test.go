package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/fixstep/fixstep/app/apptest"
)

// TestServerUnderAgones runs the game's server as deploy/Dockerfile builds
// it (without cgo, static) and as an Agones pod runs it: with
// AGONES_SDK_HTTP_PORT naming a stand-in for the SDK sidecar. The server
// says it is ready, pings its health while it ticks, sets the player count
// as a -connect bot joins, and says shutdown at the match's end, in that
// order; the bot ends on the server's state hash. The engine's
// docs/hosting.md runs the same against Agones' own sdk-server by hand.
func TestServerUnderAgones(t *testing.T) {
	bin := apptest.BuildStatic(t, ".")
	sdk := apptest.NewAgones(t)
	addr := freeUDP(t)
	srv := exec.Command(bin, "-server", addr, "-players", "2", "-ticks", "300")
	srv.Env = append(os.Environ(), "AGONES_SDK_HTTP_PORT="+sdk.Port())
	var srvOut, srvErr bytes.Buffer
	srv.Stdout, srv.Stderr = &srvOut, &srvErr
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer srv.Process.Kill()
	bot := start(t, "-headless -connect "+addr+" -bot 1")
	botErr := bot.Wait()
	if err := srv.Wait(); err != nil || !stateHash.MatchString(srvOut.String()) {
		t.Fatalf("server: %v, stdout %q, want state-hash=\n%s", err, &srvOut, &srvErr)
	}
	if botErr != nil || bot.Stdout.String() != srvOut.String() {
		t.Errorf("bot: %v, stdout %q, want the server's %q\n%s", botErr, &bot.Stdout, &srvOut, &bot.Stderr)
	}
	calls := sdk.Calls()
	all := strings.Join(calls, "\n")
	if len(calls) < 4 || calls[0] != "POST /ready" || calls[len(calls)-1] != "POST /shutdown" ||
		!strings.Contains(all, "POST /health") || !strings.Contains(all, "PUT /metadata/label players=1") {
		t.Errorf("the server told Agones:\n%s\nwant ready, a health ping, players=1, shutdown\nserver:\n%s", all, &srvErr)
	}
}
