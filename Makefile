# fixstep: make run opens the demo, make test runs every test. Both install
# what they need first (Debian/Ubuntu packages; Go modules via the proxy).

GO       ?= go
# Debian packages the build and the tests need: cgo, SDL2 and SDL2_mixer,
# OpenGL/EGL headers, Mesa's software rasterizer (llvmpipe), a virtual X server,
# and qemu-user to run the determinism check's arm64 and s390x builds.
DEB_PKGS := gcc pkg-config libsdl2-dev libsdl2-mixer-dev libgl-dev libegl-dev libgl1-mesa-dri libegl-mesa0 xvfb xauth qemu-user
# The pure packages (no cgo: they run headless anywhere) are internal/layers'
# table's, which its tests keep true; evaluated only where a recipe uses it.
PURE      = $(shell $(GO) run ./tools/layers pure)
FRAMES   ?= 200

.PHONY: all deps build server run test test-pure test-gl cross cross-more fuzz race soak netplay-soak server-soak bigworld bench bench-sprites bench-physics gpu-bundle gpu-check lint conflicts fixvet profile clean new

all: build

# deps installs the Debian packages above when any is missing, with sudo
# when not root, and says what to do when it cannot.
deps:
	@missing=""; for p in $(DEB_PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	echo "deps: installing$$missing"; \
	if ! command -v apt-get >/dev/null; then \
	  echo "deps: apt-get not found. Install the equivalents of:$$missing" >&2; exit 1; fi; \
	SUDO=""; if [ "$$(id -u)" != 0 ]; then \
	  if command -v sudo >/dev/null; then SUDO=sudo; else \
	    echo "deps: not root and no sudo. As root, run: apt-get install$$missing" >&2; exit 1; fi; fi; \
	$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq$$missing >/dev/null || { \
	  echo "deps: apt-get install$$missing failed (see above)" >&2; exit 1; }

# build puts what users run in bin/: the programs of cmd/ (the demo, the
# skeleton, newgame). The benchmark peers of bench/ and the internal tools
# of tools/ are built by the targets that use them (bench-sprites,
# netplay-soak), or by hand: go build -o bin/ ./bench/bunnymark-gl
build: deps
	$(GO) build -o bin/ ./cmd/...

# server builds the demo without cgo (CGO_ENABLED=0): bin/demo-server, a
# static binary with no SDL, OpenGL or libc, for a server or a minimal
# container. It runs every headless mode (-headless -ticks, -bot, -record,
# -replay, -synctest, -host, -join, -spectate) on the same state hashes as
# bin/demo, and refuses a window at once. Needs no Debian package.
server:
	CGO_ENABLED=0 $(GO) build -o bin/demo-server ./cmd/demo

# run opens the demo. With no display it runs the demo under Xvfb for a few
# seconds and saves a screenshot to demo.png.
run: build
	@if [ -n "$$DISPLAY$$WAYLAND_DISPLAY$$SDL_VIDEODRIVER" ]; then ./bin/demo $(DEMO_FLAGS); \
	else echo "make run: no display, so the demo runs under Xvfb for $(FRAMES) frames and saves demo.png"; \
	  xvfb-run -a -s "-screen 0 1280x720x24" ./bin/demo -frames $(FRAMES) -screenshot demo.png $(DEMO_FLAGS); fi

# test runs deps and lint, then the rest at once: the GL tests, which
# mostly wait on the clock (netplay matches, paced frames, child
# processes), beside the pure packages with their fuzzers and the
# cross-build check, which keep the cores busy. Each stage's output comes
# whole, with its time; then the total.
TEST_STAGES := deps lint
TEST_BESIDE := test-pure cross
test:
	@start=$$(date +%s); for stage in $(TEST_STAGES); do t=$$(date +%s); \
	  $(MAKE) --no-print-directory $$stage || { echo "make test: $$stage FAILED after $$(( $$(date +%s) - t )) s"; exit 1; }; \
	  echo "make test: $$stage took $$(( $$(date +%s) - t )) s"; done; \
	t=$$(date +%s); dir=$$(mktemp -d); \
	for stage in $(TEST_BESIDE); do \
	  ( $(MAKE) --no-print-directory $$stage CROSS_WORKERS=$(TEST_CROSS_WORKERS) CROSS_SKIP="$(TEST_CROSS_SKIP)" >$$dir/$$stage 2>&1; \
	    echo $$? >$$dir/$$stage.rc; echo $$(( $$(date +%s) - t )) >$$dir/$$stage.t ) & \
	done; \
	$(MAKE) --no-print-directory test-gl; gl=$$?; \
	echo "make test: test-gl took $$(( $$(date +%s) - t )) s, beside $(TEST_BESIDE)"; \
	wait; failed=""; [ $$gl = 0 ] || failed="test-gl"; \
	for stage in $(TEST_BESIDE); do cat $$dir/$$stage; \
	  echo "make test: $$stage took $$(cat $$dir/$$stage.t) s, beside test-gl"; \
	  [ "$$(cat $$dir/$$stage.rc)" = 0 ] || failed="$$failed $$stage"; done; \
	rm -rf $$dir; \
	[ -z "$$failed" ] || { echo "make test: FAILED:$$failed"; exit 1; }; \
	echo "make test: all passed in $$(( $$(date +%s) - start )) s"

# The pure packages build and test without cgo: they run headless anywhere.
# So do gfx and audio, as their stand-ins without cgo (gfx/nocgo.go,
# audio/device_none.go); tools/nocgo checks their API is the cgo build's.
test-pure:
	CGO_ENABLED=0 $(GO) test -count=1 $(PURE) ./gfx ./audio
	@GO=$(GO) FUZZ_COUNT=$(FUZZ_COUNT) FUZZ_MINIMIZE=$(FUZZ_MINIMIZE) bash tools/fuzz/fuzz.sh -j $(FUZZ_JOBS) $(FUZZ_TARGETS)

# cross is the determinism check: tools/worldhash's scenes (the physics, the
# demo's world, detmath) built for amd64 v1 and v3, 386, arm64 and s390x,
# each checked against the golden hashes, natively where this machine can
# execute it and otherwise under its qemu-user emulator (arm64 and s390x,
# and 386 on a kernel without 32-bit support: cross.sh decides by the
# error a native run gives), and the arm64 build's simulation disassembled
# for fused multiply-adds.
#
# Each scene runs natively on every pool size of CROSS_WORKERS (the world
# must be the same on any number of physics workers). Every size costs
# the scene's whole run again, 250 s of CPU for the seven on 2 cores, so
# make test checks three sizes (alone, two, four: TEST_CROSS_WORKERS),
# and make cross-more, which CI runs after make test, all seven.
# make test also leaves out the s390x build's demo scene (TEST_CROSS_SKIP,
# 72 s of CPU under qemu-s390x: more than the rest of the check).
CROSS_WORKERS      ?= 1,2,3,4,8,16,32
TEST_CROSS_WORKERS ?= 1,2,4
CROSS_SKIP         ?=
TEST_CROSS_SKIP    ?= s390x/demo
cross: deps
	GO=$(GO) WORKERS=$(CROSS_WORKERS) SKIP="$(CROSS_SKIP)" bash tools/worldhash/cross.sh

# cross-more is the same check on the quick builds on every pool size,
# then on the slow builds (the debugger builds of amd64 v3 and arm64,
# ppc64le, riscv64: 3 minutes of qemu-user on 2 cores), then the checks too long for make test: physics'
# TestChurnAfterReserve for three minutes of game time (make test plays
# 20 s of it; a minute of CPU). Outside make test; CI runs it after.
CHURN_SECONDS ?= 180
cross-more: deps
	GO=$(GO) WORKERS=$(CROSS_WORKERS) bash tools/worldhash/cross.sh
	GO=$(GO) WORKERS=$(CROSS_WORKERS) bash tools/worldhash/cross.sh --more
	FIXSTEP_CHURN_SECONDS=$(CHURN_SECONDS) $(GO) test -count=1 -run '^TestChurnAfterReserve$$' -v ./physics

# Fuzzing inside make test has a count budget, never a time budget: a
# -fuzztime of seconds can fail at its deadline with "context deadline
# exceeded" and no crasher on a loaded machine (golang/go#75804). Long
# fuzzing by time is make fuzz, outside make test. The sound file and
# image cost fuzzers fuzz pure packages (audio/soundfile, gfx/imagefile),
# so make test fuzzes them too without instrumenting go-sdl2.
FUZZ_COUNT ?= 200000x
# A new input that widens coverage is minimized before fuzzing goes on,
# for up to 60 s by default: FuzzPacker once stood still 53 s on one. A
# count bounds that too. FuzzPacker's inputs are slow (up to 1,000 packer
# operations, each checked against the whole page): 1,000 tries at one
# stood still over 4 minutes in make test, so it minimizes in 20.
FUZZ_MINIMIZE ?= 1000x
# Every fuzz target, as PACKAGE:NAME[:COUNT[:MINIMIZE]] (FUZZ_COUNT and
# FUZZ_MINIMIZE where not given): the slow ones fuzz fewer inputs.
FUZZ_TARGETS := ./engine:FuzzTimestep ./replay:FuzzReplay ./replay:FuzzInputDecoder \
	./input:FuzzParseBinding ./gfx/internal/pack:FuzzPacker:50000x:20x ./physics:FuzzRestore \
	./save:FuzzLoad ./netplay:FuzzDecode:50000x ./netplay:FuzzLobby:20000x \
	./netplay:FuzzServerDecode:50000x ./netplay:FuzzServerAndClient:20000x \
	./audio/soundfile:FuzzSoundHeader ./audio/soundfile:FuzzVorbisSetup ./gfx/imagefile:FuzzImageCost:5000x
# tools/fuzz/fuzz.sh runs FUZZ_JOBS targets at once, the CPUs shared
# among them as fuzzing workers: two on two cores overlap one target's
# build, start and corpus replay with the other's fuzzing.
FUZZ_JOBS ?= 2
FUZZ_TIME  ?= 5m
fuzz:
	GO=$(GO) bash tools/fuzz/fuzz.sh -time $(FUZZ_TIME) $(FUZZ_TARGETS)

# test-gl runs up to TEST_GL_P test binaries at once (go test -p): most
# of them wait on the clock (netplay matches, paced frames, child
# processes), so 4 keep 2 cores busy where go test's default, one a core,
# left them idle (251 s against 192 s on the shared machine, BENCHMARKS.md).
TEST_GL_P ?= 4
test-gl:
	$(GO) test -p $(TEST_GL_P) -count=1 ./app/... ./cmd/... ./gfx/... ./audio/...

# race runs every test under the race detector (the gfx tests push SDL
# events through storage of a full SDL_Event's size, so checkptr has
# nothing to object to).
race: deps
	$(GO) test -race -count=1 ./...

# soak runs the demo offscreen for 20,000 frames (SOAK_FRAMES) and fails on
# growth: resident memory after the warm-up grows less than 5 %,
# gl_objects=0, allocs_per_frame=0, no GC cycle. Not part of make test.
SOAK_FRAMES ?= 20000
soak: deps
	FIXSTEP_SOAK=1 FIXSTEP_SOAK_FRAMES=$(SOAK_FRAMES) $(GO) test -count=1 -timeout 60m -run '^TestSoak$$' -v ./cmd/demo

# netplay-soak plays two headless demos against each other over loopback
# for MATCH_TICKS ticks (3,600: a minute), both bots, both links through
# the simulator (50 ms, 10 ms jitter, 5 % loss, 1 % duplication), while
# tools/udpflood floods the host with garbage; then replays both recordings
# and compares them. Both must print the same state-hash with desyncs=0.
MATCH_TICKS ?= 3600
MATCH_PORT  ?= 7350
MATCH_LINK  := latency=50ms,jitter=10ms,loss=0.05,dup=0.01
netplay-soak: build
	$(GO) build -o bin/ ./tools/udpflood
	@rm -f bin/match-host.fxr bin/match-join.fxr
	./bin/demo -headless -ticks $(MATCH_TICKS) -host 127.0.0.1:$(MATCH_PORT) -bot 1 -record bin/match-host.fxr -netsim $(MATCH_LINK) > bin/match-host.out 2>&1 & \
	./bin/udpflood -for $$(( $(MATCH_TICKS) / 60 + 10 ))s 127.0.0.1:$(MATCH_PORT) & \
	./bin/demo -headless -ticks $(MATCH_TICKS) -join 127.0.0.1:$(MATCH_PORT) -bot 2 -record bin/match-join.fxr -netsim $(MATCH_LINK); \
	wait %1; cat bin/match-host.out; kill %2 2>/dev/null; true
	./bin/demo -headless -replay bin/match-host.fxr
	./bin/demo -headless -replay bin/match-join.fxr
	./bin/demo -compare bin/match-host.fxr bin/match-join.fxr

# server-soak plays a headless demo server and four headless demo bot
# clients over loopback for SOAK_TICKS ticks (3,600: a minute), every link
# through the simulator (50 ms, 10 ms jitter, 5 % loss, 1 % duplication),
# while tools/udpflood floods the server with garbage: two clients from
# the start, one joining 20 s in, one killed with -9 at 12 s and started
# again at 16 s. Every client still running must print the server's
# state-hash with desyncs=0, the server's recording must replay to it, and
# the server must keep pace with real time (tools/serversoak/soak.sh).
SOAK_TICKS ?= 3600
server-soak: build
	$(GO) build -o bin/ ./tools/udpflood
	tools/serversoak/soak.sh bin $(SOAK_TICKS) 7360

# bigworld plays issue 39's big world (tools/bigworld/bigworld.sh): the
# demo's static build as a server and CLIENTS headless bot clients over
# loopback, with BODIES bodies, for BIG_TICKS ticks, every client's
# datagrams through the simulator (150 ms, 10 ms jitter, 5 % loss: a
# 150 ms round trip), every process under timeout. It prints each
# client's fps, frame p99, rollback depths (rollback_p99=), input delay,
# tick cost, catch-up and whether it ended on the server's state hash
# (BENCHMARKS.md, "Big worlds"). Not part of make test.
CLIENTS   ?= 2
BODIES    ?= 300
BIG_TICKS ?= 1200
bigworld: server
	tools/bigworld/bigworld.sh bin/demo-server $(CLIENTS) $(BODIES) $(BIG_TICKS) 7370

bench:
	$(GO) test -run '^$$' -bench . -benchmem -count 6 $(PURE) ./gfx/... ./cmd/... | tee bench.txt
	$(GO) run golang.org/x/perf/cmd/benchstat@latest bench.txt

# bench-sprites runs the sprites benchmark side by side under Xvfb: fixstep
# (demo -bench sprites), the plain instanced OpenGL baseline and
# Ebitengine v2.8 (a module of its own in bench/bunnymark-ebiten), three
# rounds interleaved, for 0, 1k, 10k and 50k sprites of 1 and of 8
# textures (sprite i uses texture i%K).
SPRITES  ?= 0 1000 10000 50000
TEXTURES ?= 1 8
ROUNDS   ?= 1 2 3
bench-sprites: build
	$(GO) build -o bin/ ./bench/bunnymark-gl
	cd bench/bunnymark-ebiten && $(GO) build -o ../../bin/bunnymark-ebiten .
	@for round in $(ROUNDS); do for n in $(SPRITES); do for k in $(TEXTURES); do \
	  if [ $$n = 0 ] && [ $$k != 1 ]; then continue; fi; \
	  for prog in "./bin/demo -bench sprites" ./bin/bunnymark-gl ./bin/bunnymark-ebiten; do \
	    xvfb-run -a -s "-screen 0 1280x720x24" $$prog -n $$n -textures $$k 2>/dev/null | grep RESULT; \
	  done; done; done; done

# gpu-bundle packs bin/demo and the plain instanced GL program
# (bench/bunnymark-gl) with every shared library they load, glibc aside,
# into .gpu/ (tools/gpucheck/bundle.sh), with the GPU check: for a machine
# with an NVIDIA driver and nothing else. Carry .gpu there and run
# bash .gpu/check.sh: it proves the GL renderer is the GPU's and prints
# issue 40's table (BENCHMARKS.md, "Sprites on a GPU").
gpu-bundle: build
	$(GO) build -o bin/ ./bench/bunnymark-gl
	bash tools/gpucheck/bundle.sh

# gpu-check runs that check here, from the bundle, on llvmpipe through
# Mesa's EGL (SDL's offscreen driver), with fewer sprites and software
# allowed: it tests the packing and the script where no GPU is at hand.
GPUCHECK_SIZES ?= 1000 3000
gpu-check: gpu-bundle
	GPUCHECK_ALLOW_SOFTWARE=1 SIZES="$(GPUCHECK_SIZES)" TEX8_SIZE=3000 FEED_SIZES="0 3000 30000" bash .gpu/check.sh

# bench-physics runs fixstep's physics and Chipmunk2D side by side
# (bench/physics-chipmunk, a module of its own): stack, pyramid, piles of 1k
# and 10k boxes, bouncing balls, with sleeping off and on.
bench-physics:
	cd bench/physics-chipmunk && $(GO) run . -rounds 3

lint: fixvet conflicts
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	@$(GO) mod tidy -diff >/dev/null || { echo "go.mod/go.sum are not tidy: run go mod tidy"; $(GO) mod tidy -diff; exit 1; }

# conflicts fails on a merge-conflict marker left in a tracked file (as
# the working tree has it): a line that is <<<<<<<, |||||||, ======= or
# >>>>>>>, alone or followed by a space. gofmt and go vet see none in a
# Markdown file: three were left in docs/determinism.md by a merge. (A
# Markdown heading underlined with exactly seven = is taken for one: use
# #.) tools/lint's test plants one.
conflicts:
	@out=$$(git grep -n -I -E '^(<{7}|\|{7}|={7}|>{7})( |$$)' -- .); case $$? in \
	  0) echo "merge-conflict markers in tracked files (resolve them: keep what both sides meant):"; echo "$$out"; exit 1;; \
	  1) ;; \
	  *) echo "conflicts: git grep failed (not a git checkout?)"; exit 1;; esac

# fixvet checks what simulates (docs/determinism.md, "The checker"): the
# skeleton's and the demo's games, and the engine's own //fixvet:sim
# packages (physics, detmath, input, cmd/demo/arena). Under go vet, so
# unchanged packages are not checked again.
fixvet:
	$(GO) build -o bin/fixvet ./cmd/fixvet
	$(GO) vet -vettool=$(CURDIR)/bin/fixvet ./...

# profile runs the demo for a fixed number of frames with a CPU profile
# (under Xvfb when there is no display) and prints the top of it.
PROFILE_FRAMES ?= 600
profile: build
	@if [ -n "$$DISPLAY$$WAYLAND_DISPLAY$$SDL_VIDEODRIVER" ]; then \
	  ./bin/demo -frames $(PROFILE_FRAMES) -cpuprofile cpu.prof $(DEMO_FLAGS); \
	else xvfb-run -a -s "-screen 0 1280x720x24" ./bin/demo -frames $(PROFILE_FRAMES) -cpuprofile cpu.prof $(DEMO_FLAGS); fi
	$(GO) tool pprof -top -nodecount 30 bin/demo cpu.prof

# new creates a game of your own in a module of its own at DIR (default
# ../NAME): the skeleton renamed, a go.mod requiring the engine (replaced by
# this checkout until it is published), a Makefile with run and test, and a
# README (cmd/newgame).
new:
	@$(GO) run ./cmd/newgame -name "$(NAME)" $(if $(DIR),-dir "$(DIR)") $(if $(MODULE),-module "$(MODULE)")

clean:
	rm -rf bin demo.png bench.txt cpu.prof .gpu
