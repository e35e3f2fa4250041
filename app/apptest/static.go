package apptest

import (
	"debug/buildinfo"
	"debug/elf"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// NoWindow is the message (after the game's name and ": ") with which a
// game built without cgo refuses a windowed run, exiting 1 at once.
const NoWindow = "this build has no window (built with CGO_ENABLED=0): run it with -headless or -server"

// cgoModules are the modules a build without cgo must not link: SDL's and
// OpenGL's bindings (go-gl/mathgl, pure Go, is not one of them).
var cgoModules = []string{"github.com/veandco/go-sdl2", "github.com/go-gl/gl"}

// BuildStatic builds the program in the package folder dir without cgo
// (CGO_ENABLED=0 go build, cached by the go command as any build is) into
// the test's temporary folder and returns the binary's path. It fails t
// unless the binary is linked statically (an ELF file with no interpreter
// and no shared library: what a minimal container runs) and its build
// information shows CGO_ENABLED=0 and none of SDL's or OpenGL's bindings
// among its modules. On a system whose executables are not ELF files it
// checks the build information only.
func BuildStatic(t testing.TB, dir string) string {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), filepath.Base(abs)+"-static")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = abs
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("apptest: CGO_ENABLED=0 go build in %s: %v\n%s", abs, err, out)
	}
	if err := CheckStatic(bin); err != nil {
		t.Fatalf("apptest: %v", err)
	}
	return bin
}

// CheckStatic returns an error unless the Go program bin was built with
// CGO_ENABLED=0, links none of SDL's or OpenGL's bindings, and (an ELF
// file) is linked statically: no interpreter, no shared library needed.
func CheckStatic(bin string) error {
	info, err := buildinfo.ReadFile(bin)
	if err != nil {
		return err
	}
	cgo := ""
	for _, s := range info.Settings {
		if s.Key == "CGO_ENABLED" {
			cgo = s.Value
		}
	}
	if cgo != "0" {
		return fmt.Errorf("%s: built with CGO_ENABLED=%q, want 0", bin, cgo)
	}
	for _, m := range info.Deps {
		for _, bad := range cgoModules {
			if m.Path == bad || strings.HasPrefix(m.Path, bad+"/") {
				return fmt.Errorf("%s links %s %s, a cgo binding: a build without cgo must not", bin, m.Path, m.Version)
			}
		}
	}
	return checkELF(bin)
}

// checkELF returns an error if bin, an ELF file, names an interpreter or
// needs a shared library; nil for a file that is not ELF (macOS, Windows:
// the build information is the check there).
func checkELF(bin string) error {
	f, err := elf.Open(bin)
	if err != nil {
		return nil
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			return fmt.Errorf("%s is linked dynamically: it names an interpreter", bin)
		}
	}
	if libs, err := f.ImportedLibraries(); err == nil && len(libs) > 0 {
		return fmt.Errorf("%s needs shared libraries %q: not static", bin, libs)
	}
	return nil
}
