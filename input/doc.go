// Package input turns platform events into per-tick input for a fixed-step
// game. State holds the keyboard (by Key, numerically SDL's scancodes), the
// mouse, typed text and gamepads in fixed arrays; its edges (Pressed,
// Released) are per tick, so a press is seen by exactly one update, never
// lost in a frame without updates and never doubled in a frame with
// several. Actions reads a State through Bindings (loaded from a small text
// file), so game code asks in.Pressed(Jump) and never names a key. A game
// turns them into its own per-tick input value (engine.Inputter), which its
// Update reads and package replay records: a State is never saved, since
// nothing that simulates reads it.
//
// The package is pure Go: the SDL adapter that feeds a State lives in gfx.
//
//fixvet:sim
package input
