//go:build cgo && unix

package audio

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
	m := Silent()
	const wantFIFO = "audio: load pipe.wav: soundfile: a named pipe (FIFO), not a regular file"
	if _, err := m.LoadSound(os.DirFS(dir), "pipe.wav"); err == nil || err.Error() != wantFIFO {
		t.Errorf("FIFO: %v, want %s", err, wantFIFO)
	}
	if _, err := m.LoadMusic(os.DirFS(dir), "pipe.wav"); err == nil || err.Error() != wantFIFO {
		t.Errorf("FIFO as music: %v, want %s", err, wantFIFO)
	}
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip(err)
	}
	const wantZero = "audio: load zero: soundfile: a character device, not a regular file"
	if _, err := m.LoadSound(os.DirFS("/dev"), "zero"); err == nil || err.Error() != wantZero {
		t.Errorf("/dev/zero: %v, want %s", err, wantZero)
	}
}
