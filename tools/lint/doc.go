// Package lint tests make lint's own checks, those that are not Go
// programs: the conflict-marker check (make conflicts). It has no code.
package lint
