// Command udpflood sends garbage datagrams to a UDP address, to test that a
// netplay peer shrugs them off (make netplay-soak): half random bytes of
// random length, half shaped like the protocol (its magic and version, a
// random kind, a length its decoder meets), about -rate a second, for
// -for, from one socket. It prints how many it sent.
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"time"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "udpflood:", err)
		os.Exit(1)
	}
}

func run() error {
	rate := flag.Int("rate", 4000, "datagrams a second")
	dur := flag.Duration("for", time.Minute, "how long")
	seed := flag.Uint64("seed", 7, "random seed")
	flag.Parse()
	if flag.NArg() != 1 || *rate < 1 || *dur <= 0 {
		return fmt.Errorf("usage: udpflood [-rate N] [-for D] HOST:PORT")
	}
	c, err := net.Dial("udp", flag.Arg(0))
	if err != nil {
		return err
	}
	defer c.Close()
	r := rand.New(rand.NewPCG(*seed, 1))
	lengths := []int{8, 13, 25, 40, 50, 54, 64, 124, 508}
	buf := make([]byte, 600)
	sent := 0
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for end := time.Now().Add(*dur); time.Now().Before(end); <-tick.C {
		for range max(*rate/100, 1) {
			n := r.IntN(len(buf))
			if r.IntN(2) == 0 {
				n = lengths[r.IntN(len(lengths))]
			}
			for i := range n {
				buf[i] = byte(r.Uint32())
			}
			if n >= 4 && r.IntN(2) == 0 {
				buf[0], buf[1], buf[2], buf[3] = 'f', 'x', 1, byte(r.IntN(6))
			}
			c.Write(buf[:n]) // a refused datagram (nobody listening yet) is fine
			sent++
		}
	}
	fmt.Printf("udpflood: sent %d datagrams\n", sent)
	return nil
}
