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
//
// fps, p50_ms and p99_ms cover the whole run (frames over the real time
// they took, percentiles of every frame interval); fps_last and
// p99_last_ms are the last seconds' average and window. A game appends
// its own fields.
func (l *Loop) Report() string {
	s := &l.stats
	p50, p99 := l.RunPercentiles()
	return fmt.Sprintf("frames=%d ticks=%d fps=%.1f p50_ms=%.3f p99_ms=%.3f fps_last=%.1f p99_last_ms=%.3f dropped_ms=%.3f overruns=%d snapped=%d quality=%d quality_changes=%d quality_undone=%d",
		s.Frames, s.Ticks, l.mon.RunFPS(), ms(p50), ms(p99), s.FPS, ms(s.FrameP99),
		ms(s.Dropped), s.Overruns, s.Snapped, s.Quality, s.QualityChanges, s.QualityUndone)
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }
