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
// the addresses come once it is done. The lobby finds Players, Local and
// Addrs, so a SessionConfig that sets them is refused, and so is a
// joiner's lobby that the host has not seated yet.
func TestLobbySession(t *testing.T) {
	tr := NewMemNet().Listen(addr(0))
	s, err := NewLobbySession(&Lobby{host: true, players: 3}, SessionConfig{InputSize: 1}, &testGame{}, tr)
	if err != nil {
		t.Fatal(err)
	}
	if c := s.Config(); c.Players != 3 || c.Local != 0 || len(c.Addrs) != 0 || s.Local() != -1 || len(s.peers) != 0 {
		t.Fatalf("players %d, local %d (%d before it is seated), %d addresses and %d peers; want 3, 0 (-1), none until the lobby is done",
			c.Players, c.Local, s.Local(), len(c.Addrs), len(s.peers))
	}
	for _, tc := range []struct {
		want string
		l    *Lobby
		c    SessionConfig
	}{
		{"Spectate, Local, Addrs or Players", &Lobby{host: true, players: 3}, SessionConfig{InputSize: 1, Addrs: []netip.AddrPort{{}, addr(1)}}},
		{"Spectate, Local, Addrs or Players", &Lobby{host: true, players: 3}, SessionConfig{InputSize: 1, Players: 3}},
		{"no seat yet", &Lobby{}, SessionConfig{InputSize: 1}}, // a joiner's, before the host answered
	} {
		if _, err := NewLobbySession(tc.l, tc.c, &testGame{}, tr); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want an error saying %q", tc.c, err, tc.want)
		}
	}
}
