package main

import (
	"errors"
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

// processStart approximates the process's start: main's package variables
// are set just before main runs, after the runtime and every imported
// package have initialised.
var processStart = time.Now()

// profiler runs the profiles the flags ask for and flushes them on stop,
// which every exit path of run reaches (Escape, the close button, -frames,
// an error).
type profiler struct {
	cpu, trace *os.File
	memPath    string
	server     *http.Server
}

func startProfiles(o options) (*profiler, error) {
	p := &profiler{memPath: o.memprofile}
	if o.memprofile != "" {
		// Record every allocation: a frame must allocate nothing, so one
		// allocation is worth finding, and the default rate (one sample per
		// 512 KiB) would miss it.
		runtime.MemProfileRate = 1
	}
	if o.cpuprofile != "" {
		f, err := os.Create(o.cpuprofile)
		if err != nil {
			return p, fmt.Errorf("-cpuprofile: %w", err)
		}
		if err := rpprof.StartCPUProfile(f); err != nil {
			f.Close()
			return p, fmt.Errorf("-cpuprofile: %w", err)
		}
		p.cpu = f
	}
	if o.trace != "" {
		f, err := os.Create(o.trace)
		if err != nil {
			return p, fmt.Errorf("-trace: %w", err)
		}
		if err := trace.Start(f); err != nil {
			f.Close()
			return p, fmt.Errorf("-trace: %w", err)
		}
		p.trace = f
	}
	if o.pprof != "" {
		addr := o.pprof
		if host, port, err := net.SplitHostPort(addr); err == nil && host == "" {
			addr = net.JoinHostPort("127.0.0.1", port) // loopback unless a host is named
		}
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			return p, fmt.Errorf("-pprof: %w", err)
		}
		mux := http.NewServeMux()
		mux.HandleFunc("/debug/pprof/", pprof.Index)
		mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
		mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
		mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
		mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
		p.server = &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
		go p.server.Serve(ln)
		fmt.Fprintf(os.Stderr, "demo: pprof at http://%s/debug/pprof/\n", ln.Addr())
	}
	return p, nil
}

// active reports whether any profile runs, so the loop labels its phases.
func (p *profiler) active() bool { return p.cpu != nil || p.trace != nil || p.server != nil }

// stop flushes and closes every profile.
func (p *profiler) stop() error {
	var errs []error
	if p.cpu != nil {
		rpprof.StopCPUProfile()
		errs = append(errs, p.cpu.Close())
	}
	if p.trace != nil {
		trace.Stop()
		errs = append(errs, p.trace.Close())
	}
	if p.memPath != "" {
		f, err := os.Create(p.memPath)
		if err == nil {
			runtime.GC() // up-to-date statistics
			err = rpprof.Lookup("allocs").WriteTo(f, 0)
			errs = append(errs, f.Close())
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("-memprofile: %w", err))
		}
	}
	if p.server != nil {
		errs = append(errs, p.server.Close())
	}
	return errors.Join(errs...)
}
