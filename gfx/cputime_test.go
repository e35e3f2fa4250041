package gfx

import (
	"testing"
	"time"

	"github.com/fixstep/fixstep/engine/profile"
)

// threadCPU is the benchmarks' clock: the locked main thread's own CPU
// time (Linux), which a shared machine inflates less than the wall clock.
func threadCPU() (time.Duration, bool) { return profile.ThreadCPU() }

// reportCPU reports the thread's CPU time since cpu0 (when ok) divided by
// n as cpu-ns/op.
func reportCPU(b *testing.B, cpu0 time.Duration, ok bool, n int) {
	if cpu1, ok1 := threadCPU(); ok && ok1 && n > 0 {
		b.ReportMetric(float64((cpu1-cpu0).Nanoseconds())/float64(n), "cpu-ns/op")
	}
}
