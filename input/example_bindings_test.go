package input_test

import (
	"fmt"
	"strings"

	"github.com/fixstep/fixstep/input"
)

// Bindings from a file (here a string), read through Actions, with the
// State driven from code as the window would drive it: a press is seen by
// exactly one update, the hold by every update until the release.
func ExampleParseBindings() {
	// The game's own actions, numbered from 0 (inside the function, so no
	// other example of the package meets these names).
	const (
		Jump input.Action = iota
		Left
	)
	const file = `
jump = key:Space pad:A   # either one
left = key:Left key:A axis:LeftX-/0.2
`
	binds, err := input.ParseBindings(strings.NewReader(file), "bindings.txt", map[string]input.Action{"jump": Jump, "left": Left})
	if err != nil {
		fmt.Println(err)
		return
	}
	var state input.State
	in := input.NewActions(&state, binds)

	state.KeyEvent(input.KeySpace, true) // the platform saw Space go down
	fmt.Println("tick 1: jump pressed", in.Pressed(Jump), "down", in.Down(Jump), "left", in.Value(Left))
	state.EndTick() // the loop ends each tick

	state.KeyEvent(input.KeyA, true)
	fmt.Println("tick 2: jump pressed", in.Pressed(Jump), "down", in.Down(Jump), "left", in.Value(Left))
	state.EndTick()

	state.KeyEvent(input.KeySpace, false)
	fmt.Println("tick 3: jump released", in.Released(Jump), "down", in.Down(Jump))

	_, err = input.ParseBindings(strings.NewReader("jump = key:Spcae"), "bindings.txt", map[string]input.Action{"jump": Jump})
	fmt.Println(err)
	// Output:
	// tick 1: jump pressed true down true left 0
	// tick 2: jump pressed false down true left 1
	// tick 3: jump released true down false
	// bindings.txt:1: binding "key:Spcae": unknown key "Spcae"
}
