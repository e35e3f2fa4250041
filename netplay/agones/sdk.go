package agones

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// EnvPort is the environment variable Agones sets, in a game-server pod,
// to the port of its SDK's REST server on the pod's loopback address.
const EnvPort = "AGONES_SDK_HTTP_PORT"

// Default values that zero Config fields stand for.
const (
	DefaultHost           = "127.0.0.1"
	DefaultTimeout        = 5 * time.Second
	DefaultHealthInterval = 2 * time.Second
	DefaultReadyWait      = 30 * time.Second
	DefaultPlayersLabel   = "players"
)

// maxAnswer is the most bytes of an answer read: Agones answers {} to
// everything this package sends, or an error of a few hundred bytes.
const maxAnswer = 64 << 10

// maxQuoted is the most bytes of an answer quoted in an error.
const maxQuoted = 200

// ErrAnswer is wrapped by the error a 200 answer that is not a JSON object
// (or one past 64 KiB) gives: something other than Agones' SDK
// server listens on the port.
var ErrAnswer = errors.New("agones: answer not from Agones' SDK")

// Config sets up an SDK. Port must be set; every zero field means its
// default.
type Config struct {
	// Port is the SDK server's HTTP port, 1 to 65535: AGONES_SDK_HTTP_PORT
	// (FromEnv reads it; Agones' default is 9358).
	Port int
	// Host is the SDK server's host. The zero value means "127.0.0.1":
	// the sidecar listens on localhost in the pod's network namespace,
	// which is 127.0.0.1 there (Agones' sdk-server binds "localhost", and
	// Go binds a name to its IPv4 address). An address, not the name: in
	// a bare container (one its runtime gives no /etc/hosts) Go resolves
	// "localhost" by asking DNS, which fails.
	Host string
	// Timeout bounds each request, from dialling to the end of the answer.
	// The zero value means 5 s.
	Timeout time.Duration
	// HealthInterval is the time between two health pings (when the loop
	// ticked in between). The zero value means 2 s; keep it well under the
	// Fleet's health.periodSeconds (deploy/fleet.yaml sets 5 s).
	HealthInterval time.Duration
	// ReadyWait is how long Ready keeps trying while nothing answers on
	// the port (the sidecar can start after the game). The zero value
	// means 30 s.
	ReadyWait time.Duration
	// PlayersLabel is the key of the label the player count goes in;
	// Agones prefixes it with "agones.dev/sdk-". The zero value means
	// "players".
	PlayersLabel string
}

// validate checks c, with defaults already applied.
func (c *Config) validate() error {
	if c.Port < 1 || c.Port > 65535 {
		return fmt.Errorf("agones: Config.Port %d out of range (1 to 65535)", c.Port)
	}
	if c.Timeout < 0 {
		return fmt.Errorf("agones: Config.Timeout %v is negative", c.Timeout)
	}
	if c.HealthInterval < 0 {
		return fmt.Errorf("agones: Config.HealthInterval %v is negative", c.HealthInterval)
	}
	if c.ReadyWait < 0 {
		return fmt.Errorf("agones: Config.ReadyWait %v is negative", c.ReadyWait)
	}
	if !labelKey(c.PlayersLabel) {
		return fmt.Errorf("agones: Config.PlayersLabel %q is not a label name (1 to 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit)", c.PlayersLabel)
	}
	return nil
}

// labelKey reports whether k is a Kubernetes label name without a prefix,
// as Agones' SDK server checks a SetLabel key.
func labelKey(k string) bool {
	if len(k) < 1 || len(k) > 63 || !alnum(k[0]) || !alnum(k[len(k)-1]) {
		return false
	}
	for i := 0; i < len(k); i++ {
		if c := k[i]; !alnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

func alnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// SDK talks to Agones' SDK server. Make one with New or FromEnv; Close it.
//
// A nil *SDK, what FromEnv gives outside a pod, does nothing: every method
// returns at once (and nil), so a runner calls it without checking.
type SDK struct {
	cfg       Config
	base      string // "http://host:port"
	transport *http.Transport
	client    *http.Client

	ticks   atomic.Uint64 // Tick calls
	players atomic.Int64  // the count Players last recorded; -1: none
	wake    chan struct{} // Players wakes the pinger; 1 slot

	startOnce sync.Once
	stopOnce  sync.Once
	cancel    context.CancelFunc // ends the pinger's requests
	stop      chan struct{}      // closed: the pinger returns
	done      chan struct{}      // closed by the pinger as it returns

	// Owned by the pinger goroutine.
	seenTicks   uint64 // ticks at the last ping (or skip)
	sentPlayers int64  // the count last sent; -1: none

	healthSent    atomic.Int64
	healthSkipped atomic.Int64
	playersSent   atomic.Int64
	failed        atomic.Int64
	errMu         sync.Mutex
	lastErr       error
}

// New returns an SDK for the SDK server c names. It sends nothing yet.
func New(c Config) (*SDK, error) {
	if c.Host == "" {
		c.Host = DefaultHost
	}
	if c.Timeout == 0 {
		c.Timeout = DefaultTimeout
	}
	if c.HealthInterval == 0 {
		c.HealthInterval = DefaultHealthInterval
	}
	if c.ReadyWait == 0 {
		c.ReadyWait = DefaultReadyWait
	}
	if c.PlayersLabel == "" {
		c.PlayersLabel = DefaultPlayersLabel
	}
	if err := c.validate(); err != nil {
		return nil, err
	}
	// A transport of its own: no proxy (the sidecar is local), one idle
	// connection kept for the pings.
	tr := &http.Transport{
		DialContext:           (&net.Dialer{Timeout: c.Timeout}).DialContext,
		MaxIdleConnsPerHost:   2,
		IdleConnTimeout:       time.Minute,
		ResponseHeaderTimeout: c.Timeout,
	}
	s := &SDK{
		cfg:         c,
		base:        "http://" + net.JoinHostPort(c.Host, strconv.Itoa(c.Port)),
		transport:   tr,
		client:      &http.Client{Transport: tr, Timeout: c.Timeout},
		wake:        make(chan struct{}, 1),
		stop:        make(chan struct{}),
		done:        make(chan struct{}),
		sentPlayers: -1,
	}
	s.players.Store(-1)
	return s, nil
}

// FromEnv returns an SDK for the SDK server Agones runs beside this
// process, on 127.0.0.1 at AGONES_SDK_HTTP_PORT, with the defaults of
// Config. Outside a pod (the variable unset or empty) it returns nil,
// false and nil: a nil *SDK does nothing. A variable that is not a port
// gives ok true and an error naming it.
func FromEnv() (sdk *SDK, ok bool, err error) {
	v := os.Getenv(EnvPort)
	if v == "" {
		return nil, false, nil
	}
	port, err := strconv.Atoi(v)
	if err != nil || port < 1 || port > 65535 {
		return nil, true, fmt.Errorf("agones: %s=%q is not a port (1 to 65535)", EnvPort, v)
	}
	sdk, err = New(Config{Port: port})
	return sdk, true, err
}

// Config returns the configuration s runs with, defaults applied.
func (s *SDK) Config() Config {
	if s == nil {
		return Config{}
	}
	return s.cfg
}

// StatusError is the error an answer other than 200 gives.
type StatusError struct {
	Method string // "POST"
	Path   string // "/ready"
	Status int    // the HTTP status code
	// Message is Agones' message (the "message" of its JSON error), or
	// the start of the answer, quoted, when it is not one.
	Message string
}

// Error says what was asked and what came back:
// "agones: PUT /metadata/label: 400 Bad Request: invalid label key ...".
func (e *StatusError) Error() string {
	msg := fmt.Sprintf("agones: %s %s: %d %s", e.Method, e.Path, e.Status, http.StatusText(e.Status))
	if e.Message != "" {
		msg += ": " + e.Message
	}
	return msg
}

// Ready tells Agones the server takes players: its GameServer goes Ready
// and can be allocated. Call it once the game's socket is bound. While
// nothing answers on the port it tries again, for up to Config.ReadyWait
// or until ctx ends; an answer other than 200 is returned at once.
func (s *SDK) Ready(ctx context.Context) error {
	if s == nil {
		return nil
	}
	deadline := time.Now().Add(s.cfg.ReadyWait)
	wait := 50 * time.Millisecond
	for {
		err := s.post(ctx, http.MethodPost, "/ready", emptyBody)
		var se *StatusError
		if err == nil || errors.As(err, &se) || errors.Is(err, ErrAnswer) || ctx.Err() != nil {
			return err
		}
		if time.Now().Add(wait).After(deadline) {
			return fmt.Errorf("%w (tried for %v, Config.ReadyWait)", err, s.cfg.ReadyWait)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return err
		case <-t.C:
		}
		wait = min(2*wait, time.Second)
	}
}

// SetPlayers sets the player count label (agones.dev/sdk-players) to n
// now, and returns when Agones answered. A loop that must not wait calls
// Players instead.
func (s *SDK) SetPlayers(ctx context.Context, n int) error {
	if s == nil {
		return nil
	}
	if n < 0 {
		return fmt.Errorf("agones: player count %d is negative", n)
	}
	return s.setLabel(ctx, s.cfg.PlayersLabel, strconv.Itoa(n))
}

// setLabel sends PUT /metadata/label {"key":k,"value":v}.
func (s *SDK) setLabel(ctx context.Context, k, v string) error {
	body, err := json.Marshal(struct {
		Key   string `json:"key"`
		Value string `json:"value"`
	}{k, v})
	if err != nil {
		return fmt.Errorf("agones: label %q: %w", k, err)
	}
	return s.post(ctx, http.MethodPut, "/metadata/label", body)
}

// Shutdown stops the health pings and tells Agones the match is over:
// its GameServer goes Shutdown and Agones deletes the pod (SIGTERM, then
// SIGKILL after the pod's grace period). Call it after the recording is
// written, then exit: a server that exits without it leaves its
// GameServer Unhealthy. On SIGTERM, give it a context the signal did not
// cancel (context.WithoutCancel(ctx)): a done ctx sends nothing.
func (s *SDK) Shutdown(ctx context.Context) error {
	if s == nil {
		return nil
	}
	s.stopPinger()
	return s.post(ctx, http.MethodPost, "/shutdown", emptyBody)
}

// Close stops the health pings, waits for the pinger to return, and
// closes idle connections. It sends nothing (Shutdown does) and always
// returns nil; calling it again does nothing.
func (s *SDK) Close() error {
	if s == nil {
		return nil
	}
	s.stopPinger()
	s.transport.CloseIdleConnections()
	return nil
}

var emptyBody = []byte("{}")

// post sends body to path with method and checks the answer: 200 and a
// JSON object, read up to maxAnswer bytes, within Config.Timeout.
func (s *SDK) post(ctx context.Context, method, path string, body []byte) error {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, s.base+path, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("agones: %s %s: %w", method, path, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := s.client.Do(req)
	if err != nil {
		return fmt.Errorf("agones: %s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer+1))
	if err != nil {
		return fmt.Errorf("agones: %s %s: reading the answer: %w", method, path, err)
	}
	if resp.StatusCode != http.StatusOK {
		return &StatusError{Method: method, Path: path, Status: resp.StatusCode, Message: message(answer)}
	}
	if len(answer) > maxAnswer {
		return fmt.Errorf("%w: %s %s: answer longer than %d bytes", ErrAnswer, method, path, maxAnswer)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(answer, &obj); err != nil {
		return fmt.Errorf("%w: %s %s: 200 with %s, not a JSON object", ErrAnswer, method, path, quote(answer))
	}
	return nil
}

// message is the "message" of a gRPC-gateway error answer
// ({"code":3,"message":"...","details":[]}), or the answer's start, quoted.
func message(answer []byte) string {
	var e struct {
		Message *string `json:"message"`
	}
	if json.Unmarshal(answer, &e) == nil && e.Message != nil {
		m := *e.Message
		if len(m) > maxQuoted {
			m = m[:maxQuoted] + "..."
		}
		return m
	}
	if len(answer) == 0 {
		return ""
	}
	return quote(answer)
}

// quote quotes the first maxQuoted bytes of b.
func quote(b []byte) string {
	if len(b) > maxQuoted {
		return strconv.Quote(string(b[:maxQuoted])) + "..."
	}
	return strconv.Quote(string(b))
}
