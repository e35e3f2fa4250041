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
	"net"
	"net/http"
	"net/http/pprof"
	"os"
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
	cpu, trace *os.File
	mem        *os.File
	server     *http.Server
	addr       string
}

// Start begins the profiles f asks for. On error it stops what it started.
func (f Flags) Start() (*Session, error) {
	s := &Session{}
	if err := s.start(f); err != nil {
		s.Stop()
		return &Session{}, err
	}
	return s, nil
}

func (s *Session) start(f Flags) error {
	if f.Mem != "" {
		// Opened now, like every output: a run that could not write its
		// profile at the end never starts.
		fh, err := os.Create(f.Mem)
		if err != nil {
			return fmt.Errorf("profile: -memprofile: %w", err)
		}
		s.mem = fh
		runtime.MemProfileRate = 1
	}
	if f.CPU != "" {
		fh, err := os.Create(f.CPU)
		if err != nil {
			return fmt.Errorf("profile: -cpuprofile: %w", err)
		}
		if err := rpprof.StartCPUProfile(fh); err != nil {
			fh.Close()
			return fmt.Errorf("profile: -cpuprofile: %w", err)
		}
		s.cpu = fh
	}
	if f.Trace != "" {
		fh, err := os.Create(f.Trace)
		if err != nil {
			return fmt.Errorf("profile: -trace: %w", err)
		}
		if err := trace.Start(fh); err != nil {
			fh.Close()
			return fmt.Errorf("profile: -trace: %w", err)
		}
		s.trace = fh
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

// Stop flushes and closes every profile; it is safe to call twice.
func (s *Session) Stop() error {
	var errs []error
	if s.cpu != nil {
		rpprof.StopCPUProfile()
		errs = append(errs, s.cpu.Close())
		s.cpu = nil
	}
	if s.trace != nil {
		trace.Stop()
		errs = append(errs, s.trace.Close())
		s.trace = nil
	}
	if s.mem != nil {
		runtime.GC() // up-to-date statistics
		if err := rpprof.Lookup("allocs").WriteTo(s.mem, 0); err != nil {
			errs = append(errs, fmt.Errorf("profile: -memprofile: %w", err))
		}
		errs = append(errs, s.mem.Close())
		s.mem = nil
	}
	if s.server != nil {
		errs = append(errs, s.server.Close())
		s.server = nil
	}
	return errors.Join(errs...)
}
