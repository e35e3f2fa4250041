package main

import (
	"errors"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// build builds fixvet into a temporary directory.
func build(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds fixvet and runs the go command")
	}
	bin := filepath.Join(t.TempDir(), "fixvet")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// run runs a command in the module's root and returns its output and exit
// status.
func run(t *testing.T, name string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = "../.."
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return string(out), 0
	case errors.As(err, &exit):
		return string(out), exit.ExitCode()
	}
	t.Fatalf("%s: %v", name, err)
	return "", 0
}

// findings returns the file:line:col of each finding in out.
func findings(out string) []string {
	var got []string
	for _, m := range regexp.MustCompile(`(?m)(naive\.go|rounded\.go):(\d+):(\d+): `).FindAllStringSubmatch(out, -1) {
		got = append(got, m[1]+":"+m[2]+":"+m[3])
	}
	return got
}

// naiveLines are testdata/naive's non-portable lines: a fused set-up
// position, a fused drift in Update, math.Sin and a map ranged in Update.
var naiveLines = []string{"naive.go:32:96", "naive.go:44:12", "naive.go:47:14", "naive.go:50:2"}

// TestCommand runs fixvet as a game runs it, on a naive game (every line
// named, as file:line:col: message, exit status 3) and on the same game made
// portable (nothing, exit status 0).
func TestCommand(t *testing.T) {
	bin := build(t)
	out, code := run(t, bin, "./cmd/fixvet/testdata/naive")
	if got := findings(out); code != 3 || !slices.Equal(got, naiveLines) {
		t.Errorf("fixvet naive: exit %d, findings %q, want exit 3 and %q\n%s", code, got, naiveLines, out)
	}
	if !strings.Contains(out, "naive.go:44:12: float product added without rounding: g.drift*1.0001 + 0.5 may be fused") ||
		!strings.Contains(out, "round the product: float64(g.drift*1.0001) + 0.5") {
		t.Errorf("fixvet naive: the drift's message does not name the product and its fix:\n%s", out)
	}
	if out, code := run(t, bin, "./cmd/fixvet/testdata/rounded"); code != 0 || out != "" {
		t.Errorf("fixvet rounded: exit %d, output %q, want 0 and nothing", code, out)
	}
}

// TestVetTool runs fixvet under go vet -vettool.
func TestVetTool(t *testing.T) {
	bin := build(t)
	out, code := run(t, "go", "vet", "-vettool="+bin, "./cmd/fixvet/testdata/naive")
	if got := findings(out); code == 0 || !slices.Equal(got, naiveLines) {
		t.Errorf("go vet naive: exit %d, findings %q, want a failure and %q\n%s", code, got, naiveLines, out)
	}
	if out, code := run(t, "go", "vet", "-vettool="+bin, "./cmd/fixvet/testdata/rounded"); code != 0 {
		t.Errorf("go vet rounded: exit %d\n%s", code, out)
	}
}
