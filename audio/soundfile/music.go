package soundfile

import "fmt"

// checkWAVMusic walks a WAV file's chunks the way SDL_mixer 2.6's music
// loader (music_wav.c) does, which differs from SDL's: no pad bytes, every
// chunk to the end of the file, each fmt chunk read again. Its readers of
// three chunks trust the file: a LIST INFO tag longer than what follows it
// is read past the end of the chunk's buffer, and so is an smpl chunk's
// loop count. checkWAVMusic renames LIST and "id3 " chunks to JUNK, which
// SDL_mixer skips (the mixer never shows their tags), checks each smpl
// chunk's loops fit in it, and checks each fmt chunk as parseWAVFormat does.
func checkWAVMusic(b []byte) error {
	n := int64(len(b))
	var fmts, datas int
	for pos, count := int64(12), 0; pos+8 <= n; count++ {
		if count >= wavMaxChunks {
			return fmt.Errorf("WAV file of more than %d chunks", wavMaxChunks)
		}
		c := wavChunk{id: string(b[pos : pos+4]), pos: pos + 8, len: int64(le32(b[pos+4:]))}
		if c.len == 0 {
			break // SDL_mixer stops at the first empty chunk
		}
		switch c.id {
		case "fmt ":
			if _, err := parseWAVFormat(b, c); err != nil {
				return err
			}
			fmts++
		case "data":
			datas++
		case "LIST", "id3 ":
			copy(b[pos:], "JUNK")
		case "smpl":
			const head, loop, most = 36, 24, 256
			if c.pos+c.len > n {
				return fmt.Errorf("WAV smpl chunk at byte %d runs past the end of the file", pos)
			}
			loops := int64(0)
			if c.len >= head {
				loops = int64(le32(b[c.pos+28:]))
			}
			if c.len < head || loops > (c.len-head)/loop {
				return fmt.Errorf("WAV smpl chunk at byte %d of %d bytes: %d loops do not fit", pos, c.len, loops)
			}
			if loops > most {
				// SDL_mixer grows its list one loop at a time.
				return fmt.Errorf("WAV smpl chunk at byte %d with %d loops, more than %d", pos, loops, most)
			}
		}
		pos = c.pos + c.len
	}
	if fmts == 0 || datas == 0 {
		return fmt.Errorf("WAV file without fmt and data chunks before its first empty chunk")
	}
	return nil
}
