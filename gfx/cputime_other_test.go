//go:build !linux

package gfx

import (
	"testing"
	"time"
)

// threadCPU reports no thread CPU clock outside Linux.
func threadCPU() (time.Duration, bool) { return 0, false }

// reportCPU reports nothing outside Linux.
func reportCPU(b *testing.B, cpu0 time.Duration, ok bool, n int) {}
