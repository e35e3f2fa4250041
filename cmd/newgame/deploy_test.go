package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fixstep/fixstep/app/apptest"
)

// dockerRun returns the shell command of the RUN instruction of a
// Dockerfile that mounts the build context engine, its --mount options
// dropped and its continuation lines joined.
func dockerRun(t *testing.T, dockerfile string) string {
	t.Helper()
	_, rest, ok := strings.Cut(dockerfile, "\nRUN --mount=type=bind,from=engine,target=/engine")
	if !ok {
		t.Fatal("deploy/Dockerfile has no RUN that mounts the engine context at /engine")
	}
	var cmd []string
	for _, line := range strings.Split(rest, "\n") {
		more := strings.HasSuffix(line, "\\")
		for _, w := range strings.Fields(strings.TrimSuffix(line, "\\")) {
			if !strings.HasPrefix(w, "--mount=") {
				cmd = append(cmd, w)
			}
		}
		if !more {
			break
		}
	}
	return strings.Join(cmd, " ")
}

// TestDeploy: make new gives the game a deploy/ folder whose Dockerfile
// builds from the game's folder. Its build stage is run here by hand (no
// Docker engine needed): in a copy of the game's folder where go.mod's
// replace line names a checkout that is not there, as inside a container,
// go build fails; the Dockerfile's RUN, with the engine checkout where the
// build context engine is mounted, builds a static server that plays as
// the game does. The Fleet and the allocation are the engine's, under the
// game's name.
func TestDeploy(t *testing.T) {
	t.Parallel() // beside TestNewGame: both mostly wait on go commands
	dir := filepath.Join(t.TempDir(), "mygame")
	root, _ := filepath.Abs("../..")
	if err := run([]string{"-name", "mygame", "-dir", dir, "-engine", root}); err != nil {
		t.Fatal(err)
	}
	read := func(name string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for _, f := range []string{"deploy/fleet.yaml", "deploy/allocation.yaml"} {
		for i, line := range strings.Split(read(f), "\n") {
			if code, _, _ := strings.Cut(line, "#"); strings.Contains(code, "fixstep") {
				t.Errorf("%s:%d still names the engine's fleet: %q", f, i+1, line)
			}
		}
	}
	for f, want := range map[string]string{
		"deploy/fleet.yaml":              "image: REGISTRY/mygame-server:TAG",
		"deploy/allocation.yaml":         "agones.dev/fleet: mygame",
		"deploy/Dockerfile":              `ENTRYPOINT ["/server", "-server", ":7000", "-players", "4"]`,
		"deploy/Dockerfile.dockerignore": "\nmygame.png\n",
		"Makefile":                       "docker build $(if $(ENGINE),--build-context engine=$(ENGINE)) -f deploy/Dockerfile -t $(IMAGE) .",
	} {
		if !strings.Contains(read(f), want) {
			t.Errorf("%s has no %q", f, want)
		}
	}
	// The build context: the game's folder, less what the dockerignore
	// file leaves out; go.mod's replace names a checkout that is not there.
	ctx := t.TempDir()
	if out, err := exec.Command("cp", "-r", dir+"/.", ctx).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v\n%s", err, out)
	}
	os.RemoveAll(filepath.Join(ctx, "bin"))
	mod := read("go.mod")
	gone := regexp.MustCompile(`(?m)^replace github.com/fixstep/fixstep => .*$`).ReplaceAllString(mod, "replace github.com/fixstep/fixstep => /host/checkout/fixstep")
	if gone == mod {
		t.Fatalf("go.mod has no replace line for the engine:\n%s", mod)
	}
	if err := os.WriteFile(filepath.Join(ctx, "go.mod"), []byte(gone), 0o644); err != nil {
		t.Fatal(err)
	}
	sh := func(cmd string) (string, error) {
		c := exec.Command("sh", "-c", cmd)
		c.Dir = ctx
		out, err := c.CombinedOutput()
		return string(out), err
	}
	if out, err := sh("CGO_ENABLED=0 go build -o /dev/null ."); err == nil || !strings.Contains(out, "/host/checkout/fixstep") {
		t.Errorf("go build with the host's checkout out of reach: %v, want a failure naming it:\n%s", err, out)
	}
	// The step as the Dockerfile has it, with the engine where the
	// context is mounted, the binary written here, and -trimpath and
	// -ldflags left out: they change nothing of how the engine is found,
	// and without them the build shares the cache of make server's.
	bin := filepath.Join(t.TempDir(), "server")
	step := dockerRun(t, read("deploy/Dockerfile"))
	for old, new := range map[string]string{"=/engine": "=" + root, " -o /server ": " -o " + bin + " ", " -trimpath ": " ", ` -ldflags="-s -w" `: " "} {
		if !strings.Contains(step, old) {
			t.Fatalf("the Dockerfile's build step %q has no %q", step, old)
		}
		step = strings.ReplaceAll(step, old, new)
	}
	if out, err := sh(step); err != nil {
		t.Fatalf("the Dockerfile's build step, %q: %v\n%s", step, err, out)
	}
	if err := apptest.CheckStatic(bin); err != nil {
		t.Error(err)
	}
	game := filepath.Join(t.TempDir(), "mygame")
	build := exec.Command("go", "build", "-o", game, ".")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	args := []string{"-headless", "-ticks", "120", "-sim-frame", "16ms", "-bot", "3"}
	want, err := exec.Command(game, args...).Output()
	got, err2 := exec.Command(bin, args...).Output()
	if err != nil || err2 != nil || !bytes.HasPrefix(want, []byte("state-hash=")) || !bytes.Equal(got, want) {
		t.Errorf("the container's server %q: %v, stdout %q; the game's %v, %q", args, err2, got, err, want)
	}
}
