package agones_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"

	"github.com/fixstep/fixstep/netplay/agones"
)

// Example runs a match's life against a stand-in for Agones' sidecar that
// prints what it receives. In a pod, agones.FromEnv finds the sidecar.
func Example() {
	sidecar := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		fmt.Println(r.Method, r.URL.Path, string(body))
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, "{}")
	}))
	defer sidecar.Close()

	sdk, err := agones.New(agones.Config{Host: "127.0.0.1", Port: sidecar.Listener.Addr().(*net.TCPAddr).Port})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer sdk.Close()
	ctx := context.Background()

	// The game's socket is bound: take players.
	if err := sdk.Ready(ctx); err != nil {
		fmt.Println(err)
		return
	}
	// sdk.Start(ctx) would ping /health every 2 s from here, while the
	// loop calls sdk.Tick(); sdk.Players(n) would send counts from there.
	if err := sdk.SetPlayers(ctx, 3); err != nil {
		fmt.Println(err)
		return
	}
	// The match is over and its recording written.
	if err := sdk.Shutdown(ctx); err != nil {
		fmt.Println(err)
	}
	// Output:
	// POST /ready {}
	// PUT /metadata/label {"key":"players","value":"3"}
	// POST /shutdown {}
}
