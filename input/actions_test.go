package input

import (
	"math"
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
		"left = axis:LeftX-/NaN":                      `test.bind:1: binding "axis:LeftX-/NaN": dead zone "NaN" must be a number in [0, 1)`,
		"left = axis:LeftX-/nan":                      `binding "axis:LeftX-/nan": dead zone "nan" must be`,
		"left = axis:LeftX-/+Inf":                     `binding "axis:LeftX-/+Inf": dead zone "+Inf" must be`,
		"left = axis:LeftX-/-0.1":                     `binding "axis:LeftX-/-0.1": dead zone "-0.1" must be`,
		"left = axis:LeftX-/0.99999999":               `binding "axis:LeftX-/0.99999999": dead zone "0.99999999" must be`,
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

// TestBindRefusesBadDeadZone: a dead zone that is NaN, infinite, negative
// or 1 and more (which would make Value NaN or infinite) is refused by
// Check with the binding and the value named, and Bind panics with that
// message, binding nothing.
func TestBindRefusesBadDeadZone(t *testing.T) {
	nan := float32(math.NaN())
	for _, c := range []struct {
		zone float32
		want string
	}{
		{nan, "input: binding axis:LeftX+: dead zone NaN must be a number in [0, 1)"},
		{float32(math.Inf(1)), "input: binding axis:LeftX+: dead zone +Inf must be a number in [0, 1)"},
		{-0.5, "input: binding axis:LeftX+: dead zone -0.5 must be a number in [0, 1)"},
		{1, "input: binding axis:LeftX+: dead zone 1 must be a number in [0, 1)"},
	} {
		b := PadAxisBinding(PadLeftX, 1, c.zone)
		if err := b.Check(); err == nil || err.Error() != c.want {
			t.Errorf("Check of dead zone %v: %v, want %q", c.zone, err, c.want)
		}
		var m Bindings
		func() {
			defer func() {
				if msg := recover(); msg != c.want {
					t.Errorf("Bind with dead zone %v: recovered %v, want %q", c.zone, msg, c.want)
				}
			}()
			m.Bind(right, b)
		}()
		if n := len(m.Of(right)); n != 0 {
			t.Errorf("Bind with dead zone %v bound %d controls", c.zone, n)
		}
	}
	for _, z := range []float32{0, 0.2, 0.99} {
		if err := PadAxisBinding(PadLeftX, 0, z).Check(); err != nil {
			t.Errorf("dead zone %v: %v", z, err)
		}
	}
}

// FuzzParseBinding: any text is refused or read as a binding that Bind
// accepts, that String writes back as the same binding, and whose Value
// is a finite number in [-1, 1] for any axis position.
func FuzzParseBinding(f *testing.F) {
	for _, s := range []string{"key:Space", "axis:LeftX-/0.25", "axis:LeftY+/NaN", "axis:RightX/1e-45", "pad:A", "mouse:Left", "axis:LeftX/-0", "axis:LeftX/0x1p-1"} {
		f.Add(s, float32(0.5))
	}
	f.Fuzz(func(t *testing.T, s string, pos float32) {
		b, err := ParseBinding(s)
		if err != nil {
			return
		}
		if err := b.Check(); err != nil {
			t.Fatalf("ParseBinding(%q) = %+v, which Check refuses: %v", s, b, err)
		}
		again, err := ParseBinding(b.String())
		if err != nil || again != b {
			t.Fatalf("ParseBinding(%q) = %+v, written %q, read back %+v, %v", s, b, b.String(), again, err)
		}
		if b.Source != FromPadAxis {
			return
		}
		var st State
		var m Bindings
		m.Bind(jump, b)
		st.PadAdded(0, 1)
		st.PadAxisEvent(0, PadAxis(b.Code), pos)
		if v := NewActions(&st, &m).Value(jump); !(v >= -1 && v <= 1) {
			t.Fatalf("binding %q with the axis at %v: Value %v", s, pos, v)
		}
	})
}
