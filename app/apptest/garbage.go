package apptest

import (
	"regexp"
	"strings"
	"testing"
)

// noGarbage is what a stats line says of a steady state without garbage.
var noGarbage = regexp.MustCompile(` allocs_per_frame=0\.000 gc_cycles=0\b`)

// GarbageRuns is how many runs NoGarbage makes at most.
const GarbageRuns = 5

// NoGarbage runs the game with args (Run) until a run's stats line says
// its steady state allocated nothing and never ran the GC
// ("allocs_per_frame=0.000 gc_cycles=0"), at most GarbageRuns times, and
// returns that run's stderr. If no run does, it fails t with every run's
// stats line.
//
// Why more than one run: the count is the whole process's, exact, and on
// a loaded machine it can take in a few allocations of the runtime's own
// that no frame made: the first wait of a goroutine started at start-up
// (a sudog for each channel it waits on) when the scheduler runs it only
// after the warm-up. Seen as up to 0.012 a frame (6 in a run) in about one
// run in three beside a full make test. A game that allocates in its
// frames does so in every run, and fails every one.
func NoGarbage(t testing.TB, args ...string) (stderr string) {
	t.Helper()
	var seen []string
	for range GarbageRuns {
		_, stderr = Run(t, args...)
		if noGarbage.MatchString(stderr) {
			if len(seen) > 0 {
				t.Logf("%q: garbage in %d runs before this one, which has none:\n%s", args, len(seen), strings.Join(seen, ""))
			}
			return stderr
		}
		seen = append(seen, statsLine(stderr))
	}
	t.Errorf("%q: garbage in the steady state of every one of %d runs:\n%s", args, GarbageRuns, strings.Join(seen, ""))
	return stderr
}

// statsLine returns the line of out that starts "stats ", with its
// newline, or all of out if none does.
func statsLine(out string) string {
	for line := range strings.Lines(out) {
		if strings.HasPrefix(line, "stats ") {
			return line
		}
	}
	return out
}
