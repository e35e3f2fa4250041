package app

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/fixstep/fixstep/netplay"
	"github.com/fixstep/fixstep/netplay/agones"
)

// hosting is a -server's link to the fleet that runs it: Agones' SDK
// sidecar, when AGONES_SDK_HTTP_PORT says the server runs in an Agones
// game-server pod (see docs/hosting.md). Ready once the socket is bound,
// a health ping every 2 s while the loop ticks (a hung loop goes
// unhealthy), the player count as the label "players", and Shutdown
// once the match is over and its recording written, or on SIGTERM. A nil
// *hosting is a server outside a pod: every method does nothing.
type hosting struct {
	sdk     *agones.SDK
	srv     *netplay.Server
	players int
}

// startHosting tells Agones the server is ready, if it runs under Agones.
func startHosting(srv *netplay.Server, stderr io.Writer, name string) (*hosting, error) {
	sdk, ok, err := agones.FromEnv()
	if !ok {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if err := sdk.Ready(context.Background()); err != nil {
		sdk.Close()
		return nil, fmt.Errorf("%s: %w", agones.EnvPort, err)
	}
	sdk.Start(context.Background())
	fmt.Fprintf(stderr, "%s: Agones SDK at port %d: ready\n", name, sdk.Config().Port)
	return &hosting{sdk: sdk, srv: srv, players: -1}, nil
}

// tick tells the SDK the loop ticks, and the player count when it
// changed. It runs on every tick, and allocates nothing.
func (h *hosting) tick() {
	if h == nil {
		return
	}
	h.sdk.Tick()
	if n := h.srv.Stats().Players; n != h.players {
		h.players = n
		h.sdk.Players(n)
	}
}

// shutdown asks Agones to shut the server down: at the match's end, or
// on a signal, once the recording is written.
func (h *hosting) shutdown() error {
	if h == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := h.sdk.Shutdown(ctx)
	h.sdk.Close()
	return err
}
