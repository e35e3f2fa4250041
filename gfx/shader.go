//go:build cgo

package gfx

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/go-gl/gl/v3.3-core/gl"

	"github.com/fixstep/fixstep/shaders"
)

// Program is a linked GL shader program.
type Program struct{ id uint32 }

// LoadProgram compiles and links the embedded shaders name.vert and
// name.frag from package shaders.
func LoadProgram(name string) (Program, error) {
	vs, err := shaders.Source(name + ".vert")
	if err != nil {
		return Program{}, fmt.Errorf("gfx: %w", err)
	}
	fs, err := shaders.Source(name + ".frag")
	if err != nil {
		return Program{}, fmt.Errorf("gfx: %w", err)
	}
	return NewProgram(name+".vert", vs, name+".frag", fs)
}

// NewProgram compiles a vertex and a fragment shader from source and links
// them. Compile errors read "file:line: message", with the names given here.
func NewProgram(vertName, vertSrc, fragName, fragSrc string) (Program, error) {
	vs, err := compile(gl.VERTEX_SHADER, vertName, vertSrc)
	if err != nil {
		return Program{}, err
	}
	defer gl.DeleteShader(vs)
	fs, err := compile(gl.FRAGMENT_SHADER, fragName, fragSrc)
	if err != nil {
		return Program{}, err
	}
	defer gl.DeleteShader(fs)

	id := gl.CreateProgram()
	gl.AttachShader(id, vs)
	gl.AttachShader(id, fs)
	gl.LinkProgram(id)
	var ok int32
	gl.GetProgramiv(id, gl.LINK_STATUS, &ok)
	if ok == gl.FALSE {
		msg := programLog(id)
		gl.DeleteProgram(id)
		return Program{}, fmt.Errorf("gfx: link %s + %s: %s", vertName, fragName, strings.TrimSpace(msg))
	}
	gl.DetachShader(id, vs)
	gl.DetachShader(id, fs)
	live.Add(1)
	return Program{id: id}, glError("link " + vertName)
}

// ID returns the GL name, 0 after Delete.
func (p Program) ID() uint32 { return p.id }

// Use makes p the current program.
func (p Program) Use() { gl.UseProgram(p.id) }

// Uniform returns the location of a uniform, or an error naming it when the
// program has no active uniform of that name.
func (p Program) Uniform(name string) (int32, error) {
	loc := gl.GetUniformLocation(p.id, gl.Str(name+"\x00"))
	if loc < 0 {
		return loc, fmt.Errorf("gfx: program has no active uniform %q", name)
	}
	return loc, nil
}

// Delete deletes the program; later calls do nothing.
func (p *Program) Delete() {
	if p.id != 0 {
		gl.DeleteProgram(p.id)
		p.id = 0
		live.Add(-1)
	}
}

func compile(kind uint32, name, src string) (uint32, error) {
	id := gl.CreateShader(kind)
	csrc, free := gl.Strs(src + "\x00")
	gl.ShaderSource(id, 1, csrc, nil)
	free()
	gl.CompileShader(id)
	var ok int32
	gl.GetShaderiv(id, gl.COMPILE_STATUS, &ok)
	if ok == gl.FALSE {
		var n int32
		gl.GetShaderiv(id, gl.INFO_LOG_LENGTH, &n)
		buf := make([]byte, n+1)
		gl.GetShaderInfoLog(id, n, nil, &buf[0])
		gl.DeleteShader(id)
		return 0, fmt.Errorf("gfx: compile %s", rewriteLog(name, strings.TrimRight(string(buf), "\x00\n ")))
	}
	return id, nil
}

func programLog(id uint32) string {
	var n int32
	gl.GetProgramiv(id, gl.INFO_LOG_LENGTH, &n)
	if n == 0 {
		return "no log"
	}
	buf := make([]byte, n+1)
	gl.GetProgramInfoLog(id, n, nil, &buf[0])
	return strings.TrimRight(string(buf), "\x00")
}

// Driver log line formats, with the source-string number and the line:
// Mesa "0:12(3): error: ...", NVIDIA "0(12) : error C1008: ...", AMD and
// others "ERROR: 0:12: ...".
var logLine = []*regexp.Regexp{
	regexp.MustCompile(`^\d+:(\d+)\(\d+\): (.*)$`),
	regexp.MustCompile(`^\d+\((\d+)\) ?: (.*)$`),
	regexp.MustCompile(`^(?:ERROR|WARNING): \d+:(\d+): (.*)$`),
}

// rewriteLog turns a driver's info log into "name:line: message" lines, the
// form editors and terminals link to the source.
func rewriteLog(name, log string) string {
	var b strings.Builder
	for i, line := range strings.Split(log, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if i > 0 && b.Len() > 0 {
			b.WriteByte('\n')
		}
		done := false
		for _, re := range logLine {
			if m := re.FindStringSubmatch(line); m != nil {
				fmt.Fprintf(&b, "%s:%s: %s", name, m[1], m[2])
				done = true
				break
			}
		}
		if !done {
			fmt.Fprintf(&b, "%s: %s", name, line)
		}
	}
	return b.String()
}
