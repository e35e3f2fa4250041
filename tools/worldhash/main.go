// Command worldhash runs fixstep's determinism scenes and checks their
// world hashes against the golden ones committed beside it: the physics
// scenes, detmath's golden series and the demo's own world. The same
// source must give the same hashes on every CPU and build, and `make
// cross` runs this program built for amd64 (GOAMD64=v1 and v3), 386,
// arm64 and s390x (big-endian), and as debugger builds (-gcflags=all=-N -l)
// for amd64 v3 and arm64, the foreign ones under qemu-user.
//
//	worldhash           check, print each scene's hash, exit 1 on a mismatch
//	worldhash -print    print the hashes in golden.txt's form
//	worldhash -scene S  check only scene S (cross.sh runs a process a scene)
//	worldhash -probe    exit 0 at once: cross.sh's check that a build runs here
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
)

//go:embed golden.txt
var golden string

func main() {
	print := flag.Bool("print", false, "print the hashes in golden.txt's form and exit")
	probe := flag.Bool("probe", false, "exit 0 at once: cross.sh's check that this build runs here")
	only := flag.String("scene", "", "check only this scene")
	flag.Parse()
	if *probe {
		return
	}
	if err := run(os.Stdout, *print, *only); err != nil {
		fmt.Fprintln(os.Stderr, "worldhash:", err)
		os.Exit(1)
	}
}

// run checks the scenes (only the one named only, unless it is ""), or
// prints their hashes.
func run(out io.Writer, print bool, only string) error {
	want, err := parseGolden(golden)
	if err != nil && !print {
		return err
	}
	var bad []string
	found := false
	for _, s := range scenes {
		if only != "" && s.name != only {
			continue
		}
		found = true
		h, err := s.run()
		if err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
		if print {
			fmt.Fprintf(out, "%s %016x\n", s.name, h)
			continue
		}
		mark := "ok"
		if w, ok := want[s.name]; !ok {
			mark = "NO GOLDEN HASH"
			bad = append(bad, s.name)
		} else if w != h {
			mark = fmt.Sprintf("DIFFERS from the golden %016x", w)
			bad = append(bad, s.name)
		}
		fmt.Fprintf(out, "%-8s %016x %s (%s/%s)\n", s.name, h, mark, runtime.GOARCH, runtime.Compiler)
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
