package input

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestReplayRoundTripAndDamage(t *testing.T) {
	r := Replay{TPS: 60, Seed: 42, Engine: "0.1.0", Params: "n=300", Ticks: 3,
		Input: []byte{0, recKeys, 1, 44, 1, 1, 0, 0}, Hashes: []TickHash{{1, 0xabc}, {3, 0xdef}}}
	data, err := r.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var got Replay
	if err := got.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, r) {
		t.Errorf("round trip: %+v, want %+v", got, r)
	}

	flip := append([]byte(nil), data...)
	flip[20] ^= 1
	v2 := append([]byte(nil), data...)
	v2[8] = 2
	for name, c := range map[string]struct {
		data []byte
		want string
	}{
		"truncated":     {data[:len(data)-5], "checksum mismatch"},
		"a flipped bit": {flip, "checksum mismatch"},
		"not a replay":  {[]byte("PNG\x00\x00\x00\x00\x00\x00\x00"), "not a fixstep replay"},
		"empty":         {nil, "not a fixstep replay"},
		"header only":   {data[:11], "truncated"},
		"newer version": {v2, "format version 2; this build reads version 1"},
	} {
		var x Replay
		err := x.UnmarshalBinary(c.data)
		if !errors.Is(err, ErrBadReplay) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want ErrBadReplay saying %q", name, err, c.want)
		}
	}
}

// FuzzReplay checks that no input makes UnmarshalBinary panic.
func FuzzReplay(f *testing.F) {
	r := Replay{TPS: 60, Input: []byte{0, 0}, Hashes: []TickHash{{1, 2}}}
	data, _ := r.MarshalBinary()
	f.Add(data)
	f.Fuzz(func(t *testing.T, b []byte) {
		var x Replay
		if err := x.UnmarshalBinary(b); err != nil && !errors.Is(err, ErrBadReplay) {
			t.Fatalf("error %v does not wrap ErrBadReplay", err)
		}
		p := NewPlayer(b)
		var s State
		for range 100 {
			if p.Tick(&s) != nil {
				break
			}
		}
	})
}
