package apptest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A Build is one of the builds OneWorld compares: the game compiled for
// another CPU, or for the same CPU with other instructions. The Go
// compiler fuses x*y + z into one rounding on arm64 and amd64 v3 (and
// ppc64le, s390x, riscv64) but not on amd64 v1, so game code that does
// not round its products gives each its own world.
type Build struct {
	// Name names the build in messages: "amd64 v3".
	Name string
	// GOARCH and GOAMD64 are the go command's settings ("" for GOAMD64
	// on another CPU).
	GOARCH, GOAMD64 string
}

// Builds are what OneWorld compares by default: amd64 v1 (any x86-64
// CPU), amd64 v3 (FMA, AVX2: most PCs since 2015) and arm64 (Apple
// silicon, phones, ARM servers).
var Builds = []Build{{"amd64 v1", "amd64", "v1"}, {"amd64 v3", "amd64", "v3"}, {"arm64", "arm64", ""}}

// emulators are qemu-user's, by GOARCH.
var emulators = map[string]string{"amd64": "qemu-x86_64", "arm64": "qemu-aarch64", "386": "qemu-i386",
	"s390x": "qemu-s390x", "ppc64le": "qemu-ppc64le", "riscv64": "qemu-riscv64"}

// OneWorld checks that the game in the package folder dir simulates one
// world on every build: it builds the game without cgo for each of
// builds (Builds when none are given), runs each with args, a headless
// run that prints state-hash= (as "-headless -ticks 600 -sim-frame 16ms
// -bot 1" does), and fails t naming the builds whose hashes differ, and
// pointing at cmd/fixvet, which names the lines.
//
// A build the machine cannot run natively runs under qemu-user: another
// CPU's, and a GOAMD64=v3 build on a CPU without FMA or AVX2 (qemu-x86_64
// -cpu max). One whose emulator is not installed is left out with a note
// in the test's log; under CI=true that fails the test instead (install
// qemu-user).
func OneWorld(t testing.TB, dir string, args []string, builds ...Build) {
	t.Helper()
	if len(builds) == 0 {
		builds = Builds
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	type result struct {
		build Build
		hash  string
	}
	var got []result
	for _, b := range builds {
		bin := filepath.Join(tmp, strings.ReplaceAll(b.Name, " ", "-"))
		cmd := exec.Command("go", "build", "-o", bin, ".")
		cmd.Dir = abs
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOARCH="+b.GOARCH, "GOAMD64="+b.GOAMD64)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("apptest: building %s for %s: %v\n%s", abs, b.Name, err, out)
		}
		stdout, how, err := runBuild(bin, b, args)
		if errors.Is(err, errNoEmulator) {
			Missing(t, "apptest: %s: %v (install qemu-user)", b.Name, err)
			continue
		}
		hash := ""
		if i := strings.Index(stdout, "state-hash="); i >= 0 {
			hash = strings.TrimSpace(stdout[i+len("state-hash="):])
		}
		if err != nil || hash == "" {
			t.Fatalf("apptest: %s %s%s: %v, stdout %q: want state-hash=", b.Name, strings.Join(args, " "), how, err, stdout)
		}
		t.Logf("%s%s: state-hash=%s", b.Name, how, hash)
		got = append(got, result{b, hash})
	}
	for _, r := range got[min(1, len(got)):] {
		if r.hash != got[0].hash {
			t.Errorf("%s ends on state-hash=%s, %s on %s: the game simulates another world on another build. "+
				"go run github.com/fixstep/fixstep/cmd/fixvet ./... names the lines that differ (docs/determinism.md)",
				r.build.Name, r.hash, got[0].build.Name, got[0].hash)
		}
	}
}

// errNoEmulator: a build needs qemu-user, which is not installed.
var errNoEmulator = errors.New("needs an emulator")

// runBuild runs bin with args natively, or under its qemu-user emulator
// when the machine cannot run it, and returns its stdout and how it ran.
func runBuild(bin string, b Build, args []string) (stdout, how string, err error) {
	run := func(name string, a ...string) (string, string, error) {
		cmd := exec.Command(name, a...)
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		// Go's signal-based preemption confuses qemu-user's signal
		// emulation (fatal: bad g in signal handler): off, for emulated
		// and native runs alike.
		cmd.Env = append(os.Environ(), "GODEBUG=asyncpreemptoff=1")
		err := cmd.Run()
		return o.String(), e.String(), err
	}
	out, stderr, err := run(bin, args...)
	var emu []string
	switch {
	case errors.Is(err, syscall.ENOEXEC):
		emu = []string{emulators[b.GOARCH]} // another CPU
	case err != nil && strings.Contains(stderr, "microarchitecture"):
		emu = []string{"qemu-x86_64", "-cpu", "max"} // v3 on a CPU without FMA or AVX2
	case err != nil:
		return out, "", fmt.Errorf("%w\n%s", err, stderr)
	default:
		return out, "", nil
	}
	if emu[0] == "" {
		return "", "", fmt.Errorf("%w: no qemu-user emulator known for GOARCH=%s", errNoEmulator, b.GOARCH)
	}
	path, lerr := exec.LookPath(emu[0])
	if lerr != nil {
		return "", "", fmt.Errorf("%w: %s not found", errNoEmulator, emu[0])
	}
	out, stderr, err = run(path, append(append(emu[1:len(emu):len(emu)], bin), args...)...)
	if err != nil {
		err = fmt.Errorf("%w\n%s", err, stderr)
	}
	return out, " (under " + strings.Join(emu, " ") + ")", err
}
