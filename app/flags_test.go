package app

import (
	"strings"
	"testing"
)

// Each bad combination of the netplay flags is refused by Check, with an
// error naming the flag.
func TestNetFlagsCheck(t *testing.T) {
	for _, c := range []struct {
		f    flags
		want string // "" for valid
	}{
		{flags{}, ""},
		{flags{Net: netFlags{Host: ":7000"}}, ""},
		{flags{Net: netFlags{Host: "127.0.0.1:7000", NetSim: "latency=50ms", InputDelay: -1, MaxPrediction: 12}}, ""},
		{flags{Net: netFlags{Join: "127.0.0.1:7000"}}, ""},
		{flags{Net: netFlags{Spectate: "127.0.0.1:7000"}}, ""},
		{flags{Record: "run.fxr", Net: netFlags{Host: ":7000"}}, ""},
		{flags{Net: netFlags{Host: ":7000", Join: "127.0.0.1:7000"}}, "-host, -join, -spectate, -server and -connect"},
		{flags{Net: netFlags{Spectate: "127.0.0.1:7000", Join: "127.0.0.1:7000"}}, "-host, -join, -spectate, -server and -connect"},
		{flags{Replay: "run.fxr", Net: netFlags{Join: "127.0.0.1:7000"}}, "-replay"},
		{flags{Net: netFlags{Spectate: ":7000"}}, "-spectate \":7000\""},
		{flags{SyncTest: 4, Net: netFlags{Host: ":7000"}}, "-synctest"},
		{flags{Net: netFlags{Host: "7000"}}, "-host \"7000\""},
		{flags{Net: netFlags{Join: ":7000"}}, "-join \":7000\""},
		{flags{Net: netFlags{Join: "example.com"}}, "-join"},
		{flags{Net: netFlags{Host: ":7000", NetSim: "latency=50"}}, "-netsim"},
		{flags{Net: netFlags{Host: ":7000", InputDelay: 99}}, "-input-delay 99"},
		{flags{Net: netFlags{Host: ":7000", MaxPrediction: -2}}, "-max-prediction -2"},
		{flags{Net: netFlags{NetSim: "latency=50ms"}}, "need -host, -join, -spectate, -server or -connect"},
		{flags{Net: netFlags{Host: ":7000", Count: 4}}, ""},
		{flags{Net: netFlags{Spectate: "127.0.0.1:7000", Count: 3}}, ""},
		{flags{Net: netFlags{Spectate: "127.0.0.1:7000", NetSim: "loss=0.1"}}, ""},
		{flags{Net: netFlags{Host: ":7000", Count: 5}}, "-players 5: want 2 to 4"},
		{flags{Net: netFlags{Host: ":7000", Count: 1}}, "-players 1: want 2 to 4"},
		{flags{Net: netFlags{Join: "127.0.0.1:7000", Count: 3}}, "-players with -join"},
		{flags{Net: netFlags{Count: 3}}, "need -host, -join, -spectate, -server or -connect"},
		{flags{Net: netFlags{Server: ":7000", Count: 32}}, ""},
		{flags{Record: "match.fxr", Net: netFlags{Server: ":7000", NetSim: "loss=0.01"}}, ""},
		{flags{Net: netFlags{Connect: "127.0.0.1:7000", NetSim: "latency=50ms"}}, ""},
		{flags{Net: netFlags{Server: ":7000", Count: 33}}, "-players 33: a server seats 1 to 32"},
		{flags{Net: netFlags{Server: "7000"}}, "-server \"7000\""},
		{flags{Net: netFlags{Connect: ":7000"}}, "-connect \":7000\""},
		{flags{Net: netFlags{Server: ":7000", Connect: "127.0.0.1:7000"}}, "-host, -join, -spectate, -server and -connect"},
		{flags{Net: netFlags{Connect: "127.0.0.1:7000", Count: 3}}, "-players with -join or -connect"},
		{flags{Net: netFlags{Connect: "127.0.0.1:7000", InputDelay: 3}}, ""},
		{flags{Net: netFlags{Connect: "127.0.0.1:7000", InputDelay: -1}}, ""},
		{flags{Net: netFlags{Spectate: "127.0.0.1:7000", InputDelay: 3}}, "-input-delay is a player's"},
		{flags{Net: netFlags{Server: ":7000", InputDelay: 3}}, "-input-delay is a player's"},
		{flags{Net: netFlags{Connect: "127.0.0.1:7000", MaxPrediction: 3}}, "-max-prediction is a peer's"},
		{flags{Record: "c.fxr", Net: netFlags{Connect: "127.0.0.1:7000"}}, "-record with -connect"},
		{flags{Net: netFlags{Server: ":7000", TransferRate: 8, SeatsPerAddr: 2}}, ""},
		{flags{Net: netFlags{TransferRate: 8}}, "-transfer-rate and -seats-per-addr are a server's"},
		{flags{Net: netFlags{Connect: "127.0.0.1:7000", SeatsPerAddr: 2}}, "-transfer-rate and -seats-per-addr are a server's"},
		{flags{Net: netFlags{Server: ":7000", TransferRate: -1}}, "-transfer-rate -1: want 1 to 100000 Mbit/s (0: 32)"},
		{flags{Net: netFlags{Server: ":7000", SeatsPerAddr: 41}}, "-seats-per-addr 41: want 1 to 40 (0: 4)"},
	} {
		err := c.f.check(3)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%+v: Check = %v, want %q", c.f.Net, err, c.want)
		}
	}
}
