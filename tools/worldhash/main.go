// Command worldhash runs fixstep's determinism scenes and checks their
// world hashes against the golden ones committed beside it: the physics
// scenes, detmath's golden series and the demo's own world. The same
// source must give the same hashes on every CPU and build, and `make
// cross` runs this program built for amd64 (GOAMD64=v1 and v3), 386,
// arm64 and s390x (big-endian), and as debugger builds (-gcflags=all=-N -l)
// for amd64 v3 and arm64, the foreign ones under qemu-user.
//
//	worldhash             check, print each scene's hash, exit 1 on a mismatch
//	worldhash -print      print the hashes in golden.txt's form
//	worldhash -scene S    check only scene S (cross.sh runs a process a scene)
//	worldhash -workers L  check each scene stepped on each pool size in the
//	                      comma-separated list L (1: no pool; default 1)
//	worldhash -probe      exit 0 at once: cross.sh's check that a build runs here
//
// Every pool size must give the golden hash: the physics steps its worlds
// in blocks fixed by the world, never by its workers (physics.Workers).
//
// After a change that is meant to change the simulation, regenerate the
// golden file on any machine: go run ./tools/worldhash -print > tools/worldhash/golden.txt
package main

import (
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/fixstep/fixstep/physics"
)

//go:embed golden.txt
var golden string

func main() {
	print := flag.Bool("print", false, "print the hashes in golden.txt's form and exit")
	probe := flag.Bool("probe", false, "exit 0 at once: cross.sh's check that this build runs here")
	only := flag.String("scene", "", "check only this scene")
	list := flag.String("workers", "1", "check each scene stepped on each of these pool sizes, comma-separated (1: no pool)")
	flag.Parse()
	if *probe {
		return
	}
	workers, err := parseWorkers(*list)
	if err != nil {
		fmt.Fprintln(os.Stderr, "worldhash:", err)
		os.Exit(2)
	}
	if err := run(os.Stdout, *print, *only, workers...); err != nil {
		fmt.Fprintln(os.Stderr, "worldhash:", err)
		os.Exit(1)
	}
}

// run checks the scenes (only the one named only, unless it is ""), each
// stepped on a pool of each size in workers (none: 1), or prints their
// hashes (stepped on the first).
func run(out io.Writer, print bool, only string, workers ...int) error {
	want, err := parseGolden(golden)
	if err != nil && !print {
		return err
	}
	if len(workers) == 0 {
		workers = []int{1}
	}
	var bad []string
	found := false
	for _, s := range scenes {
		if only != "" && s.name != only {
			continue
		}
		found = true
		for _, n := range workers {
			h, err := runOn(s, n)
			if err != nil {
				return fmt.Errorf("%s: %w", s.name, err)
			}
			if print {
				fmt.Fprintf(out, "%s %016x\n", s.name, h)
				break
			}
			mark := "ok"
			if w, ok := want[s.name]; !ok {
				mark = "NO GOLDEN HASH"
				bad = append(bad, s.name)
			} else if w != h {
				mark = fmt.Sprintf("DIFFERS from the golden %016x", w)
				bad = append(bad, fmt.Sprintf("%s (%d workers)", s.name, n))
			}
			fmt.Fprintf(out, "%-8s %016x %s (%s/%s, %d workers)\n", s.name, h, mark, runtime.GOARCH, runtime.Compiler, n)
		}
	}
	if !found {
		return fmt.Errorf("-scene %q: no such scene", only)
	}
	if len(bad) > 0 {
		return fmt.Errorf("%s: another world on %s than the golden one (a fused multiply-add, math.Sin or map order in the simulation? see the README's Determinism section)",
			strings.Join(bad, ", "), runtime.GOARCH)
	}
	return nil
}

// runOn runs scene s with its worlds stepped on a pool of n workers.
func runOn(s scene, n int) (uint64, error) {
	var p *physics.Workers
	if n > 1 {
		p = physics.NewWorkers(n)
		p.MinBodies = 1 // the scenes are small: step them on the pool all the same
		defer p.Close()
	}
	return s.run(p)
}

// maxWorkers bounds -workers' sizes.
const maxWorkers = 256

// parseWorkers reads -workers' list: pool sizes, 1 to maxWorkers.
func parseWorkers(list string) ([]int, error) {
	var sizes []int
	for _, f := range strings.Split(list, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > maxWorkers {
			return nil, fmt.Errorf("-workers %q: %q is not a pool size from 1 to %d", list, f, maxWorkers)
		}
		sizes = append(sizes, n)
	}
	return sizes, nil
}

// parseGolden reads "name hex" lines.
func parseGolden(s string) (map[string]uint64, error) {
	m := map[string]uint64{}
	for i, line := range strings.Split(strings.TrimSpace(s), "\n") {
		name, hex, ok := strings.Cut(strings.TrimSpace(line), " ")
		v, err := strconv.ParseUint(hex, 16, 64)
		if !ok || err != nil {
			return nil, fmt.Errorf("golden.txt line %d: %q is not \"name hex\"", i+1, line)
		}
		m[name] = v
	}
	if len(m) == 0 {
		return nil, errors.New("golden.txt is empty")
	}
	return m, nil
}
