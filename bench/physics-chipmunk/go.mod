module github.com/fixstep/fixstep/bench/physics-chipmunk

go 1.26.0

require (
	github.com/fixstep/fixstep v0.0.0
	github.com/jakecoffman/cp/v2 v2.1.0
)

// This checkout is the engine under test.
replace github.com/fixstep/fixstep => ../..
