package lint

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	fences     = regexp.MustCompile("(?s)```.*?```")
	paragraphs = regexp.MustCompile(`\n[ \t]*\n`)
)

// TestNoRepeatedParagraph: no two paragraphs of the README or a guide in
// docs/ open with the same ten words (code blocks and tables left out).
// A paragraph pasted twice, or rewritten beside its first version, is
// how the README's package section came to say the same thing twice.
func TestNoRepeatedParagraph(t *testing.T) {
	files, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range append(files, "../../README.md") {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]int{}
		for i, p := range paragraphs.Split(fences.ReplaceAllString(string(b), ""), -1) {
			w := strings.Fields(p)
			if len(w) < 12 || strings.HasPrefix(w[0], "|") {
				continue
			}
			key := strings.Join(w[:10], " ")
			if j, ok := seen[key]; ok {
				t.Errorf("%s: paragraphs %d and %d both open %q", filepath.Base(name), j+1, i+1, key)
			}
			seen[key] = i
		}
	}
}
