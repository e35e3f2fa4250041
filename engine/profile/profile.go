// Package profile gives a game the standard profiling flags in one call:
// -cpuprofile, -memprofile, -trace and -pprof. Every profile is flushed by
// Stop, which a game defers in its run function so that each clean exit
// (Escape, the close button, -frames) writes complete files.
//
//	var prof profile.Flags
//	prof.Register(flag.CommandLine)
//	flag.Parse()
//	session, err := prof.Start()
//	if err != nil { ... }
//	defer session.Stop()
//	cfg := engine.Config{ProfilePhases: session.Active()}
//
// It imports only the standard library.
package profile

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"path/filepath"
	"runtime"
	rpprof "runtime/pprof"
	"runtime/trace"
	"time"
)

// Flags are the profiling flags. The zero value profiles nothing.
type Flags struct {
	// CPU is the CPU profile's file.
	CPU string
	// Mem is the allocation profile's file, written at Stop. While it is
	// set every allocation is recorded (runtime.MemProfileRate = 1): a
	// frame should allocate nothing, so a single allocation is worth
	// finding, and the default rate would miss it.
	Mem string
	// Trace is the runtime/trace execution trace's file.
	Trace string
	// Addr serves net/http/pprof there; a bare port (":6060") listens on
	// 127.0.0.1 only.
	Addr string
}

// Register adds -cpuprofile, -memprofile, -trace and -pprof to fs.
func (f *Flags) Register(fs *flag.FlagSet) {
	fs.StringVar(&f.CPU, "cpuprofile", "", "write a CPU profile to this file")
	fs.StringVar(&f.Mem, "memprofile", "", "write a profile of every allocation to this file at exit")
	fs.StringVar(&f.Trace, "trace", "", "write a runtime/trace execution trace to this file")
	fs.StringVar(&f.Addr, "pprof", "", `serve net/http/pprof on this address (":6060" means 127.0.0.1:6060)`)
}

// Session is the profiles a Start began.
type Session struct {
	cpu, trace *output
	mem        *output
	server     *http.Server
	addr       string
}

// output is a profile being written: to a temporary file beside its path,
// renamed over the path only when everything was written, so a full disk
// or a failed start never leaves a truncated profile nor touches a file
// already there. It remembers the first write error.
type output struct {
	flag, path string
	f          *os.File
	err        error
}

func create(flag, path string) (*output, error) {
	if err := checkPath(path); err != nil {
		return nil, fmt.Errorf("profile: %s %s: %w", flag, path, err)
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the temporary file's name says nothing to the user
		}
		return nil, fmt.Errorf("profile: %s %s: cannot write there: %w", flag, path, err)
	}
	return &output{flag: flag, path: path, f: f}, nil
}

// checkPath refuses a path that names something other than a regular file
// (a directory, a device): a profile replaces what is there.
func checkPath(path string) error {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case !fi.Mode().IsRegular():
		return fmt.Errorf("not a regular file (%v)", fi.Mode().Type())
	}
	return nil
}

func (o *output) Write(p []byte) (int, error) {
	if o.err != nil {
		return 0, o.err
	}
	n, err := o.f.Write(p)
	o.err = err
	return n, err
}

// finish closes the file and renames it over the path, or removes it and
// says why the profile could not be written.
func (o *output) finish() error {
	err := errors.Join(o.err, o.f.Chmod(0o644), o.f.Sync(), o.f.Close()) // CreateTemp makes 0600
	if err == nil {
		err = os.Rename(o.f.Name(), o.path)
	}
	if err != nil {
		os.Remove(o.f.Name())
		return fmt.Errorf("profile: %s %s not written: %w", o.flag, o.path, err)
	}
	return nil
}

// end finishes the output, or discards it.
func (o *output) end(discard bool) error {
	if discard {
		o.discard()
		return nil
	}
	return o.finish()
}

// discard removes an output that was never finished.
func (o *output) discard() {
	o.f.Close()
	os.Remove(o.f.Name())
}

// Start begins the profiles f asks for. On error it stops what it started
// and leaves no file behind. The same path for two profiles is an error.
func (f Flags) Start() (*Session, error) {
	s := &Session{}
	if err := s.start(f); err != nil {
		for _, o := range []*output{s.cpu, s.trace, s.mem} {
			if o != nil {
				o.discard()
			}
		}
		if s.cpu != nil {
			rpprof.StopCPUProfile()
		}
		if s.trace != nil {
			trace.Stop()
		}
		if s.server != nil {
			s.server.Close()
		}
		return &Session{}, err
	}
	return s, nil
}

// Outputs returns the files the flags ask to write, by flag name, for a
// command to check against its other outputs and inputs.
func (f Flags) Outputs() map[string]string {
	m := map[string]string{}
	for flag, p := range map[string]string{"-cpuprofile": f.CPU, "-memprofile": f.Mem, "-trace": f.Trace} {
		if p != "" {
			m[flag] = p
		}
	}
	return m
}

func (s *Session) start(f Flags) error {
	if f.Mem != "" && (f.Mem == f.CPU || f.Mem == f.Trace) || f.CPU != "" && f.CPU == f.Trace {
		return errors.New("profile: -cpuprofile, -memprofile and -trace need three different files")
	}
	if f.Mem != "" {
		// Opened now, like every output: a run that could not write its
		// profile at the end never starts.
		o, err := create("-memprofile", f.Mem)
		if err != nil {
			return err
		}
		s.mem = o
		runtime.MemProfileRate = 1
	}
	if f.CPU != "" {
		o, err := create("-cpuprofile", f.CPU)
		if err != nil {
			return err
		}
		s.cpu = o
		if err := rpprof.StartCPUProfile(o); err != nil {
			s.cpu = nil
			o.discard()
			return fmt.Errorf("profile: -cpuprofile: %w", err)
		}
	}
	if f.Trace != "" {
		o, err := create("-trace", f.Trace)
		if err != nil {
			return err
		}
		s.trace = o
		if err := trace.Start(o); err != nil {
			s.trace = nil
			o.discard()
			return fmt.Errorf("profile: -trace: %w", err)
		}
	}
	if f.Addr != "" {
		addr := f.Addr
		if host, port, err := net.SplitHostPort(addr); err == nil && host == "" {
			addr = net.JoinHostPort("127.0.0.1", port)
		}
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			return fmt.Errorf("profile: -pprof: %w", err)
		}
		mux := http.NewServeMux()
		mux.HandleFunc("/debug/pprof/", pprof.Index)
		mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
		mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
		mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
		mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
		s.server = &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
		s.addr = ln.Addr().String()
		go s.server.Serve(ln)
	}
	return nil
}

// Active reports whether a CPU profile, trace or pprof server runs: then
// the loop should label its phases (engine.Config.ProfilePhases).
func (s *Session) Active() bool { return s.cpu != nil || s.trace != nil || s.server != nil }

// Addr returns the pprof server's address, "" when there is none.
func (s *Session) Addr() string { return s.addr }

// Stop flushes every profile and puts each in its place; it is safe to
// call twice. A profile that could not be written completely (a full disk)
// is an error naming it, and no truncated file is left.
func (s *Session) Stop() error {
	return s.stop(false)
}

// Discard stops every profile like Stop but writes none: each stays as it
// was at its path, or absent. Call it instead of Stop when the run failed
// before its loop started (a bad flag, a bindings file that does not
// parse, no display), so a failed start never replaces the profile of an
// earlier run. Safe after Stop, and twice.
func (s *Session) Discard() {
	s.stop(true)
}

func (s *Session) stop(discard bool) error {
	var errs []error
	if s.cpu != nil {
		rpprof.StopCPUProfile()
		errs = append(errs, s.cpu.end(discard))
		s.cpu = nil
	}
	if s.trace != nil {
		trace.Stop()
		errs = append(errs, s.trace.end(discard))
		s.trace = nil
	}
	if s.mem != nil {
		if !discard {
			runtime.GC() // up-to-date statistics
			if err := rpprof.Lookup("allocs").WriteTo(s.mem, 0); err != nil && s.mem.err == nil {
				s.mem.err = err
			}
		}
		errs = append(errs, s.mem.end(discard))
		s.mem = nil
	}
	if s.server != nil {
		errs = append(errs, s.server.Close())
		s.server = nil
	}
	return errors.Join(errs...)
}
