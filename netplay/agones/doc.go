// Package agones tells Agones how a fixstep server is doing, through the
// REST SDK its sidecar serves on the pod's 127.0.0.1: the plainest way Agones
// offers, with net/http only (no gRPC, no agones.dev modules, no cgo).
//
// In a game-server pod Agones sets AGONES_SDK_HTTP_PORT, and FromEnv finds
// it; outside a pod FromEnv says so (ok is false) and the server runs as
// it would anyway. The lifecycle a headless server goes through:
//
//	sdk, ok, err := agones.FromEnv()
//	if err != nil { return err }        // the variable is set but wrong
//	if ok {
//		defer sdk.Close()
//		// once the game's socket is bound:
//		if err := sdk.Ready(ctx); err != nil { return err }
//		sdk.Start(ctx) // Health every 2 s while the loop ticks; player counts
//	}
//	// in the loop, every tick (no allocation, no waiting):
//	sdk.Tick()
//	// when a player joins or leaves (no waiting either):
//	sdk.Players(n)
//	// at the match's end, or on SIGTERM after the recording is written:
//	err = sdk.Shutdown(ctx)
//
// The requests, as Agones' SDK server answers them (in
// googleforgames/agones: sdks/swagger/sdk.swagger.json, the REST guide
// site/content/en/docs/Guides/Client SDKs/rest.md, pkg/sdkserver), each
// with the body {} or a key and a value, as application/json:
//
//   - POST /ready: the server takes players. Sent once, when the socket is
//     bound. The sidecar may start after the game, so Ready retries while
//     nothing listens, until Config.ReadyWait has passed.
//   - POST /health: the server is alive. Agones marks the GameServer
//     Unhealthy (and replaces it) when no ping came for health.periodSeconds
//     failureThreshold times in a row. The pinger sends one every
//     Config.HealthInterval (2 s) only if the game loop called Tick since
//     the last one, so a loop that hangs stops the pings and goes
//     unhealthy, while the goroutine that pings is fine.
//   - PUT /metadata/label {"key":"players","value":"3"}: the player count,
//     as the GameServer's label agones.dev/sdk-players. A label, rather
//     than the beta Counters API (PATCH /v1beta1/counters/players), because
//     it is the stable API: it works in every GameServer with nothing
//     declared in its spec and no feature gate, and a
//     GameServerAllocation can still select on it (docs/hosting.md). A
//     counter must be declared in the Fleet, with a capacity the count
//     must stay within, or every update fails with "not found".
//   - POST /shutdown: the match is over; Agones deletes the pod.
//
// An answer other than 200 is an error naming the method, the path, the
// status and the message Agones sent (a *StatusError); every request has
// a time limit (Config.Timeout), and no more than 64 KiB of an answer is
// read.
//
// Threads: Tick and Players are safe to call from any goroutine, and are
// meant for the loop's; the rest are safe from any goroutine too.
package agones
