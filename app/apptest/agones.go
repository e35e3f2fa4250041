package apptest

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
)

// Agones is a stand-in for Agones' SDK sidecar, the REST server Agones
// runs beside a game server in its pod (the engine's docs/hosting.md), for
// a test that runs the game's -server as Agones would: its Port goes in
// the server's AGONES_SDK_HTTP_PORT. It answers as the sidecar's REST
// gateway does to what package netplay/agones sends: 200 and {} to POST
// /ready, /health and /shutdown and to PUT /metadata/label, 501 to another
// method on those paths, 404 elsewhere; and it keeps the requests in
// order (Calls). Safe for use by the server's goroutines and the test's.
// The engine's netplay/agones checks the same answers against Agones' own
// sdk-server.
type Agones struct {
	srv   *httptest.Server
	mu    sync.Mutex
	calls []string
}

// agonesRoutes are the paths the stand-in answers, with their method.
var agonesRoutes = map[string]string{
	"/ready":          http.MethodPost,
	"/health":         http.MethodPost,
	"/shutdown":       http.MethodPost,
	"/metadata/label": http.MethodPut,
}

// NewAgones starts a stand-in sidecar on 127.0.0.1, where the SDK reaches
// it, and stops it when the test ends.
func NewAgones(t testing.TB) *Agones {
	t.Helper()
	a := &Agones{srv: httptest.NewServer(nil)}
	a.srv.Config.Handler = http.HandlerFunc(a.serve)
	t.Cleanup(a.srv.Close)
	return a
}

// Port is the stand-in's port, for AGONES_SDK_HTTP_PORT.
func (a *Agones) Port() string {
	return strconv.Itoa(a.srv.Listener.Addr().(*net.TCPAddr).Port)
}

// Calls returns the requests received so far, in order, as "POST /ready",
// "POST /health", "PUT /metadata/label players=2", "POST /shutdown".
func (a *Agones) Calls() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.calls...)
}

func (a *Agones) serve(w http.ResponseWriter, r *http.Request) {
	call := r.Method + " " + r.URL.Path
	body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<10))
	if r.URL.Path == "/metadata/label" {
		var kv struct{ Key, Value string }
		json.Unmarshal(body, &kv)
		call += " " + kv.Key + "=" + kv.Value
	}
	a.mu.Lock()
	a.calls = append(a.calls, call)
	a.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	switch method, ok := agonesRoutes[r.URL.Path]; {
	case !ok:
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"code":5,"message":"Not Found","details":[]}`)
	case r.Method != method:
		w.WriteHeader(http.StatusNotImplemented)
		io.WriteString(w, `{"code":12,"message":"Method Not Allowed","details":[]}`)
	default:
		io.WriteString(w, "{}")
	}
}
