package profile

import "time"

// ThreadCPU returns the CPU time the calling OS thread has used, and
// whether this system can say (Linux: CLOCK_THREAD_CPUTIME_ID). On a
// locked thread, such as a game's main one, the difference of two calls
// is that thread's own work: what a benchmark of the frame's CPU cost
// wants on a shared machine, where other processes inflate the clock.
func ThreadCPU() (time.Duration, bool) { return threadCPU() }

// ProcessCPU returns the CPU time the process has used, user and system,
// every thread's (a software rasterizer's included), and whether this
// system can say (Unix: getrusage).
func ProcessCPU() (time.Duration, bool) { return processCPU() }
