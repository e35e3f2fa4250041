package nocgo

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestNoCgoDeps: built without cgo, the runner (package app), gfx, audio
// and the programs import neither SDL's nor OpenGL's bindings: go list
// -deps, as the go command resolves the build with CGO_ENABLED=0 (a
// package that imports them and has no file for that build fails it).
func TestNoCgoDeps(t *testing.T) {
	const mod = "github.com/fixstep/fixstep/"
	cmd := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}",
		mod+"app", mod+"gfx", mod+"audio", mod+"cmd/demo", mod+"cmd/skeleton", mod+"cmd/newgame")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("CGO_ENABLED=0 go list -deps: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 50 {
		t.Fatalf("go list found only %d packages:\n%s", len(lines), out)
	}
	for _, pkg := range lines {
		for _, bad := range []string{"github.com/veandco/go-sdl2", "github.com/go-gl/gl/"} {
			if strings.HasPrefix(pkg, bad) {
				t.Errorf("%s is a dependency without cgo", pkg)
			}
		}
	}
}
