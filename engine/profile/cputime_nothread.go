//go:build !linux

package profile

import "time"

func threadCPU() (time.Duration, bool) { return 0, false }
