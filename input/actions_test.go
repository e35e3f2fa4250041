package input

import (
	"strings"
	"testing"
)

const (
	jump Action = iota
	left
	right
)

var names = map[string]Action{"jump": jump, "left": left, "right": right}

func TestParseBindings(t *testing.T) {
	src := `# the demo's
jump  = key:Space pad:A
left  = key:Left, key:A axis:LeftX-/0.25
right = key:Right mouse:Right
`
	m, err := ParseBindings(strings.NewReader(src), "test.bind", names)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range []Action{jump, left, right} {
		for _, b := range m.Of(a) {
			got = append(got, b.String())
		}
	}
	want := "key:Space pad:A key:Left key:A axis:LeftX-/0.25 key:Right mouse:Right"
	if strings.Join(got, " ") != want {
		t.Errorf("bindings %q, want %q", strings.Join(got, " "), want)
	}
}

func TestParseBindingsErrors(t *testing.T) {
	for src, want := range map[string]string{
		"jump = key:Space\nfly = key:F":               `test.bind:2: unknown action "fly"`,
		"jump = key:Spacebar":                         `test.bind:1: binding "key:Spacebar": unknown key "Spacebar"`,
		"jump = key:Space\nleft = key:Space":          "test.bind:2: key:Space is already bound to jump at line 1",
		"jump key:Space":                              `test.bind:1: want "action = bindings"`,
		"left = axis:LeftX-/2":                        `dead zone "2" must be a number in [0, 1)`,
		"jump = joystick:1":                           `unknown kind "joystick"`,
		"jump = pad:Z":                                `unknown gamepad button "Z"`,
		"left = axis:LeftX-/0.1\nright = axis:LeftX-": "axis:LeftX- is already bound to left at line 1",
	} {
		_, err := ParseBindings(strings.NewReader(src), "test.bind", names)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseBindings(%q) = %v, want an error containing %q", src, err, want)
		}
	}
}

func TestActions(t *testing.T) {
	var s State
	var m Bindings
	m.Bind(jump, KeyBinding(KeySpace), PadButtonBinding(PadA))
	m.Bind(right, KeyBinding(KeyRight), PadAxisBinding(PadLeftX, 1, 0.2))
	m.Bind(left, PadAxisBinding(PadLeftX, -1, 0.2))
	in := NewActions(&s, &m)

	s.PadAdded(0, 5)
	s.PadButtonEvent(0, PadA, true)
	if !in.Pressed(jump) || !in.Down(jump) {
		t.Error("pad A did not press jump")
	}
	s.EndTick()
	if in.Pressed(jump) || !in.Down(jump) {
		t.Error("jump pressed twice")
	}

	s.PadAxisEvent(0, PadLeftX, 0.6)
	if v := in.Value(right); v < 0.49 || v > 0.51 {
		t.Errorf("stick at 0.6 with dead zone 0.2: right = %v, want 0.5", v)
	}
	if in.Value(left) != 0 || !in.Pressed(right) {
		t.Errorf("left %v, right pressed %v: want 0 and true (0.6 is past AxisPress)", in.Value(left), in.Pressed(right))
	}
	s.PadAxisEvent(0, PadLeftX, 0.1)
	if in.Value(right) != 0 || !in.Released(right) {
		t.Error("stick inside the dead zone: want 0 and a release")
	}
	s.KeyEvent(KeyRight, true)
	if in.Value(right) != 1 {
		t.Errorf("key right: value %v, want 1", in.Value(right))
	}
}
