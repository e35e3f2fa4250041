// Package lint tests make lint's own checks that are not Go programs (the
// conflict-marker search, make conflicts) and what the guides must not
// do (repeat a paragraph). It has no code.
package lint
