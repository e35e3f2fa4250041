package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runner runs cross.sh --runner on bin with PATH set to path and returns
// what it printed, what it said on stderr, and whether it succeeded.
func runner(t *testing.T, bin, arch, path string) (string, string, bool) {
	t.Helper()
	cmd := exec.Command("bash", "cross.sh", "--runner", bin, arch)
	cmd.Env = append(os.Environ(), "PATH="+path)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	return strings.TrimSpace(string(out)), stderr.String(), err == nil
}

// write makes an executable file in dir.
func write(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRunnerDetection checks how cross.sh decides to run a build under
// qemu-user: by the error that running it natively gives, never by the
// machine's name, so a kernel without 32-bit support runs the 386 build
// under qemu-i386 and a foreign CPU's build runs where binfmt_misc runs it.
func TestRunnerDetection(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	// Only what the script needs from PATH, plus fake emulators.
	for _, tool := range []string{"basename"} {
		p, err := exec.LookPath(tool)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(p, filepath.Join(bin, tool)); err != nil {
			t.Fatal(err)
		}
	}
	path := bin

	// An ELF file for a machine no kernel runs: execve fails with ENOEXEC,
	// as a 386 build does on a kernel built without 32-bit support.
	elf := make([]byte, 64)
	copy(elf, "\x7fELF\x01\x01\x01")
	elf[18], elf[19] = 0x99, 0x99 // e_machine
	foreign := write(t, dir, "foreign", string(elf))

	if got, msg, ok := runner(t, foreign, "386", path); ok {
		t.Errorf("no qemu-i386 installed: got runner %q, want a failure naming qemu-user", got)
	} else if !strings.Contains(msg, "qemu-user") || !strings.Contains(msg, "qemu-i386") {
		t.Errorf("no qemu-i386 installed: the error %q does not say what to install", msg)
	}

	// With an emulator that runs it, the emulator is the runner.
	write(t, bin, "qemu-i386", "#!/bin/sh\n[ \"$2\" = -probe ] && exit 0\nexit 9\n")
	if got, msg, ok := runner(t, foreign, "386", path); !ok || got != "qemu-i386" {
		t.Errorf("386 that cannot execute natively: runner %q (ok %v, %s), want qemu-i386", got, ok, msg)
	}
	write(t, bin, "qemu-aarch64", "#!/bin/sh\nexit 0\n")
	if got, _, ok := runner(t, foreign, "arm64", path); !ok || got != "qemu-aarch64" {
		t.Errorf("arm64: runner %q, want qemu-aarch64", got)
	}

	// An emulator that cannot run it either is a failure, not a skip.
	write(t, bin, "qemu-s390x", "#!/bin/sh\necho 'qemu: bad ELF' >&2\nexit 1\n")
	if got, msg, ok := runner(t, foreign, "s390x", path); ok || !strings.Contains(msg, "bad ELF") {
		t.Errorf("s390x whose emulator fails: runner %q ok %v, error %q", got, ok, msg)
	}

	// A build that runs natively needs no runner.
	native := write(t, dir, "native", "#!/bin/sh\n[ \"$1\" = -probe ] && exit 0\nexit 9\n")
	if got, msg, ok := runner(t, native, "386", path); !ok || got != "" {
		t.Errorf("a build that runs: runner %q (ok %v, %s), want none", got, ok, msg)
	}

	// A v3 build on a CPU without AVX2 says so (Go's runtime message):
	// it runs under qemu-x86_64 -cpu max.
	v3 := write(t, dir, "v3", "#!/bin/sh\necho 'This program can only be run on AMD64 processors with v3 microarchitecture support.' >&2\nexit 1\n")
	write(t, bin, "qemu-x86_64", "#!/bin/sh\nexit 0\n")
	if got, msg, ok := runner(t, v3, "amd64", path); !ok || got != "qemu-x86_64 -cpu max" {
		t.Errorf("v3 on an older CPU: runner %q (ok %v, %s), want qemu-x86_64 -cpu max", got, ok, msg)
	}

	// Any other failure is the build's own, reported, never emulated away.
	broken := write(t, dir, "broken", "#!/bin/sh\necho 'boom' >&2\nexit 3\n")
	if got, msg, ok := runner(t, broken, "386", path); ok || !strings.Contains(msg, "boom") {
		t.Errorf("a build that fails natively: runner %q ok %v, error %q", got, ok, msg)
	}
}
