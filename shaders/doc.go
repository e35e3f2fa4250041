// Package shaders holds fixstep's GLSL sources as embedded files, so a game
// binary carries its shaders and needs no asset path at run time. Each file
// is GLSL 3.30 core and starts with "#version 330 core". Package gfx compiles
// them and reports errors as name:line: message.
package shaders

import (
	"embed"
	"fmt"
)

//go:embed *.vert *.frag
var files embed.FS

// Source returns the text of the shader file name ("sprite.vert").
func Source(name string) (string, error) {
	b, err := files.ReadFile(name)
	if err != nil {
		return "", fmt.Errorf("shaders: no shader named %q", name)
	}
	return string(b), nil
}

// Names lists the embedded shader files in lexical order.
func Names() []string {
	entries, _ := files.ReadDir(".")
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.Name()
	}
	return names
}
