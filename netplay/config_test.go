package netplay

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/fixstep/fixstep/engine"
)

// Invalid configs are refused with an error naming the field.
func TestConfigValidate(t *testing.T) {
	ok := SessionConfig{Addrs: []netip.AddrPort{{}, addr(1)}, InputSize: 4}
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		field string
		tweak func(c *SessionConfig)
	}{
		{"Players", func(c *SessionConfig) { c.Players = 5 }},
		{"Local", func(c *SessionConfig) { c.Local = 2 }},
		{"Addrs", func(c *SessionConfig) { c.Addrs = c.Addrs[:1] }},
		{"Addrs[1]", func(c *SessionConfig) { c.Addrs = []netip.AddrPort{{}, {}} }},
		{"InputSize", func(c *SessionConfig) { c.InputSize = 0 }},
		{"InputSize", func(c *SessionConfig) { c.InputSize = 65 }},
		{"InputDelay", func(c *SessionConfig) { c.InputDelay = 16 }},
		{"MaxPrediction", func(c *SessionConfig) { c.MaxPrediction = -2 }},
		{"MaxPrediction", func(c *SessionConfig) { c.MaxPrediction = 31 }},
		{"DisconnectTimeout", func(c *SessionConfig) { c.DisconnectTimeout = -1 }},
		{"TPS", func(c *SessionConfig) { c.TPS = -60 }},
		{"Host", func(c *SessionConfig) { c.Spectate = true }},
		{"Spectators", func(c *SessionConfig) { c.Spectators = make([]netip.AddrPort, 9) }},
		{"Lobby with", func(c *SessionConfig) { c.Lobby = &Lobby{host: true, players: 3} }}, // with Addrs
		{"Lobby has no seat", func(c *SessionConfig) { c.Lobby, c.Addrs = &Lobby{}, nil }},  // a joiner's, before the host answered
	} {
		c := ok
		c.Addrs = append([]netip.AddrPort(nil), ok.Addrs...)
		tc.tweak(&c)
		err := c.Validate()
		if err == nil || !strings.Contains(err.Error(), "SessionConfig."+tc.field) {
			t.Errorf("%s: %v", tc.field, err)
		}
	}
	d, _ := ok.withDefaults()
	if d.Players != 2 || d.InputDelay != DefaultInputDelay || d.MaxPrediction != DefaultMaxPrediction ||
		d.DisconnectWarning != DefaultDisconnectWarning || d.DisconnectTimeout != DefaultDisconnectTimeout || d.HashEvery != 60 {
		t.Errorf("defaults: %+v", d)
	}
	c := ok
	c.InputDelay, c.MaxPrediction = NoDelay, Lockstep
	if d, _ = c.withDefaults(); d.InputDelay != 0 || d.MaxPrediction != 0 {
		t.Errorf("NoDelay and Lockstep: %+v", d)
	}
}

// A game without Saver or Inputter, or a SessionConfig naming an address twice,
// is refused.
func TestNewRefuses(t *testing.T) {
	c := SessionConfig{Addrs: []netip.AddrPort{{}, addr(1)}, InputSize: 2}
	tr := NewMemNet().Listen(addr(0))
	if _, err := NewSession(c, &testGame{}, tr); err != nil {
		t.Fatal(err)
	}
	noSave := engine.UpdateFunc(func(engine.Tick) error { return nil })
	if _, err := NewSession(c, noSave, tr); err == nil || !strings.Contains(err.Error(), "Saver") {
		t.Errorf("a game without Save: %v", err)
	}
	c.Players, c.Addrs = 3, []netip.AddrPort{{}, addr(1), addr(1)}
	if _, err := NewSession(c, &testGame{}, tr); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("an address twice: %v", err)
	}
}

// A host's lobby gives its session the player count and the local seat;
// the addresses come once it is done.
func TestConfigLobby(t *testing.T) {
	c, err := SessionConfig{Lobby: &Lobby{host: true, players: 3}, InputSize: 1}.withDefaults()
	if err != nil || c.Players != 3 || c.Local != 0 || len(c.Addrs) != 3 {
		t.Fatalf("%v: players %d, local %d, %d addresses; want 3, 0, 3 stand-ins", err, c.Players, c.Local, len(c.Addrs))
	}
}
