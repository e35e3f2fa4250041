package shaders

import (
	"strings"
	"testing"
)

func TestEveryShaderIsGLSL330Core(t *testing.T) {
	names := Names()
	if len(names) < 4 {
		t.Fatalf("only %d shaders embedded: %v", len(names), names)
	}
	for _, n := range names {
		src, err := Source(n)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(src, "#version 330 core\n") {
			t.Errorf("%s does not start with \"#version 330 core\"", n)
		}
	}
}

func TestPairs(t *testing.T) {
	// Every vertex shader has its fragment shader and the other way round;
	// a variant fragment shader, base_variant.frag, pairs with base.vert.
	have := map[string]bool{}
	for _, n := range Names() {
		have[n] = true
	}
	for n := range have {
		base, ext, _ := strings.Cut(n, ".")
		other := map[string]string{"vert": "frag", "frag": "vert"}[ext]
		if ext == "frag" {
			base, _, _ = strings.Cut(base, "_")
		}
		if !have[base+"."+other] {
			t.Errorf("%s has no %s.%s", n, base, other)
		}
	}
}

func TestUnknownName(t *testing.T) {
	if _, err := Source("nope.frag"); err == nil || err.Error() != `shaders: no shader named "nope.frag"` {
		t.Errorf("Source(nope.frag) error = %v", err)
	}
}
