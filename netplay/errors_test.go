package netplay

import (
	"net/netip"
	"testing"
	"time"
)

// TestErrorsNumberPlayersFromOne: errors number players as the flags and
// the docs do, from 1, and name a spectator's host as the host.
func TestErrorsNumberPlayersFromOne(t *testing.T) {
	addr := netip.MustParseAddrPort("127.0.0.1:7000")
	for _, c := range []struct {
		err  error
		want string
	}{
		{&DisconnectError{Player: 1, Addr: addr, Left: true}, "netplay: player 2 (127.0.0.1:7000) left"},
		{&DisconnectError{Player: 0, Addr: addr, Silence: 2016 * time.Millisecond}, "netplay: player 1 (127.0.0.1:7000) silent for 2.016s: disconnected"},
		{&DisconnectError{Player: -1, Addr: addr, Silence: 2 * time.Second}, "netplay: the host (127.0.0.1:7000) silent for 2s: disconnected"},
		{desync(120, 3, 0, 0), "netplay: desync before tick 120, reported by player 4"},
		{desync(120, 0, 1, 2), "netplay: desync before tick 120: player 1's state hash is 0000000000000002, ours 0000000000000001"},
		{desync(60, -1, 1, 2), "netplay: desync before tick 60: the host's state hash is 0000000000000002, ours 0000000000000001"},
	} {
		if got := c.err.Error(); got != c.want {
			t.Errorf("got  %q\nwant %q", got, c.want)
		}
	}
}
