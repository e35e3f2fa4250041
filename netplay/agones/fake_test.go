package agones

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeSDK is an httptest server that answers as Agones' SDK server (its
// gRPC gateway) does, as seen from sdk-server --local at the commit
// docs/hosting.md names (TestProtocol runs the same table against both):
//
//   - 200 with {} (application/json) for a known method and path;
//   - 501 {"code":12,"message":"Method Not Allowed","details":[]} for a
//     known path and another method;
//   - 404 {"code":5,"message":"Not Found","details":[]} for any other path;
//   - 400 with no body for POST /health with an empty body (the sidecar's
//     healthCheckWrapper), 400 {"code":3,...} for a body that is not a
//     JSON object of the message's fields;
//   - unknown fields ignored, an empty body taken as {} elsewhere;
//   - and, as the SDK server in a cluster does (not --local), 400
//     {"code":3,"message":"invalid label key ..."} for a bad label key.
//
// It records every request, and fails the test on a request whose
// content type is not application/json.
type fakeSDK struct {
	t   *testing.T
	srv *httptest.Server

	mu       sync.Mutex
	calls    []fakeCall
	labels   map[string]string
	failures map[string][]fakeFailure // path: answers to give, in order
	stall    map[string]bool          // path: answer nothing until the request ends
}

// fakeCall is one request the fake received.
type fakeCall struct {
	Method, Path, ContentType, Body string
}

func (c fakeCall) String() string { return c.Method + " " + c.Path + " " + c.Body }

// fakeFailure is an error answer the fake gives instead of the usual one.
type fakeFailure struct {
	Status int
	Body   string
}

// routes are the methods of the stable SDK's paths (sdk.swagger.json).
var routes = map[string]string{
	"/ready":               http.MethodPost,
	"/health":              http.MethodPost,
	"/shutdown":            http.MethodPost,
	"/allocate":            http.MethodPost,
	"/reserve":             http.MethodPost,
	"/metadata/label":      http.MethodPut,
	"/metadata/annotation": http.MethodPut,
	"/gameserver":          http.MethodGet,
}

func newFakeSDK(t *testing.T) *fakeSDK {
	f := &fakeSDK{t: t, labels: map[string]string{}, failures: map[string][]fakeFailure{}, stall: map[string]bool{}}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

// port is the fake's port, for Config.Port.
func (f *fakeSDK) port() int {
	return f.srv.Listener.Addr().(*net.TCPAddr).Port
}

// failNext makes the fake answer the next request to path with status
// and body.
func (f *fakeSDK) failNext(path string, status int, body string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.failures[path] = append(f.failures[path], fakeFailure{status, body})
}

// stallOn makes the fake never answer requests to path.
func (f *fakeSDK) stallOn(path string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stall[path] = true
}

// recorded returns a copy of the requests so far.
func (f *fakeSDK) recorded() []fakeCall {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]fakeCall(nil), f.calls...)
}

// count counts the requests to path so far.
func (f *fakeSDK) count(path string) int {
	n := 0
	for _, c := range f.recorded() {
		if c.Path == path {
			n++
		}
	}
	return n
}

// label returns the label key's value and whether it is set.
func (f *fakeSDK) label(key string) (string, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	v, ok := f.labels["agones.dev/sdk-"+key]
	return v, ok
}

// waitFor waits up to 10 s for cond, and fails the test with what
// otherwise.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("after 10 s still waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

func grpcError(w http.ResponseWriter, status, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	b, _ := json.Marshal(msg)
	fmt.Fprintf(w, `{"code":%d,"message":%s,"details":[]}`, code, b)
}

func (f *fakeSDK) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		f.t.Errorf("fake SDK: reading %s %s: %v", r.Method, r.URL.Path, err)
	}
	f.mu.Lock()
	f.calls = append(f.calls, fakeCall{r.Method, r.URL.Path, r.Header.Get("Content-Type"), string(body)})
	var fail *fakeFailure
	if q := f.failures[r.URL.Path]; len(q) > 0 {
		fail = &q[0]
		f.failures[r.URL.Path] = q[1:]
	}
	stall := f.stall[r.URL.Path]
	f.mu.Unlock()

	if ct := r.Header.Get("Content-Type"); ct != "application/json" {
		f.t.Errorf("fake SDK: %s %s with Content-Type %q, want application/json", r.Method, r.URL.Path, ct)
	}
	if stall {
		<-r.Context().Done()
		return
	}
	if fail != nil {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(fail.Status)
		io.WriteString(w, fail.Body)
		return
	}
	method, known := routes[r.URL.Path]
	switch {
	case !known:
		grpcError(w, http.StatusNotFound, 5, "Not Found")
		return
	case r.Method != method:
		grpcError(w, http.StatusNotImplemented, 12, "Method Not Allowed")
		return
	case r.URL.Path == "/health" && len(body) == 0:
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	if len(bytes.TrimSpace(body)) == 0 {
		body = []byte("{}")
	}
	var fields map[string]any
	if err := json.Unmarshal(body, &fields); err != nil {
		grpcError(w, http.StatusBadRequest, 3, err.Error())
		return
	}
	if r.URL.Path == "/metadata/label" {
		k, kok := fields["key"].(string)
		v, vok := fields["value"].(string)
		if (fields["key"] != nil && !kok) || (fields["value"] != nil && !vok) {
			grpcError(w, http.StatusBadRequest, 3, "invalid value for string field")
			return
		}
		if !labelKey(k) {
			grpcError(w, http.StatusBadRequest, 3, fmt.Sprintf("invalid label key %q: name part must consist of alphanumeric characters, '-', '_' or '.'", k))
			return
		}
		f.mu.Lock()
		f.labels["agones.dev/sdk-"+k] = v
		f.mu.Unlock()
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Grpc-Metadata-Content-Type", "application/grpc")
	io.WriteString(w, "{}")
}

// protocolCase is one request and the answer Agones' SDK server gives.
type protocolCase struct {
	method, path, body string
	status             int
	answer             string // exact, when not ""
	code               int    // the JSON error's code, when answer is ""
}

// protocol is what sdk-server --local answered at the commit
// docs/hosting.md names (probed with curl, then kept by TestProtocol).
var protocol = []protocolCase{
	{"POST", "/ready", "{}", 200, "{}", 0},
	{"POST", "/ready", "", 200, "{}", 0},
	{"POST", "/ready", `{"unknown":1}`, 200, "{}", 0},
	{"GET", "/ready", "", 501, `{"code":12,"message":"Method Not Allowed","details":[]}`, 0},
	{"PUT", "/ready", "{}", 501, `{"code":12,"message":"Method Not Allowed","details":[]}`, 0},
	{"POST", "/ready/", "{}", 404, `{"code":5,"message":"Not Found","details":[]}`, 0},
	{"POST", "/nothing", "{}", 404, `{"code":5,"message":"Not Found","details":[]}`, 0},
	{"POST", "/health", "{}", 200, "{}", 0},
	{"POST", "/health", "", 400, "", -1},
	{"POST", "/health", "x", 400, "", 3},
	{"POST", "/health", "[]", 400, "", 3},
	{"PUT", "/metadata/label", `{"key":"players","value":"3"}`, 200, "{}", 0},
	{"PUT", "/metadata/label", `{"key":"players","value":3}`, 400, "", 3},
	{"POST", "/metadata/label", `{"key":"players","value":"3"}`, 501, `{"code":12,"message":"Method Not Allowed","details":[]}`, 0},
	{"POST", "/shutdown", "{}", 200, "{}", 0},
}

// checkProtocol sends each case of protocol to base and checks the answer.
func checkProtocol(t *testing.T, base string) {
	t.Helper()
	for _, c := range protocol {
		req, err := http.NewRequestWithContext(context.Background(), c.method, base+c.path, strings.NewReader(c.body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s %s %s: %v", c.method, c.path, c.body, err)
		}
		answer, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.status {
			t.Errorf("%s %s %s: status %d %s, want %d", c.method, c.path, c.body, resp.StatusCode, answer, c.status)
			continue
		}
		switch {
		case c.answer != "":
			if string(answer) != c.answer {
				t.Errorf("%s %s %s: answer %s, want %s", c.method, c.path, c.body, answer, c.answer)
			}
		case c.code < 0:
			if len(answer) != 0 {
				t.Errorf("%s %s %s: answer %q, want none", c.method, c.path, c.body, answer)
			}
		default:
			var e struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			}
			if err := json.Unmarshal(answer, &e); err != nil || e.Code != c.code || e.Message == "" {
				t.Errorf("%s %s %s: answer %s, want a JSON error with code %d and a message", c.method, c.path, c.body, answer, c.code)
			}
		}
	}
}
