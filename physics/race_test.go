//go:build race

package physics

// raceEnabled: the tests run under the race detector, many times slower.
const raceEnabled = true
