// Command newgame starts a game of your own, in a module of its own, from
// cmd/skeleton: a folder with the skeleton's main.go and its tests under
// your game's name, a go.mod that requires the engine, a Makefile with run,
// test, server and image, a README with the commands, and a deploy/ folder
// to run its server in a container on Agones (a Dockerfile, the engine's
// Fleet and allocation under the game's name). make new runs it:
//
//	make new NAME=mygame DIR=../mygame
//	cd ../mygame && make run
//
// Until the engine is published, the new go.mod points the engine's module
// path at this checkout with a replace directive (the README says so);
// delete that line once it can be fetched. A container build cannot see
// that checkout, so make image hands it to docker build as a second build
// context, engine, which deploy/Dockerfile mounts and points go.mod at.
package main

import (
	"bytes"
	"embed"
	"errors"
	"flag"
	"fmt"
	"go/build"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

const enginePath = "github.com/fixstep/fixstep"

var validName = regexp.MustCompile(`^[a-z][a-z0-9_]{0,30}$`)

func main() {
	if err := run(os.Args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "make new:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("newgame", flag.ContinueOnError)
	name := fs.String("name", "", "the game's name: lower-case letters, digits and _, starting with a letter")
	dir := fs.String("dir", "", "the folder to create (default ../NAME, beside the engine)")
	module := fs.String("module", "", "the game's module path (default NAME)")
	engine := fs.String("engine", ".", "the engine checkout the new go.mod points at")
	tidy := fs.Bool("tidy", true, "run go mod tidy in the new folder (it fetches the engine's dependencies)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if !validName.MatchString(*name) {
		return fmt.Errorf("NAME=%q is not a valid game name: lower-case letters, digits and _, starting with a letter (make new NAME=mygame)", *name)
	}
	if *dir == "" {
		*dir = filepath.Join("..", *name)
	}
	if *module == "" {
		*module = *name
	}
	if err := checkModule(*module, *name); err != nil {
		return err
	}
	root, err := filepath.Abs(*engine)
	if err != nil {
		return err
	}
	if mod, err := os.ReadFile(filepath.Join(root, "go.mod")); err != nil || !bytes.HasPrefix(mod, []byte("module "+enginePath+"\n")) {
		return fmt.Errorf("%s is not a fixstep checkout (no go.mod of %s): run make new from the engine's folder", root, enginePath)
	}
	if _, err := os.Stat(*dir); err == nil {
		return fmt.Errorf("%s already exists; pick another DIR or remove it", *dir)
	}
	files, err := gameFiles(root, *name, *module)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		return err
	}
	// From here the folder is ours: a failure removes it, so a second try
	// does not find a half-made game in the way.
	if err := write(*dir, files, *tidy); err != nil {
		os.RemoveAll(*dir)
		return fmt.Errorf("%w (nothing was left in %s)", err, *dir)
	}
	fmt.Printf("make new: created %s (module %s). Run it: cd %s && make run\n", *dir, *module, *dir)
	return nil
}

// write writes the game's files into dir and tidies its module.
func write(dir string, files []file, tidy bool) error {
	for _, f := range files {
		path := filepath.Join(dir, filepath.FromSlash(f.name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, f.data, 0o644); err != nil {
			return err
		}
	}
	if tidy {
		cmd := exec.Command("go", "mod", "tidy")
		cmd.Dir, cmd.Stderr = dir, os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("go mod tidy in %s: %w", dir, err)
		}
	}
	return nil
}

var validModule = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._~/-]*$`)

// checkModule refuses a module path go would not take, or one that is a
// standard library package's path (log, sort, image, arena...): go mod
// tidy would call every import of it ambiguous.
func checkModule(module, name string) error {
	if !validModule.MatchString(module) || strings.Contains(module, "//") || strings.HasSuffix(module, "/") {
		return fmt.Errorf("MODULE=%q is not a module path (make new NAME=%s MODULE=example.com/%s)", module, name, name)
	}
	if p, err := build.Import(module, "", build.FindOnly); err == nil && p.Goroot {
		return fmt.Errorf("%q is a standard library package, so it cannot be the game's module path: give one, make new NAME=%s MODULE=example.com/%s", module, name, name)
	}
	return nil
}

type file struct {
	name string // slash-separated, relative to the game's folder
	data []byte
}

// gameFiles returns the new game's files: the skeleton renamed, and the
// module's own go.mod, Makefile, README and .gitignore.
func gameFiles(root, name, module string) ([]file, error) {
	rename := func(b []byte) []byte {
		s := string(b)
		s = strings.Replace(s, "// Command skeleton is the smallest complete fixstep game:", "// Command "+name+" is a fixstep game, started from the engine's cmd/skeleton:", 1)
		s = strings.Replace(s, "// Copy it to start your own: make new NAME=mygame.\n", "", 1)
		s = strings.ReplaceAll(s, `"skeleton"`, `"`+name+`"`)
		return []byte(s)
	}
	var out []file
	for _, f := range []string{"main.go", "main_test.go", "hosting_test.go"} {
		b, err := os.ReadFile(filepath.Join(root, "cmd", "skeleton", f))
		if err != nil {
			return nil, fmt.Errorf("reading the skeleton: %w", err)
		}
		out = append(out, file{f, rename(b)})
	}
	wav, err := os.ReadFile(filepath.Join(root, "cmd", "skeleton", "jump.wav"))
	if err != nil {
		return nil, fmt.Errorf("reading the skeleton: %w", err)
	}
	out = append(out, file{"jump.wav", wav})
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return nil, err
	}
	goLine := "go 1.26.0"
	for _, l := range strings.Split(string(gomod), "\n") {
		if strings.HasPrefix(l, "go ") {
			goLine = l
		}
	}
	out = append(out,
		file{"go.mod", []byte(fmt.Sprintf("module %s\n\n%s\n\nrequire %s v0.0.0\n\n// The engine's checker of game code: go tool fixvet ./... (make test runs it).\ntool %s/cmd/fixvet\n\n// The engine is not published yet: this checkout stands in for it.\n// Delete this line once go get %s works.\nreplace %s => %s\n",
			module, goLine, enginePath, enginePath, enginePath, enginePath, root))},
		file{"Makefile", []byte(strings.ReplaceAll(makefile, "NAME", name))},
		file{"README.md", []byte(strings.ReplaceAll(readme, "NAME", name))},
		// Only what the game's Makefile writes: *.png would drop the
		// game's own sprite sheets from its commits without a word.
		file{".gitignore", []byte("/bin/\n*.test\n/" + name + ".png\n")},
	)
	deploy, err := deployFiles(root, name)
	if err != nil {
		return nil, err
	}
	return append(out, deploy...), nil
}

// template holds the game's files that are not the engine's renamed: its
// Dockerfile, which builds from the game's folder.
//
//go:embed template
var template embed.FS

// deployFiles returns the game's deploy/ folder: its Dockerfile and the
// file beside it that keeps what the build does not need out of its
// context, from template/, and the engine's Fleet and allocation
// (deploy/fleet.yaml, deploy/allocation.yaml) under the game's name.
func deployFiles(root, name string) ([]file, error) {
	var out []file
	for _, f := range []string{"Dockerfile", "Dockerfile.dockerignore"} {
		b, err := template.ReadFile("template/" + f)
		if err != nil {
			return nil, err
		}
		out = append(out, file{"deploy/" + f, []byte(strings.ReplaceAll(string(b), "NAME", name))})
	}
	for _, f := range []struct {
		name    string
		renames []string // old, new, ...: each old must be there
	}{
		{"fleet.yaml", []string{
			"REGISTRY/fixstep-server:TAG", "REGISTRY/" + name + "-server:TAG",
			"\n  name: fixstep\n", "\n  name: " + name + "\n",
			"game: fixstep", "game: " + name,
			"fleet fixstep", "fleet " + name,
			"docs/hosting.md says how", "The engine's docs/hosting.md says how",
			"# docs/hosting.md shows", "# the engine's docs/hosting.md shows",
			"match of the demo", "match of the engine's demo",
		}},
		{"allocation.yaml", []string{
			"the fixstep Fleet", "the " + name + " Fleet",
			"agones.dev/fleet: fixstep", "agones.dev/fleet: " + name,
		}},
	} {
		b, err := os.ReadFile(filepath.Join(root, "deploy", f.name))
		if err != nil {
			return nil, fmt.Errorf("reading the engine's deploy/: %w", err)
		}
		s := string(b)
		for i := 0; i < len(f.renames); i += 2 {
			if !strings.Contains(s, f.renames[i]) {
				return nil, fmt.Errorf("the engine's deploy/%s has no %q to rename: cmd/newgame needs updating", f.name, f.renames[i])
			}
			s = strings.ReplaceAll(s, f.renames[i], f.renames[i+1])
		}
		out = append(out, file{"deploy/" + f.name, []byte(s)})
	}
	return out, nil
}

const makefile = `# NAME: make run opens the game, make test runs its tests. Both install
# what they need first (Debian/Ubuntu packages; Go modules via the proxy).

GO       ?= go
DEB_PKGS := gcc pkg-config libsdl2-dev libsdl2-mixer-dev libgl-dev libegl-dev libgl1-mesa-dri libegl-mesa0 xvfb xauth qemu-user
FRAMES   ?= 200

.PHONY: deps build server image run test

deps:
	@missing=""; for p in $(DEB_PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	SUDO=""; if [ "$$(id -u)" != 0 ]; then SUDO=sudo; fi; \
	echo "deps: installing$$missing"; \
	$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq$$missing >/dev/null

build: deps
	$(GO) build -o bin/NAME .

# server builds NAME without cgo: bin/NAME-server, a static binary with no
# SDL, OpenGL or libc that runs every headless mode (a server, a container).
server:
	CGO_ENABLED=0 $(GO) build -o bin/NAME-server .

# image builds deploy/Dockerfile: the server built the same way, in a
# distroless image tagged IMAGE. While go.mod's replace line points the
# engine at a checkout, that checkout goes in as the build context engine
# (docker build --build-context: BuildKit, Docker 23 or later).
IMAGE  ?= NAME-server:dev
ENGINE  = $(shell $(GO) list -m -f '{{with .Replace}}{{.Dir}}{{end}}' github.com/fixstep/fixstep)
image:
	docker build $(if $(ENGINE),--build-context engine=$(ENGINE)) -f deploy/Dockerfile -t $(IMAGE) .

# With no display, run under Xvfb for a few seconds and save NAME.png.
run: build
	@if [ -n "$$DISPLAY$$WAYLAND_DISPLAY$$SDL_VIDEODRIVER" ]; then ./bin/NAME; \
	else echo "make run: no display, so NAME runs under Xvfb for $(FRAMES) frames and saves NAME.png"; \
	  xvfb-run -a -s "-screen 0 1280x720x24" ./bin/NAME -frames $(FRAMES) -screenshot NAME.png; fi

# test checks the game's own code first: fixvet names every line that
# would simulate another world on another build (a product the compiler
# may fuse, math.Sin, a map ranged in Update, the clock...), then the
# tests run, TestOneWorldOnEveryBuild among them (amd64 v1, v3 and arm64
# under qemu-user: one state hash).
test: deps
	$(GO) tool fixvet ./...
	SDL_VIDEODRIVER=offscreen $(GO) test -count=1 ./...
`

const readme = "# NAME\n\n" +
	"A game on the fixstep engine, started from its skeleton.\n\n" +
	"```sh\nmake run    # installs what it needs, builds, runs the game\nmake test   # installs what it needs, runs the tests\n```\n\n" +
	"`main.go` is the whole game: a fixed-step `Update`, an interpolated `Draw`, and the hooks, and a\n" +
	"`main` that hands it to the engine's runner, which gives it every mode (`-headless -ticks N`,\n" +
	"`-bot`, `-record`, `-replay`, `-synctest`, `-host`, `-join`, `-server`, `-connect`): `go doc github.com/fixstep/fixstep/app`.\n\n" +
	"`make test` runs `go tool fixvet ./...` first, the engine's checker of game code: it names each\n" +
	"line that would give another world on another build (a product the compiler may fuse, `math.Sin`, a\n" +
	"map ranged in `Update`, the clock) with its fix; then the tests, one of which builds the game for\n" +
	"amd64 v1, v3 and arm64 and checks they end on one state hash.\n\n" +
	"`make server` builds it without cgo: `bin/NAME-server`, a static binary that runs every headless\n" +
	"mode and needs nothing installed beside it. `deploy/` runs that server in a container on Agones:\n" +
	"`make image IMAGE=REGISTRY/NAME-server:TAG` builds `deploy/Dockerfile` (with Docker 23 or later),\n" +
	"and `deploy/fleet.yaml` is an Agones Fleet of it; the engine's `docs/hosting.md` says how to run\n" +
	"it, and how to check the server against Agones' own SDK server.\n\n" +
	"The engine is not published yet, so `go.mod` points its module path at the checkout this game\n" +
	"was made from, with a `replace` line. Delete that line once `go get github.com/fixstep/fixstep`\n" +
	"works, or point it at your own copy of the engine. A container cannot see that checkout: `make\n" +
	"image` passes it to `docker build` as the build context `engine`, and `deploy/Dockerfile` mounts\n" +
	"it and points `go.mod` there (its comment says what to delete once the engine is published).\n"
