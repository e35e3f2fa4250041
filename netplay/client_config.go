package netplay

import (
	"fmt"
	"net/netip"
	"time"

	"github.com/fixstep/fixstep/engine"
)

// Client defaults and limits.
const (
	// DefaultClientPrediction is how many ticks past the server's last
	// final one a Client predicts before it stalls: enough for a 500 ms
	// round trip at 60 TPS.
	DefaultClientPrediction = 40
	// MaxClientPrediction is the largest ClientConfig.MaxPrediction.
	MaxClientPrediction = 96
	// DefaultLead is how many ticks before the server needs it a
	// client's input aims to arrive.
	DefaultLead = 3
	// clientRing is how many ticks of rows a Client keeps: a joiner that
	// loaded its state far behind takes the server's rows in bursts of
	// up to that many while it runs to the present (128 held it to about
	// 24 ticks a second of catching up at 151 ms).
	clientRing = 512
	// jumpTicks is how far from where it should be a client is before it
	// jumps there instead of changing its speed.
	jumpTicks = 12
)

// ClientConfig sets up a Client. Server and InputSize must be set; every
// other zero field means its default.
type ClientConfig struct {
	// Server is the server's address.
	Server netip.AddrPort
	// Spectate makes the client a spectator: it takes no seat, sends no
	// input, and runs final ticks only.
	Spectate bool
	// InputSize, TPS, Params and Sim must match the server's (see
	// ServerConfig): a server whose differ refuses the client, naming the
	// field.
	InputSize int
	TPS       int
	Params    string
	Sim       uint64
	// MaxPrediction is how many ticks past the last final one the client
	// predicts before it stalls. Zero means DefaultClientPrediction.
	MaxPrediction int
	// Lead is how many ticks before the server runs a tick the client's
	// input of it aims to arrive: a margin for jitter and loss. Zero
	// means DefaultLead.
	Lead float64
	// DisconnectTimeout is the silence from the server after which Update
	// returns a *DisconnectError. Zero means 2 s. HandshakeTimeout is how
	// long the client calls a server that does not answer. Zero means
	// 10 s.
	DisconnectTimeout time.Duration
	HandshakeTimeout  time.Duration
	// MaxState is the largest state the client accepts, in bytes. Zero
	// means DefaultMaxState.
	MaxState int
	// Clock is the client's time. Nil means the real monotonic clock.
	Clock engine.Clock
	// Seed seeds the handshake nonce. Zero means a random one.
	Seed uint64
	// Secret is the session secret of a seat an earlier client held on
	// this server (its Secret): the server gives this client that seat
	// back at once, from any address, rather than after the old client
	// times out. Zero asks for a free seat.
	Secret uint64
}

func (c ClientConfig) withDefaults() (ClientConfig, error) {
	if c.TPS == 0 {
		c.TPS = engine.DefaultTPS
	}
	if c.MaxPrediction == 0 {
		c.MaxPrediction = DefaultClientPrediction
	}
	if c.Lead == 0 {
		c.Lead = DefaultLead
	}
	if c.DisconnectTimeout == 0 {
		c.DisconnectTimeout = DefaultDisconnectTimeout
	}
	if c.HandshakeTimeout == 0 {
		c.HandshakeTimeout = DefaultHandshakeTimeout
	}
	if c.MaxState == 0 {
		c.MaxState = DefaultMaxState
	}
	switch {
	case !c.Server.IsValid() || c.Server.Port() == 0:
		return c, fmt.Errorf("netplay: ClientConfig.Server = %v: not an address and port", c.Server)
	case c.InputSize < 1 || c.InputSize > maxInputSize:
		return c, fmt.Errorf("netplay: ClientConfig.InputSize = %d: must be 1 to %d", c.InputSize, maxInputSize)
	case c.TPS < 1 || c.TPS > engine.MaxTPS:
		return c, fmt.Errorf("netplay: ClientConfig.TPS = %d: must be 1 to %d", c.TPS, engine.MaxTPS)
	case c.MaxPrediction < 1 || c.MaxPrediction > MaxClientPrediction:
		return c, fmt.Errorf("netplay: ClientConfig.MaxPrediction = %d: must be 1 to %d", c.MaxPrediction, MaxClientPrediction)
	case !(c.Lead >= 0 && c.Lead <= 30):
		return c, fmt.Errorf("netplay: ClientConfig.Lead = %v: must be 0 to 30 ticks", c.Lead)
	case c.DisconnectTimeout < 0 || c.HandshakeTimeout < 0:
		return c, fmt.Errorf("netplay: ClientConfig timeouts must not be negative")
	case c.MaxState < 1:
		return c, fmt.Errorf("netplay: ClientConfig.MaxState = %d: must be positive", c.MaxState)
	}
	return c, nil
}
