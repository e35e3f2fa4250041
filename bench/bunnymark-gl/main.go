// Command bunnymark-gl is the plain baseline of fixstep's sprites benchmark:
// the same scene as "demo -bench sprites" (N sprites of 32×32 premultiplied
// RGBA bouncing in 800×600, nearest filtering, premultiplied source-over,
// vsync off), written as directly as OpenGL allows: one file, no engine, one
// vertex buffer of positions uploaded per frame and one instanced draw call.
// With -textures K, sprite i uses texture i%K: the K images are layers of
// one array texture, so it is still one draw call, the best plain OpenGL
// does for K images of one size.
// Like fixstep's renderer, it keeps at most two frames in flight: a fence
// after each frame, and a wait for the one two frames old before the next
// (without it, a driver whose swap does not wait, such as EGL's offscreen
// surfaces, queues frames faster than the GPU draws them, and the frame
// interval measures the CPU alone; llvmpipe then defers the drawing).
// The simulation steps at 60 ticks per second of real time, as in fixstep
// and Ebitengine, so the sprites are spread alike at any frame rate (the
// rasterizer's cost depends on where they are); it draws the latest tick,
// uninterpolated. It prints the same RESULT line, so the programs can be
// compared run for run:
//
//	go run ./bench/bunnymark-gl -n 10000
//	go run ./cmd/demo -bench sprites -n 10000
package main

import (
	"flag"
	"fmt"
	"log"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"github.com/go-gl/gl/v3.3-core/gl"
	"github.com/veandco/go-sdl2/sdl"
)

const (
	width, height = 800, 600
	size          = 32
	warmup        = time.Second
	measure       = 3 * time.Second
)

const vertexShader = `#version 330 core
layout(location = 0) in vec2 corner;
layout(location = 1) in vec3 pos; // x, y, texture layer
out vec3 uv;
void main() {
    vec2 p = pos.xy + corner * 32.0;
    gl_Position = vec4(p.x / 400.0 - 1.0, 1.0 - p.y / 300.0, 0.0, 1.0);
    uv = vec3(corner, pos.z);
}
` + "\x00"

const fragmentShader = `#version 330 core
in vec3 uv;
uniform sampler2DArray tex;
out vec4 color;
void main() { color = texture(tex, uv); }
` + "\x00"

type bunny struct{ x, y, vx, vy float32 }

func main() {
	n := flag.Int("n", 1000, "sprites")
	seed := flag.Uint64("seed", 1, "random seed")
	textures := flag.Int("textures", 1, "sprite i uses texture i%K of K textures")
	flag.Parse()
	if *textures < 1 || *textures > 256 {
		log.Fatalf("bunnymark-gl: -textures %d: want 1 to 256", *textures)
	}
	if err := run(*n, *seed, *textures); err != nil {
		log.Fatal("bunnymark-gl: ", err)
	}
}

func run(n int, seed uint64, k int) error {
	if err := sdl.Init(sdl.INIT_VIDEO); err != nil {
		return err
	}
	defer sdl.Quit()
	sdl.GLSetAttribute(sdl.GL_CONTEXT_MAJOR_VERSION, 3)
	sdl.GLSetAttribute(sdl.GL_CONTEXT_MINOR_VERSION, 3)
	sdl.GLSetAttribute(sdl.GL_CONTEXT_PROFILE_MASK, sdl.GL_CONTEXT_PROFILE_CORE)
	sdl.GLSetAttribute(sdl.GL_DOUBLEBUFFER, 1)
	win, err := sdl.CreateWindow("bunnymark-gl", sdl.WINDOWPOS_CENTERED, sdl.WINDOWPOS_CENTERED, width, height, sdl.WINDOW_OPENGL)
	if err != nil {
		return err
	}
	defer win.Destroy()
	ctx, err := win.GLCreateContext()
	if err != nil {
		return err
	}
	defer sdl.GLDeleteContext(ctx)
	if err := gl.InitWithProcAddrFunc(sdl.GLGetProcAddress); err != nil {
		return err
	}
	sdl.GLSetSwapInterval(0)
	// Which GL this runs on: a figure from llvmpipe is not a GPU's.
	fmt.Printf("GL_RENDERER=%q GL_VERSION=%q\n", gl.GoStr(gl.GetString(gl.RENDERER)), gl.GoStr(gl.GetString(gl.VERSION)))

	prog, err := program()
	if err != nil {
		return err
	}
	defer gl.DeleteProgram(prog)
	var vao, quad, inst, tex uint32
	gl.GenVertexArrays(1, &vao)
	defer gl.DeleteVertexArrays(1, &vao)
	gl.BindVertexArray(vao)
	corners := []float32{0, 0, 1, 0, 0, 1, 1, 1}
	gl.GenBuffers(1, &quad)
	defer gl.DeleteBuffers(1, &quad)
	gl.BindBuffer(gl.ARRAY_BUFFER, quad)
	gl.BufferData(gl.ARRAY_BUFFER, 32, gl.Ptr(corners), gl.STATIC_DRAW)
	gl.EnableVertexAttribArray(0)
	gl.VertexAttribPointerWithOffset(0, 2, gl.FLOAT, false, 8, 0)
	gl.GenBuffers(1, &inst)
	defer gl.DeleteBuffers(1, &inst)
	gl.BindBuffer(gl.ARRAY_BUFFER, inst)
	gl.EnableVertexAttribArray(1)
	gl.VertexAttribPointerWithOffset(1, 3, gl.FLOAT, false, 12, 0)
	gl.VertexAttribDivisor(1, 1)

	gl.GenTextures(1, &tex)
	defer gl.DeleteTextures(1, &tex)
	gl.BindTexture(gl.TEXTURE_2D_ARRAY, tex)
	gl.TexParameteri(gl.TEXTURE_2D_ARRAY, gl.TEXTURE_MIN_FILTER, gl.NEAREST)
	gl.TexParameteri(gl.TEXTURE_2D_ARRAY, gl.TEXTURE_MAG_FILTER, gl.NEAREST)
	gl.TexImage3D(gl.TEXTURE_2D_ARRAY, 0, gl.RGBA8, size, size, int32(k), 0, gl.RGBA, gl.UNSIGNED_BYTE, nil)
	for layer := range k {
		pix := pixels(color(layer))
		gl.TexSubImage3D(gl.TEXTURE_2D_ARRAY, 0, 0, 0, int32(layer), size, size, 1, gl.RGBA, gl.UNSIGNED_BYTE, gl.Ptr(pix))
	}
	gl.UseProgram(prog)
	gl.Enable(gl.BLEND)
	gl.BlendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA)
	gl.ClearColor(0, 0, 0, 1)
	gl.Viewport(0, 0, width, height)

	rng := rand.New(rand.NewPCG(seed, seed))
	bunnies := make([]bunny, n)
	for i := range bunnies {
		bunnies[i] = bunny{vx: rng.Float32() * 10, vy: rng.Float32()*10 - 5}
	}
	pos := make([]float32, 3*max(n, 1))
	intervals := make([]time.Duration, 0, 1<<16)
	var fences [2]uintptr // frames in flight
	defer func() {
		for _, f := range fences {
			if f != 0 {
				gl.DeleteSync(f)
			}
		}
	}()
	frame := 0
	var cpu0 time.Duration // the process's CPU time when the measured frames began
	const tick = time.Second / 60
	start := time.Now()
	last := start    // the end of the last frame, for its interval
	stepped := start // how far the simulation has counted real time
	var lag time.Duration
	for {
		for ev := sdl.PollEvent(); ev != nil; ev = sdl.PollEvent() {
			if _, ok := ev.(*sdl.QuitEvent); ok {
				return nil
			}
		}
		// Every moment of real time counts once: the time since the last
		// count, not since the last frame's end (which left out the frame
		// itself, so the sprites hardly moved from their corner).
		now := time.Now()
		lag += now.Sub(stepped)
		stepped = now
		for ; lag >= tick; lag -= tick {
			step(bunnies, rng)
		}
		layer := 0 // i%k, counted, as in fixstep's loop
		for i, b := range bunnies {
			pos[3*i], pos[3*i+1], pos[3*i+2] = b.x, b.y, float32(layer)
			if layer++; layer == k {
				layer = 0
			}
		}
		gl.Clear(gl.COLOR_BUFFER_BIT)
		if n > 0 {
			gl.BufferData(gl.ARRAY_BUFFER, 12*n, nil, gl.STREAM_DRAW)
			gl.BufferSubData(gl.ARRAY_BUFFER, 0, 12*n, unsafe.Pointer(&pos[0]))
			gl.DrawArraysInstanced(gl.TRIANGLE_STRIP, 0, 4, int32(n))
		}
		win.GLSwap()
		i := frame % len(fences)
		if fences[i] != 0 {
			gl.ClientWaitSync(fences[i], gl.SYNC_FLUSH_COMMANDS_BIT, uint64(5*time.Second))
			gl.DeleteSync(fences[i])
		}
		fences[i] = gl.FenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0)
		frame++
		now = time.Now()
		t := now.Sub(start)
		if t >= warmup+measure {
			break
		}
		if t >= warmup {
			intervals = append(intervals, now.Sub(last))
		} else {
			cpu0 = processCPU()
		}
		last = now
	}
	cpu := processCPU() - cpu0
	slices.Sort(intervals)
	med := float64(intervals[len(intervals)/2]) / 1e6
	fmt.Printf("RESULT name=plain-gl n=%d textures=%d frames=%d ms_per_frame_median=%.3f fps=%.1f cpu_ms_per_frame=%.3f\n",
		n, k, len(intervals), med, 1000/med, float64(cpu)/1e6/float64(len(intervals)))
	return nil
}

// processCPU returns the CPU time the process has used, all its threads
// (a software rasterizer's included).
func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func step(b []bunny, rng *rand.Rand) {
	for i := range b {
		s := &b[i]
		s.x += s.vx
		s.y += s.vy
		s.vy += 0.75
		switch {
		case s.x > width-size:
			s.vx, s.x = -s.vx, width-size
		case s.x < 0:
			s.vx, s.x = -s.vx, 0
		}
		switch {
		case s.y > height-size:
			s.vy *= -0.85
			s.y = height - size
			if rng.Float32() < 0.5 {
				s.vy -= rng.Float32() * 6
			}
		case s.y < 0:
			s.vy, s.y = 0, 0
		}
	}
}

// color is texture k's color, as in fixstep's bunnymark.
func color(k int) [3]byte {
	if k == 0 {
		return [3]byte{230, 180, 200}
	}
	return [3]byte{byte(80 + 37*k%176), byte(80 + 71*k%176), byte(80 + 113*k%176)}
}

func pixels(c [3]byte) []byte {
	pix := make([]byte, 4*size*size)
	for y := range size {
		for x := range size {
			dx, dy := float64(x)-15.5, float64(y)-15.5
			a := min(max(15.5-math.Sqrt(dx*dx+dy*dy), 0), 1)
			o := 4 * (y*size + x)
			pix[o], pix[o+1], pix[o+2], pix[o+3] = byte(float64(c[0])*a), byte(float64(c[1])*a), byte(float64(c[2])*a), byte(255*a)
		}
	}
	return pix
}

func program() (uint32, error) {
	compile := func(kind uint32, src string) (uint32, error) {
		s := gl.CreateShader(kind)
		cs, free := gl.Strs(src)
		gl.ShaderSource(s, 1, cs, nil)
		free()
		gl.CompileShader(s)
		var ok int32
		gl.GetShaderiv(s, gl.COMPILE_STATUS, &ok)
		if ok == gl.FALSE {
			var n int32
			gl.GetShaderiv(s, gl.INFO_LOG_LENGTH, &n)
			buf := strings.Repeat("\x00", int(n+1))
			gl.GetShaderInfoLog(s, n, nil, gl.Str(buf))
			return 0, fmt.Errorf("shader: %s", buf)
		}
		return s, nil
	}
	vs, err := compile(gl.VERTEX_SHADER, vertexShader)
	if err != nil {
		return 0, err
	}
	fs, err := compile(gl.FRAGMENT_SHADER, fragmentShader)
	if err != nil {
		return 0, err
	}
	p := gl.CreateProgram()
	gl.AttachShader(p, vs)
	gl.AttachShader(p, fs)
	gl.LinkProgram(p)
	gl.DeleteShader(vs)
	gl.DeleteShader(fs)
	return p, nil
}
