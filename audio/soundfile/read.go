package soundfile

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
)

// Read reads the file at path in fsys whole, up to limit bytes
// (MaxFileBytes when limit is zero or less). It refuses what is not a
// regular file before opening it (opening a FIFO waits for a writer), a
// file whose size is over the limit before reading it, and stops reading
// at limit+1 bytes whatever the file said its size was: /dev/zero, a pipe,
// a file that grows, an fs.FS that lies. The errors of fsys (which name
// the file) are returned as they are; its own errors do not name the
// file, which the caller does.
func Read(fsys fs.FS, path string, limit int64) ([]byte, error) {
	if limit <= 0 {
		limit = MaxFileBytes
	}
	st, err := fs.Stat(fsys, path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("soundfile: %s, not a regular file", modeName(st.Mode()))
	}
	if st.Size() > limit {
		return nil, fmt.Errorf("soundfile: %d bytes, over the limit of %s", st.Size(), byteSize(limit))
	}
	f, err := fsys.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := readAtMost(f, limit, st.Size())
	if err != nil {
		return nil, fmt.Errorf("soundfile: %w", err)
	}
	return b, nil
}

// readAtMost reads r to its end, expecting size bytes (a guess: what
// Stat said), and fails once it has more than limit bytes. It reads the
// size it expects into one buffer; past it, in blocks of 1 MiB, so that a
// reader that never ends costs limit bytes, not the copies of a growing
// buffer.
func readAtMost(r io.Reader, limit, size int64) ([]byte, error) {
	r = io.LimitReader(r, limit+1)
	first := make([]byte, min(max(size, 0), limit)+1) // +1: the end is seen without a block
	n, err := io.ReadFull(r, first)
	switch {
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		return first[:n], nil
	case err != nil:
		return nil, err
	}
	blocks, total := [][]byte{first}, int64(n)
	for {
		block := make([]byte, min(1<<20, limit+1-total))
		n, err := io.ReadFull(r, block)
		blocks, total = append(blocks, block[:n]), total+int64(n)
		switch {
		case total > limit:
			return nil, fmt.Errorf("more than the limit of %s, though its size says %s: reading stopped there",
				byteSize(limit), byteSize(size))
		case err == io.EOF || err == io.ErrUnexpectedEOF:
			return bytes.Join(blocks, nil), nil
		case err != nil:
			return nil, err
		}
	}
}

// modeName names a file's type for an error message.
func modeName(m fs.FileMode) string {
	switch {
	case m&fs.ModeDir != 0:
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "an irregular file"
}
