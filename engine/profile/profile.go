// Package profile gives a game the standard profiling flags in one call:
// -cpuprofile, -memprofile, -trace and -pprof. Every profile is flushed by
// Stop, which a game defers in its run function so that each clean exit
// (Escape, the close button, -frames) writes complete files.
//
//	var prof profile.Flags
//	prof.Register(flag.CommandLine)
//	flag.Parse()
//	capture, err := prof.Start()
//	if err != nil { ... }
//	defer capture.Stop()
//	cfg := engine.Config{ProfilePhases: capture.Active()}
//
// ThreadCPU and ProcessCPU are CPU clocks for benchmarks on shared
// machines, where the wall clock measures the neighbours too. It imports
// only the standard library.
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

// Capture is the profiles a Start began, written until Stop: the CPU
// profile, the allocation profile, the execution trace and the pprof
// server the Flags ask for.
type Capture struct {
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
func (f Flags) Start() (*Capture, error) {
	c := &Capture{}
	if err := c.start(f); err != nil {
		for _, o := range []*output{c.cpu, c.trace, c.mem} {
			if o != nil {
				o.discard()
			}
		}
		if c.cpu != nil {
			rpprof.StopCPUProfile()
		}
		if c.trace != nil {
			trace.Stop()
		}
		if c.server != nil {
			c.server.Close()
		}
		return &Capture{}, err
	}
	return c, nil
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

func (c *Capture) start(f Flags) error {
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
		c.mem = o
		runtime.MemProfileRate = 1
	}
	if f.CPU != "" {
		o, err := create("-cpuprofile", f.CPU)
		if err != nil {
			return err
		}
		c.cpu = o
		if err := rpprof.StartCPUProfile(o); err != nil {
			c.cpu = nil
			o.discard()
			return fmt.Errorf("profile: -cpuprofile: %w", err)
		}
	}
	if f.Trace != "" {
		o, err := create("-trace", f.Trace)
		if err != nil {
			return err
		}
		c.trace = o
		if err := trace.Start(o); err != nil {
			c.trace = nil
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
		c.server = &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
		c.addr = ln.Addr().String()
		go c.server.Serve(ln)
	}
	return nil
}

// Active reports whether a CPU profile, trace or pprof server runs: then
// the loop should label its phases (engine.Config.ProfilePhases).
func (c *Capture) Active() bool { return c.cpu != nil || c.trace != nil || c.server != nil }

// Addr returns the pprof server's address, "" when there is none.
func (c *Capture) Addr() string { return c.addr }

// Stop flushes every profile and puts each in its place; it is safe to
// call twice. A profile that could not be written completely (a full disk)
// is an error naming it, and no truncated file is left.
func (c *Capture) Stop() error {
	return c.stop(false)
}

// Discard stops every profile like Stop but writes none: each stays as it
// was at its path, or absent. Call it instead of Stop when the run failed
// before its loop started (a bad flag, a bindings file that does not
// parse, no display), so a failed start never replaces the profile of an
// earlier run. Safe after Stop, and twice.
func (c *Capture) Discard() {
	c.stop(true)
}

func (c *Capture) stop(discard bool) error {
	var errs []error
	if c.cpu != nil {
		rpprof.StopCPUProfile()
		errs = append(errs, c.cpu.end(discard))
		c.cpu = nil
	}
	if c.trace != nil {
		trace.Stop()
		errs = append(errs, c.trace.end(discard))
		c.trace = nil
	}
	if c.mem != nil {
		if !discard {
			runtime.GC() // up-to-date statistics
			if err := rpprof.Lookup("allocs").WriteTo(c.mem, 0); err != nil && c.mem.err == nil {
				c.mem.err = err
			}
		}
		errs = append(errs, c.mem.end(discard))
		c.mem = nil
	}
	if c.server != nil {
		errs = append(errs, c.server.Close())
		c.server = nil
	}
	return errors.Join(errs...)
}
