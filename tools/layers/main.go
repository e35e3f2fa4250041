// Command layers prints the lists of internal/layers' table that the
// Makefile uses: "layers pure" prints the pure packages (no cgo: make
// test-pure tests them with CGO_ENABLED=0) as go command patterns, on
// one line.
package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/fixstep/fixstep/internal/layers"
)

func main() {
	if len(os.Args) != 2 || os.Args[1] != "pure" {
		fmt.Fprintln(os.Stderr, "usage: layers pure")
		os.Exit(2)
	}
	fmt.Println(strings.Join(layers.PurePatterns(), " "))
}
