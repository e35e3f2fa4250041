package netplay

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestDeps keeps the package pure: no cgo, no SDL, no OpenGL, so a
// dedicated server or a test runs it headless, built with CGO_ENABLED=0.
func TestDeps(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, p := range strings.Fields(string(out)) {
		for _, bad := range []string{"github.com/veandco/go-sdl2", "github.com/go-gl/gl", "runtime/cgo"} {
			if p == bad || strings.HasPrefix(p, bad+"/") {
				t.Errorf("netplay depends on %s", p)
			}
		}
	}
}
