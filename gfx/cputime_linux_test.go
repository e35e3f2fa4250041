package gfx

import (
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// threadCPU returns the CPU time the calling OS thread has used
// (CLOCK_THREAD_CPUTIME_ID), so a benchmark on the locked main thread
// counts its own work and not the time other processes on a shared
// machine took from it.
func threadCPU() (time.Duration, bool) {
	const clockThreadCPUTime = 3
	var ts syscall.Timespec
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}

// reportCPU reports the thread's CPU time since cpu0 (when ok) divided by
// n as cpu-ns/op.
func reportCPU(b *testing.B, cpu0 time.Duration, ok bool, n int) {
	if cpu1, ok1 := threadCPU(); ok && ok1 && n > 0 {
		b.ReportMetric(float64((cpu1-cpu0).Nanoseconds())/float64(n), "cpu-ns/op")
	}
}
