package engine

import (
	"fmt"
	"time"
)

// Report returns the run's figures as the "key=value" fields of a stats
// line printed at exit, the same in every fixstep program:
//
//	frames=1000 ticks=1020 fps=56.8 p50_ms=16.670 p99_ms=33.340 fps_last=59.9 p99_last_ms=17.100
//	dropped_ms=0.000 overruns=0 snapped=0 quality=3 quality_changes=1 quality_undone=0
//	allocs_per_frame=0.000 gc_cycles=0
//
// fps, p50_ms and p99_ms cover the whole run (frames over the real time
// they took, percentiles of every frame interval); fps_last and
// p99_last_ms are the last seconds' average and window; allocs_per_frame
// and gc_cycles, with Config.RuntimeStats, the steady state's garbage (see
// Runtime). A game appends its own fields (gfx.Report has the window's).
func (l *Loop) Report() string {
	s := &l.stats
	p50, p99 := l.RunPercentiles()
	return fmt.Sprintf("frames=%d ticks=%d fps=%.1f p50_ms=%.3f p99_ms=%.3f fps_last=%.1f p99_last_ms=%.3f dropped_ms=%.3f overruns=%d snapped=%d quality=%d quality_changes=%d quality_undone=%d",
		s.Frames, s.Ticks, l.mon.RunFPS(), ms(p50), ms(p99), s.FPS, ms(s.FrameP99),
		ms(s.Dropped), s.Overruns, s.Snapped, s.Quality, s.QualityChanges, s.QualityUndone) + l.garbage()
}

// garbage returns the steady-state garbage fields, with Config.RuntimeStats:
// allocations per frame and GC cycles after the first SteadyAfter frames
// ("n/a" for a run that never got there).
func (l *Loop) garbage() string {
	if l.runtime == nil {
		return ""
	}
	rt := &l.stats.Runtime
	if rt.SteadyFrames == 0 {
		return " allocs_per_frame=n/a gc_cycles=n/a"
	}
	return fmt.Sprintf(" allocs_per_frame=%.3f gc_cycles=%d", float64(rt.SteadyAllocs)/float64(rt.SteadyFrames), rt.SteadyGCs)
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }
