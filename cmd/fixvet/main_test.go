package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
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
	for _, m := range regexp.MustCompile(`(?m)(\w+\.go):(\d+):(\d+): `).FindAllStringSubmatch(out, -1) {
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

// tankLines are testdata/tank's non-portable lines: the crates' and tanks'
// placement (fused, math.Cos, math.Sin), the bot's distance, its aim
// (math.Atan2) and the aim byte's encoding, the drive blend, the aim's
// direction, a push's distance and impulse, and a map ranged in Update.
var tankLines = []string{
	"tank.go:35:8", "tank.go:36:8", "tank.go:37:66", "tank.go:45:96", "tank.go:45:104", "tank.go:45:120", "tank.go:45:128",
	"tank.go:62:19", "tank.go:68:10", "tank.go:70:25", "tank.go:80:14", "tank.go:83:38", "tank.go:83:70",
	"tank.go:91:7", "tank.go:92:45", "tank.go:98:2",
}

// TestTank runs fixvet on a naive tank game (every line named) and on the
// same game as fixvet -fix, detmath and sorted keys left it (clean).
func TestTank(t *testing.T) {
	bin := build(t)
	out, code := run(t, bin, "./cmd/fixvet/testdata/tank")
	if got := findings(out); code != 3 || !slices.Equal(got, tankLines) {
		t.Errorf("fixvet tank: exit %d, findings %q, want exit 3 and %q\n%s", code, got, tankLines, out)
	}
	if out, code := run(t, bin, "./cmd/fixvet/testdata/tankfixed"); code != 0 || out != "" {
		t.Errorf("fixvet tankfixed: exit %d, output %q, want 0 and nothing", code, out)
	}
}

// TestTankOneWorld is what fixvet is for: the naive tank game gives
// another world on arm64 (under qemu-aarch64) than on amd64 v1, and the
// game fixvet passes gives the same one on both.
func TestTankOneWorld(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-builds and emulates")
	}
	if runtime.GOARCH != "amd64" {
		t.Skip("compares amd64 v1, native, with arm64 under qemu-aarch64")
	}
	if _, err := exec.LookPath("qemu-aarch64"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("qemu-aarch64 is missing: install qemu-user (make deps does)")
		}
		t.Skip("qemu-aarch64 is missing: install qemu-user (make deps does)")
	}
	hash := func(pkg, goarch string, emu ...string) string {
		bin := filepath.Join(t.TempDir(), "tank")
		cmd := exec.Command("go", "build", "-o", bin, pkg)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOARCH="+goarch, "GOAMD64=v1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build %s for %s: %v\n%s", pkg, goarch, err, out)
		}
		out, err := exec.Command(emu[0], append(emu[1:], bin)...).Output()
		if err != nil {
			t.Fatalf("%s for %s: %v", pkg, goarch, err)
		}
		return strings.TrimSpace(string(out))
	}
	native := []string{"env"}
	for _, c := range []struct {
		pkg  string
		same bool
	}{{"./testdata/tank", false}, {"./testdata/tankfixed", true}} {
		amd64, arm64 := hash(c.pkg, "amd64", native...), hash(c.pkg, "arm64", "qemu-aarch64")
		t.Logf("%s: amd64 v1 %s, arm64 %s", c.pkg, amd64, arm64)
		if (amd64 == arm64) != c.same {
			t.Errorf("%s: amd64 v1 hash %s, arm64 %s: want the same: %v", c.pkg, amd64, arm64, c.same)
		}
	}
}
