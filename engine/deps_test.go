package engine

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestDeps draws the cgo boundary: the pure packages run headless on
// servers, in tests and in tools, so they must never pull in SDL or OpenGL,
// nor cgo at all.
func TestDeps(t *testing.T) {
	forbidden := map[string]string{
		"github.com/veandco/go-sdl2": "SDL needs a display and cgo",
		"github.com/go-gl/gl":        "OpenGL needs a context and cgo",
		"runtime/cgo":                "the pure packages build with CGO_ENABLED=0",
		"C":                          "the pure packages build with CGO_ENABLED=0",
	}
	var pkgs []string
	for _, p := range []string{"engine", "physics", "input", "replay", "shaders", "detmath", "netplay", "save", "cmd/demo/arena", "tools",
		"audio/soundfile", "audio/internal/soundtest", "gfx/imagefile", "gfx/internal", "gfx/view", "app/apptest"} {
		if _, err := os.Stat("../" + p); err == nil {
			pkgs = append(pkgs, "github.com/fixstep/fixstep/"+p+"/...")
		}
	}
	args := append([]string{"list", "-deps", "-f", "{{.ImportPath}} {{join .Imports \" \"}}"}, pkgs...)
	cmd := exec.Command("go", args...)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		for _, imp := range fields[1:] {
			for bad, why := range forbidden {
				if imp == bad || strings.HasPrefix(imp, bad+"/") {
					t.Errorf("%s imports %s: %s", fields[0], imp, why)
				}
			}
		}
	}
}
