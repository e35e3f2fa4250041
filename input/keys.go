package input

import (
	"strconv"
	"strings"
)

// Key is a physical key, numerically equal to its SDL scancode (the USB HID
// usage), so it names a position on the keyboard whatever the layout: KeyW
// is the key right of Q on QWERTY and right of A on AZERTY.
type Key uint16

// NumKeys bounds Key values (SDL_NUM_SCANCODES).
const NumKeys = 512

// Keys, by SDL scancode.
const (
	KeyUnknown Key = 0

	KeyA Key = 4 + iota - 1
	KeyB
	KeyC
	KeyD
	KeyE
	KeyF
	KeyG
	KeyH
	KeyI
	KeyJ
	KeyK
	KeyL
	KeyM
	KeyN
	KeyO
	KeyP
	KeyQ
	KeyR
	KeyS
	KeyT
	KeyU
	KeyV
	KeyW
	KeyX
	KeyY
	KeyZ
	Key1
	Key2
	Key3
	Key4
	Key5
	Key6
	Key7
	Key8
	Key9
	Key0
	KeyReturn
	KeyEscape
	KeyBackspace
	KeyTab
	KeySpace
	KeyMinus
	KeyEquals
	KeyLeftBracket
	KeyRightBracket
	KeyBackslash
)

// More keys, by SDL scancode.
const (
	KeySemicolon    Key = 51
	KeyApostrophe   Key = 52
	KeyGrave        Key = 53
	KeyComma        Key = 54
	KeyPeriod       Key = 55
	KeySlash        Key = 56
	KeyCapsLock     Key = 57
	KeyF1           Key = 58
	KeyF2           Key = 59
	KeyF3           Key = 60
	KeyF4           Key = 61
	KeyF5           Key = 62
	KeyF6           Key = 63
	KeyF7           Key = 64
	KeyF8           Key = 65
	KeyF9           Key = 66
	KeyF10          Key = 67
	KeyF11          Key = 68
	KeyF12          Key = 69
	KeyPrintScreen  Key = 70
	KeyScrollLock   Key = 71
	KeyPause        Key = 72
	KeyInsert       Key = 73
	KeyHome         Key = 74
	KeyPageUp       Key = 75
	KeyDelete       Key = 76
	KeyEnd          Key = 77
	KeyPageDown     Key = 78
	KeyRight        Key = 79
	KeyLeft         Key = 80
	KeyDown         Key = 81
	KeyUp           Key = 82
	KeyNumLock      Key = 83
	KeyKPDivide     Key = 84
	KeyKPMultiply   Key = 85
	KeyKPMinus      Key = 86
	KeyKPPlus       Key = 87
	KeyKPEnter      Key = 88
	KeyKP1          Key = 89
	KeyKP2          Key = 90
	KeyKP3          Key = 91
	KeyKP4          Key = 92
	KeyKP5          Key = 93
	KeyKP6          Key = 94
	KeyKP7          Key = 95
	KeyKP8          Key = 96
	KeyKP9          Key = 97
	KeyKP0          Key = 98
	KeyKPPeriod     Key = 99
	KeyLeftControl  Key = 224
	KeyLeftShift    Key = 225
	KeyLeftAlt      Key = 226
	KeyLeftGUI      Key = 227
	KeyRightControl Key = 228
	KeyRightShift   Key = 229
	KeyRightAlt     Key = 230
	KeyRightGUI     Key = 231
)

// keyNames are SDL's scancode names, as SDL_GetScancodeName spells them.
var keyNames = map[Key]string{
	KeyReturn: "Return", KeyEscape: "Escape", KeyBackspace: "Backspace", KeyTab: "Tab",
	KeySpace: "Space", KeyMinus: "-", KeyEquals: "=", KeyLeftBracket: "[", KeyRightBracket: "]",
	KeyBackslash: "\\", KeySemicolon: ";", KeyApostrophe: "'", KeyGrave: "`", KeyComma: ",",
	KeyPeriod: ".", KeySlash: "/", KeyCapsLock: "CapsLock",
	KeyPrintScreen: "PrintScreen", KeyScrollLock: "ScrollLock", KeyPause: "Pause",
	KeyInsert: "Insert", KeyHome: "Home", KeyPageUp: "PageUp", KeyDelete: "Delete", KeyEnd: "End",
	KeyPageDown: "PageDown", KeyRight: "Right", KeyLeft: "Left", KeyDown: "Down", KeyUp: "Up",
	KeyNumLock: "Numlock", KeyKPDivide: "Keypad /", KeyKPMultiply: "Keypad *", KeyKPMinus: "Keypad -",
	KeyKPPlus: "Keypad +", KeyKPEnter: "Keypad Enter", KeyKPPeriod: "Keypad .",
	KeyLeftControl: "Left Ctrl", KeyLeftShift: "Left Shift", KeyLeftAlt: "Left Alt", KeyLeftGUI: "Left GUI",
	KeyRightControl: "Right Ctrl", KeyRightShift: "Right Shift", KeyRightAlt: "Right Alt", KeyRightGUI: "Right GUI",
}

func init() {
	for k := KeyA; k <= KeyZ; k++ {
		keyNames[k] = string(rune('A' + k - KeyA))
	}
	for k := Key1; k <= Key9; k++ {
		keyNames[k] = string(rune('1' + k - Key1))
	}
	keyNames[Key0] = "0"
	for k := KeyF1; k <= KeyF12; k++ {
		keyNames[k] = "F" + strconv.Itoa(int(k-KeyF1)+1)
	}
	for k := KeyKP1; k <= KeyKP9; k++ {
		keyNames[k] = "Keypad " + string(rune('1'+k-KeyKP1))
	}
	keyNames[KeyKP0] = "Keypad 0"
	for k, n := range keyNames { //fixvet:ignore key names are unique, even lower-cased: any order builds the same map
		keysByName[strings.ToLower(n)] = k
	}
}

var keysByName = map[string]Key{}

// String returns SDL's name for the key ("Space", "Left Shift", "F3").
func (k Key) String() string {
	if n, ok := keyNames[k]; ok {
		return n
	}
	return "Key(" + strconv.Itoa(int(k)) + ")"
}

// ParseKey returns the key with SDL's name n, in any case ("space", "F3").
func ParseKey(n string) (Key, bool) {
	k, ok := keysByName[strings.ToLower(n)]
	return k, ok
}
