package apptest

import (
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// TestAgones: the stand-in answers as Agones' sidecar does (200 and {} to
// the SDK's requests, 501 to another method, 404 to another path), on
// 127.0.0.1, and keeps every request in order, a label with its value.
func TestAgones(t *testing.T) {
	a := NewAgones(t)
	base := "http://127.0.0.1:" + a.Port()
	for _, c := range []struct {
		method, path, body string
		status             int
		answer             string
	}{
		{"POST", "/ready", "{}", 200, "{}"},
		{"POST", "/health", "{}", 200, "{}"},
		{"PUT", "/metadata/label", `{"key":"players","value":"2"}`, 200, "{}"},
		{"GET", "/ready", "", 501, `{"code":12,"message":"Method Not Allowed","details":[]}`},
		{"POST", "/allocate", "{}", 404, `{"code":5,"message":"Not Found","details":[]}`},
		{"POST", "/shutdown", "{}", 200, "{}"},
	} {
		req, _ := http.NewRequest(c.method, base+c.path, strings.NewReader(c.body))
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != c.status || string(b) != c.answer {
			t.Errorf("%s %s: %d %s, want %d %s", c.method, c.path, res.StatusCode, b, c.status, c.answer)
		}
	}
	want := []string{"POST /ready", "POST /health", "PUT /metadata/label players=2", "GET /ready", "POST /allocate", "POST /shutdown"}
	if got := a.Calls(); !slices.Equal(got, want) {
		t.Errorf("Calls() = %q, want %q", got, want)
	}
}
