package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestGolden checks the scenes on this build against the golden hashes:
// make cross runs the same on the other CPUs and builds.
func TestGolden(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, false, ""); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if n := strings.Count(out.String(), " ok "); n != len(scenes) {
		t.Errorf("%d of %d scenes ok:\n%s", n, len(scenes), out.String())
	}
}

func TestOneScene(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, false, "detmath"); err != nil || strings.Count(out.String(), " ok ") != 1 || !strings.HasPrefix(out.String(), "detmath ") {
		t.Errorf("-scene detmath: %v\n%s", err, out.String())
	}
	if err := run(&out, false, "nosuch"); err == nil || !strings.Contains(err.Error(), `"nosuch"`) {
		t.Errorf("-scene nosuch: %v", err)
	}
}

// TestWorkers: every scene gives its golden hash on a pool of 3 workers
// (make cross runs 1, 2, 3, 4, 8, 16 and 32), as stepped alone; and
// -workers reads its list.
func TestWorkers(t *testing.T) {
	var out bytes.Buffer
	sizes := []int{3}
	if err := run(&out, false, "", sizes...); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if n := strings.Count(out.String(), " ok "); n != len(sizes)*len(scenes) {
		t.Errorf("%d of %d scenes ok:\n%s", n, len(sizes)*len(scenes), out.String())
	}
	if got, err := parseWorkers("1, 2,32"); err != nil || len(got) != 3 || got[0] != 1 || got[1] != 2 || got[2] != 32 {
		t.Errorf("parseWorkers(\"1, 2,32\") = %v, %v", got, err)
	}
	for _, bad := range []string{"", "0", "2,x", "257", "-1"} {
		if _, err := parseWorkers(bad); err == nil {
			t.Errorf("parseWorkers(%q) took it", bad)
		}
	}
}

func TestParseGolden(t *testing.T) {
	if _, err := parseGolden("game 12zz\n"); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("a bad line: %v", err)
	}
	m, err := parseGolden("a 00000000000000ff\nb 1\n")
	if err != nil || m["a"] != 255 || m["b"] != 1 {
		t.Errorf("parseGolden = %v, %v", m, err)
	}
}
