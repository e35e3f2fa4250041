//go:build cgo

package gfx

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDeps keeps gfx the platform and the renderer: the application
// around them (flags, modes, networking, recordings, profiles) is package
// app's, which imports gfx, never the other way round.
func TestDeps(t *testing.T) {
	const mod = "github.com/fixstep/fixstep/"
	forbidden := map[string]string{
		mod + "netplay":        "networked play is a mode of the application (package app), not of the window",
		mod + "replay":         "recording and replay are modes of the application (package app)",
		mod + "engine/profile": "the profiling flags are the application's (package app)",
		mod + "app":            "app runs games on gfx: gfx must not depend on it",
	}
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", mod+"gfx").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list found only %d dependencies of gfx: %q", len(deps), deps)
	}
	for _, d := range deps {
		if why, bad := forbidden[d]; bad {
			t.Errorf("gfx depends on %s: %s", d, why)
		}
	}
}
