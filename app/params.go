package app

import (
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"
)

// A game's simulation flags (Options.SimFlags) travel in its Params, one
// line each after the game's own Params:
//
//	mygame v1
//	-n=300
//	-seed=1
//
// a value with a line break, or that starts with a quote, Go-quoted
// (strconv.Quote). A recording carries them, a server sends them to its
// clients, and netplay peers compare them; the runner sets them back on
// the game's flags, parsed by the flags themselves, before Configure.

// simFlags are a game's simulation flags, as the runner found them.
type simFlags struct {
	fs       *flag.FlagSet
	names    []string        // Options.SimFlags, in order
	explicit map[string]bool // those set on the command line
}

// newSimFlags checks that every name of Options.SimFlags is one of the
// game's own flags (one registered after the runner's: runner holds
// those), and notes which were set on the command line.
func newSimFlags(fs *flag.FlagSet, names []string, runner map[string]bool) (*simFlags, error) {
	s := &simFlags{fs: fs, names: names, explicit: map[string]bool{}}
	seen := map[string]bool{}
	for _, n := range names {
		if fs.Lookup(n) == nil || runner[n] {
			return nil, fmt.Errorf("app: Options.SimFlags names -%s, which is not one of the game's flags", n)
		}
		if seen[n] {
			return nil, fmt.Errorf("app: Options.SimFlags names -%s twice", n)
		}
		seen[n] = true
	}
	fs.Visit(func(f *flag.Flag) { s.explicit[f.Name] = true })
	return s, nil
}

// params returns base with the simulation flags' values, a line each.
func (s *simFlags) params(base string) (string, error) {
	if len(s.names) == 0 {
		return base, nil
	}
	if strings.Contains(base, "\n") {
		return "", fmt.Errorf("app: Params %q has a line break: with Options.SimFlags, the flags take the lines after it", base)
	}
	var b strings.Builder
	b.WriteString(base)
	for _, n := range s.names {
		v := s.fs.Lookup(n).Value.String()
		if strings.Contains(v, "\n") || strings.HasPrefix(v, `"`) {
			v = strconv.Quote(v)
		}
		fmt.Fprintf(&b, "\n-%s=%s", n, v)
	}
	return b.String(), nil
}

// errSimFlag is an error of a simulation flag's value that another run
// sent (a recording, a server).
var errSimFlag = errors.New("app: a simulation flag differs")

// set sets the simulation flags from params (a recording's or a
// server's, described by from: untrusted), before Configure, so that the
// game reads them parsed as from its command line. Lines that are not
// one of the game's simulation flags are an error naming them. With
// strict, a flag set on the command line to another value is an error
// naming the flag and both values (it wraps errSimFlag); without, the
// params win. It returns the flags that changed, as "-name=value (was
// old)".
func (s *simFlags) set(params, from string, strict bool) (changed []string, err error) {
	_, lines, _ := strings.Cut(params, "\n")
	if lines == "" {
		return nil, nil
	}
	for _, line := range strings.Split(lines, "\n") {
		name, v, ok := strings.Cut(strings.TrimPrefix(line, "-"), "=")
		if !ok || !strings.HasPrefix(line, "-") || !s.sim(name) {
			return nil, fmt.Errorf("%s: parameter %q: not one of this game's simulation flags (%s)", from, line, s.list())
		}
		if strings.HasPrefix(v, `"`) {
			if v, err = strconv.Unquote(v); err != nil {
				return nil, fmt.Errorf("%s: parameter %q: %v", from, line, err)
			}
		}
		f := s.fs.Lookup(name)
		old := f.Value.String()
		if err := f.Value.Set(v); err != nil {
			return nil, fmt.Errorf("%s: -%s=%s: %v", from, name, v, err)
		}
		if now := f.Value.String(); now != old {
			if strict && s.explicit[name] {
				f.Value.Set(old)
				return nil, fmt.Errorf("%w: -%s %s, but %s has -%s %s: run with -%s %s, or without -%s", errSimFlag, name, old, from, name, now, name, now, name)
			}
			changed = append(changed, fmt.Sprintf("-%s=%s (was %s)", name, now, old))
		}
	}
	return changed, nil
}

// sim reports whether name is a simulation flag.
func (s *simFlags) sim(name string) bool {
	for _, n := range s.names {
		if n == name {
			return true
		}
	}
	return false
}

// list names the simulation flags, for a message.
func (s *simFlags) list() string {
	if len(s.names) == 0 {
		return "it has none"
	}
	return "-" + strings.Join(s.names, ", -")
}
