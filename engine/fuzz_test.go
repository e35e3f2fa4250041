package engine

import (
	"cmp"
	"encoding/binary"
	"testing"
	"time"
)

// FuzzTimestep feeds random frame-time series under random configurations
// and checks the invariants that hold for every frame: alpha in [0, 1), no
// more updates than the cap, ticks numbered without gaps, and every
// nanosecond fed either simulated, owed or reported dropped.
func FuzzTimestep(f *testing.F) {
	f.Add(uint16(60), uint32(0), int64(250e6), uint8(0), uint8(0), uint16(1000), []byte{16, 0, 0, 0, 200, 3, 1, 7})
	f.Add(uint16(0), uint32(20e6), int64(-1), uint8(5), uint8(2), uint16(250), []byte{255, 255, 255, 10, 0, 0})
	f.Add(uint16(144), uint32(0), int64(0), uint8(3), uint8(1), uint16(3000), []byte{1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Fuzz(func(t *testing.T, tps uint16, tickNs uint32, maxFrame int64, maxUpdates, policy uint8, scaleMilli uint16, frames []byte) {
		// Every configuration inside Config's documented limits: TPS up to
		// MaxTPS, ticks of 100 µs or more, a clamp no shorter than a tick,
		// a time scale of 0 (real time) or 0.001 to 4.999.
		cfg := Config{
			TPS:                int(tps) % (MaxTPS + 1),
			MaxFrameTime:       time.Duration(maxFrame % int64(10*time.Second)),
			MaxUpdatesPerFrame: int(maxUpdates),
			Overrun:            Overrun(policy % 3),
			TimeScale:          float64(scaleMilli%5000) / 1000,
		}
		if tickNs != 0 {
			cfg.Tick = time.Second/MaxTPS + time.Duration(tickNs)%time.Second
		}
		tick := cfg.Tick
		if tick == 0 {
			tick = time.Duration(float64(time.Second) / float64(cmp.Or(cfg.TPS, DefaultTPS)))
		}
		if cfg.MaxFrameTime > 0 && cfg.MaxFrameTime < tick {
			cfg.MaxFrameTime = tick
		}
		limit := cfg.MaxUpdatesPerFrame
		if limit == 0 {
			limit = DefaultMaxUpdatesPerFrame
		}
		ts, err := NewTimestep(cfg)
		if err != nil {
			t.Fatalf("config %+v rejected: %v", cfg, err)
		}
		next := uint64(0)
		for len(frames) >= 3 {
			// Three bytes a frame: up to 16.7 s, in ns with a coarse exponent.
			v := binary.LittleEndian.Uint16(frames)
			e := time.Duration(v) << (frames[2] % 19)
			frames = frames[3:]
			fr := ts.Advance(e)
			if fr.Alpha < 0 || fr.Alpha >= 1 {
				t.Fatalf("frame %d: alpha %v", fr.Index, fr.Alpha)
			}
			if fr.Ticks > limit {
				t.Fatalf("frame %d: %d ticks over cap %d", fr.Index, fr.Ticks, limit)
			}
			if fr.FirstTick != next {
				t.Fatalf("frame %d: first tick %d, want %d", fr.Index, fr.FirstTick, next)
			}
			next += uint64(fr.Ticks)
			if cfg.Overrun != CatchUp && fr.Debt != 0 {
				t.Fatalf("frame %d: debt %d under %v", fr.Index, fr.Debt, cfg.Overrun)
			}
			assertBalance(t, &ts)
		}
	})
}
