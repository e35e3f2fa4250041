package app

import (
	"strings"
	"testing"
)

// Each bad combination of the netplay flags is refused by Check, with an
// error naming the flag.
func TestNetFlagsCheck(t *testing.T) {
	for _, c := range []struct {
		f    Flags
		want string // "" for valid
	}{
		{Flags{}, ""},
		{Flags{Net: NetFlags{Host: ":7000"}}, ""},
		{Flags{Net: NetFlags{Host: "127.0.0.1:7000", NetSim: "latency=50ms", InputDelay: -1, MaxPrediction: 12}}, ""},
		{Flags{Net: NetFlags{Join: "127.0.0.1:7000"}}, ""},
		{Flags{Net: NetFlags{Spectate: "127.0.0.1:7000"}}, ""},
		{Flags{Record: "run.fxr", Net: NetFlags{Host: ":7000"}}, ""},
		{Flags{Net: NetFlags{Host: ":7000", Join: "127.0.0.1:7000"}}, "-host, -join, -spectate, -server and -connect"},
		{Flags{Net: NetFlags{Spectate: "127.0.0.1:7000", Join: "127.0.0.1:7000"}}, "-host, -join, -spectate, -server and -connect"},
		{Flags{Replay: "run.fxr", Net: NetFlags{Join: "127.0.0.1:7000"}}, "-replay"},
		{Flags{Net: NetFlags{Spectate: ":7000"}}, "-spectate \":7000\""},
		{Flags{SyncTest: 4, Net: NetFlags{Host: ":7000"}}, "-synctest"},
		{Flags{Net: NetFlags{Host: "7000"}}, "-host \"7000\""},
		{Flags{Net: NetFlags{Join: ":7000"}}, "-join \":7000\""},
		{Flags{Net: NetFlags{Join: "example.com"}}, "-join"},
		{Flags{Net: NetFlags{Host: ":7000", NetSim: "latency=50"}}, "-netsim"},
		{Flags{Net: NetFlags{Host: ":7000", InputDelay: 99}}, "-input-delay 99"},
		{Flags{Net: NetFlags{Host: ":7000", MaxPrediction: -2}}, "-max-prediction -2"},
		{Flags{Net: NetFlags{NetSim: "latency=50ms"}}, "need -host, -join, -spectate, -server or -connect"},
		{Flags{Net: NetFlags{Host: ":7000", Count: 4}}, ""},
		{Flags{Net: NetFlags{Spectate: "127.0.0.1:7000", Count: 3}}, ""},
		{Flags{Net: NetFlags{Spectate: "127.0.0.1:7000", NetSim: "loss=0.1"}}, ""},
		{Flags{Net: NetFlags{Host: ":7000", Count: 5}}, "-players 5: want 2 to 4"},
		{Flags{Net: NetFlags{Host: ":7000", Count: 1}}, "-players 1: want 2 to 4"},
		{Flags{Net: NetFlags{Join: "127.0.0.1:7000", Count: 3}}, "-players with -join"},
		{Flags{Net: NetFlags{Count: 3}}, "need -host, -join, -spectate, -server or -connect"},
		{Flags{Net: NetFlags{Server: ":7000", Count: 32}}, ""},
		{Flags{Record: "match.fxr", Net: NetFlags{Server: ":7000", NetSim: "loss=0.01"}}, ""},
		{Flags{Net: NetFlags{Connect: "127.0.0.1:7000", NetSim: "latency=50ms"}}, ""},
		{Flags{Net: NetFlags{Server: ":7000", Count: 33}}, "-players 33: a server seats 1 to 32"},
		{Flags{Net: NetFlags{Server: "7000"}}, "-server \"7000\""},
		{Flags{Net: NetFlags{Connect: ":7000"}}, "-connect \":7000\""},
		{Flags{Net: NetFlags{Server: ":7000", Connect: "127.0.0.1:7000"}}, "-host, -join, -spectate, -server and -connect"},
		{Flags{Net: NetFlags{Connect: "127.0.0.1:7000", Count: 3}}, "-players with -join or -connect"},
		{Flags{Net: NetFlags{Connect: "127.0.0.1:7000", InputDelay: 3}}, "-input-delay and -max-prediction are a peer's"},
		{Flags{Record: "c.fxr", Net: NetFlags{Connect: "127.0.0.1:7000"}}, "-record with -connect"},
		{Flags{Net: NetFlags{Server: ":7000", TransferRate: 8, SeatsPerAddr: 2}}, ""},
		{Flags{Net: NetFlags{TransferRate: 8}}, "-transfer-rate and -seats-per-addr are a server's"},
		{Flags{Net: NetFlags{Connect: "127.0.0.1:7000", SeatsPerAddr: 2}}, "-transfer-rate and -seats-per-addr are a server's"},
		{Flags{Net: NetFlags{Server: ":7000", TransferRate: -1}}, "-transfer-rate -1: want 1 to 100000 Mbit/s (0: 32)"},
		{Flags{Net: NetFlags{Server: ":7000", SeatsPerAddr: 41}}, "-seats-per-addr 41: want 1 to 40 (0: 4)"},
	} {
		err := c.f.Check(3)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%+v: Check = %v, want %q", c.f.Net, err, c.want)
		}
	}
}
