//go:build !linux

package main

import "time"

// threadCPU reports no thread CPU clock outside Linux.
func threadCPU() (time.Duration, bool) { return 0, false }
