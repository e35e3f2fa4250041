package engine

import "fmt"

// DesyncError is what a run returns when its state differs from another
// run's of the same inputs: a recording's, checked by a replay (package
// replay), or a peer's, checked in a netplay match (package netplay).
// Both compare hashes of the game's saved state (Saver), so the cause is
// one of those a sync test finds (see SyncError), or another build or
// version of the game's simulating code. (A SyncError is the other
// meaning: one run whose tick runs differently the second time.)
//
// The packages that return it wrap it with their own prefix
// ("replay run.fxr: desync before tick 240: ..."); find it with
// errors.As.
type DesyncError struct {
	// Tick is the tick before which the two states were hashed: both runs
	// had run ticks 0 to Tick-1 (0: the state before the first tick).
	Tick uint64
	// Other names the run whose state differs from this one's: "the
	// recording", "player 2", "the host" (a spectator's).
	Other string
	// Ours and Theirs are the two state hashes; both zero when the other
	// run found the difference and reported it.
	Ours, Theirs uint64
}

// Error names the tick, the other run and the two hashes.
func (e *DesyncError) Error() string {
	if e.Ours == 0 && e.Theirs == 0 {
		return fmt.Sprintf("desync before tick %d, reported by %s", e.Tick, e.Other)
	}
	return fmt.Sprintf("desync before tick %d: %s's state hash is %016x, ours %016x", e.Tick, e.Other, e.Theirs, e.Ours)
}
