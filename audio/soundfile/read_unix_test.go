//go:build unix

package soundfile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestDevicesAndFIFOs: a FIFO and /dev/zero, through os.DirFS, are refused
// at once, without opening them (a FIFO's open waits for a writer).
func TestDevicesAndFIFOs(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.wav"), 0o600); err != nil {
		t.Fatal(err)
	}
	const wantFIFO = "soundfile: a named pipe (FIFO), not a regular file"
	if _, err := Read(os.DirFS(dir), "pipe.wav", 0); err == nil || err.Error() != wantFIFO {
		t.Errorf("FIFO: %v, want %s", err, wantFIFO)
	}
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip(err)
	}
	const wantZero = "soundfile: a character device, not a regular file"
	if _, err := Read(os.DirFS("/dev"), "zero", 0); err == nil || err.Error() != wantZero {
		t.Errorf("/dev/zero: %v, want %s", err, wantZero)
	}
}
