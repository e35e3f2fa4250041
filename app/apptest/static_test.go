package apptest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckStatic builds small programs: one without cgo passes; the
// same built with cgo (package net's resolver links libc) fails, as not
// built with CGO_ENABLED=0 and, its ELF file, as linked dynamically; one
// that links a module named as SDL's bindings (a pure stand-in) fails as
// linking it.
func TestCheckStatic(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":          "module static\n\ngo 1.22\n\nrequire github.com/veandco/go-sdl2 v0.0.0\n\nreplace github.com/veandco/go-sdl2 => ./sdl\n",
		"plain/main.go":   "package main\n\nimport _ \"net\"\n\nfunc main() {}\n",
		"withsdl/main.go": "package main\n\nimport _ \"github.com/veandco/go-sdl2/sdl\"\n\nfunc main() {}\n",
		"sdl/go.mod":      "module github.com/veandco/go-sdl2\n\ngo 1.22\n",
		"sdl/sdl/sdl.go":  "// Package sdl stands in for go-sdl2's.\npackage sdl\n\nvar Version = 2\n",
	}
	for name, src := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	build := func(pkg, cgo string) string {
		t.Helper()
		bin := filepath.Join(dir, "bin", pkg+"-cgo"+cgo)
		cmd := exec.Command("go", "build", "-mod=mod", "-o", bin, "./"+pkg)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "CGO_ENABLED="+cgo, "GOFLAGS=", "GOPROXY=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("CGO_ENABLED=%s go build ./%s: %v\n%s", cgo, pkg, err, out)
		}
		return bin
	}
	if err := CheckStatic(build("plain", "0")); err != nil {
		t.Errorf("a program built without cgo: %v", err)
	}
	if err := CheckStatic(build("withsdl", "0")); err == nil || !strings.Contains(err.Error(), "links github.com/veandco/go-sdl2 ") {
		t.Errorf("a program that links go-sdl2: %v, want an error naming it", err)
	}
	if _, err := exec.LookPath("gcc"); err != nil {
		Missing(t, "no gcc to build with cgo: %v", err)
	}
	bin := build("plain", "1")
	if err := CheckStatic(bin); err == nil || !strings.Contains(err.Error(), `built with CGO_ENABLED="1", want 0`) {
		t.Errorf("a program built with cgo: %v, want an error naming CGO_ENABLED", err)
	}
	if err := checkELF(bin); err == nil || !strings.Contains(err.Error(), "linked dynamically") {
		t.Errorf("a program built with cgo, its ELF file: %v, want \"linked dynamically\"", err)
	}
}
