package netplay

// Probe asks a server, before a client of it is made, for its match's
// settings, without taking a seat: so that a runner can take the server's
// Params (a game's flags) and build the game for the match's players
// before its loop runs, and learn that a server answers at the address at
// all. The server keeps nothing of it.
type Probe struct{ c *Client }

// NewProbe makes a probe of the server at cfg.Server. Only cfg.Server,
// InputSize (any valid size), the timeouts, Clock and Seed matter: a
// probe asks whatever the server's settings are.
func NewProbe(cfg ClientConfig, tr Transport) (*Probe, error) {
	c, err := newClient(cfg, nil, tr)
	if err != nil {
		return nil, err
	}
	c.probing = true
	return &Probe{c: c}, nil
}

// Poll calls the server (ten times a second) and reads its answers. It
// returns the server's settings once it sent them (Players 0 before); an
// error wrapping ErrNotServer if a peer-to-peer host answered, or a
// *DisconnectError once ClientConfig.HandshakeTimeout passed without the
// settings.
func (p *Probe) Poll() (Settings, error) {
	s := p.c
	if s.err != nil {
		return Settings{}, s.err
	}
	now := s.clock.Now()
	s.poll(now)
	if s.err == nil && s.set.Players == 0 {
		s.timeouts(now)
	}
	if s.err != nil {
		return Settings{}, s.err
	}
	if s.set.Players == 0 {
		s.call(now)
	}
	return s.set, nil
}
