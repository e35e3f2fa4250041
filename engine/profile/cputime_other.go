//go:build !unix

package profile

import "time"

func processCPU() (time.Duration, bool) { return 0, false }
