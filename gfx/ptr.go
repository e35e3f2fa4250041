//go:build cgo

package gfx

import "unsafe"

// glPtr converts a typed pointer to the unsafe.Pointer GL calls take,
// without gl.Ptr's interface conversion (which allocates on the hot path).
func glPtr[T any](p *T) unsafe.Pointer { return unsafe.Pointer(p) }
