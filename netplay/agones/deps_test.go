package agones

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestDeps keeps the package plain: the standard library only (no gRPC,
// no agones.dev modules) and no cgo, so a server built with
// CGO_ENABLED=0 fits a container FROM scratch.
func TestDeps(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, p := range strings.Fields(string(out)) {
		if p != "github.com/fixstep/fixstep/netplay/agones" {
			t.Errorf("agones depends on %s, outside the standard library", p)
		}
	}
}
