package engine

import (
	"context"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"runtime/trace"
	"time"
)

// Phase is a part of a frame, as profiles and traces name it.
type Phase int

// Frame phases.
const (
	PhaseBegin Phase = iota
	PhaseUpdate
	PhaseDraw
	PhasePresent
	PhaseEnd
	numPhases
)

var phaseNames = [numPhases]string{"begin", "update", "draw", "present", "end"}

// String returns the phase's name: the value of its "phase" pprof label and
// the name of its trace region.
func (p Phase) String() string { return phaseNames[p] }

// phases switches the goroutine's pprof labels and runtime/trace regions as
// a frame moves through its phases. The label contexts are built once, so a
// switch allocates nothing; a trace region allocates only while a trace is
// being recorded.
type phases struct {
	base   context.Context
	ctx    [numPhases]context.Context
	region *trace.Region
	frame  *trace.Region
}

func newPhases() *phases {
	p := &phases{base: context.Background()}
	for i := range p.ctx {
		p.ctx[i] = pprof.WithLabels(p.base, pprof.Labels("phase", phaseNames[i]))
	}
	return p
}

// enter ends the current phase and starts ph.
func (p *phases) enter(ph Phase) {
	p.exitRegion()
	pprof.SetGoroutineLabels(p.ctx[ph])
	if trace.IsEnabled() {
		if p.frame == nil {
			p.frame = trace.StartRegion(p.base, "frame")
		}
		p.region = trace.StartRegion(p.ctx[ph], phaseNames[ph])
	}
}

// done ends the frame's last phase.
func (p *phases) done() {
	p.exitRegion()
	if p.frame != nil {
		p.frame.End()
		p.frame = nil
	}
	pprof.SetGoroutineLabels(p.base)
}

func (p *phases) exitRegion() {
	if p.region != nil {
		p.region.End()
		p.region = nil
	}
}

// Runtime is what Go's runtime did, from runtime/metrics.
type Runtime struct {
	// FrameAllocBytes and FrameAllocs are what the last frame allocated on
	// the heap; zero in a steady state.
	FrameAllocBytes, FrameAllocs uint64
	// GCCycles counts garbage collections since start; GCPause estimates
	// the time the program spent stopped for them.
	GCCycles uint64
	GCPause  time.Duration
	// The steady state: SteadyFrames counts the frames after the first
	// SteadyAfter, less those a game excluded (Loop.ExcludeFrame, for a
	// screenshot); SteadyAllocs and SteadyGCs are their heap allocations
	// and garbage collections. Zero garbage means both stay 0.
	// SteadyAllocs is exact once Loop.Run returns (runtime.ReadMemStats,
	// tiny allocations included), an estimate while it runs
	// (runtime/metrics, which counts late).
	SteadyFrames, SteadyAllocs, SteadyGCs uint64
}

// SteadyAfter is how many frames of start-up the steady-state garbage count
// leaves out: the batch grows, the first contacts, the first quality
// changes.
const SteadyAfter = 120

// runtimeReader reads a few runtime metrics into preallocated samples, so
// reading them each frame allocates nothing.
type runtimeReader struct {
	samples          [4]metrics.Sample
	lastBytes, lastN uint64
	procs            float64
}

func newRuntimeReader() *runtimeReader {
	r := &runtimeReader{}
	for i, name := range [4]string{
		"/gc/heap/allocs:bytes", "/gc/heap/allocs:objects",
		"/gc/cycles/total:gc-cycles", "/cpu/classes/gc/pause:cpu-seconds",
	} {
		r.samples[i].Name = name
	}
	metrics.Read(r.samples[:])
	r.lastBytes, r.lastN = r.samples[0].Value.Uint64(), r.samples[1].Value.Uint64()
	return r
}

func (r *runtimeReader) read(out *Runtime) {
	metrics.Read(r.samples[:])
	b, n := r.samples[0].Value.Uint64(), r.samples[1].Value.Uint64()
	out.FrameAllocBytes, out.FrameAllocs = b-r.lastBytes, n-r.lastN
	r.lastBytes, r.lastN = b, n
	out.GCCycles = r.samples[2].Value.Uint64()
	// The pause metric is CPU time: the wall time paused times GOMAXPROCS.
	if r.procs == 0 {
		r.procs = float64(max(1, runtime.GOMAXPROCS(0)))
	}
	out.GCPause = time.Duration(r.samples[3].Value.Float64() / r.procs * 1e9)
}
