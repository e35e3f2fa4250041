// Command bunnymark-ebiten is fixstep's sprites benchmark written for
// Ebitengine v2.8, for a side-by-side comparison: the same 800×600 scene of
// N sprites of 32×32 premultiplied RGBA (nearest filtering, premultiplied
// source-over, cleared each frame), the same motion at 60 TPS from the same
// seed, vsync off, and the same RESULT line. With -textures K, sprite i
// draws image i%K of K images (Ebitengine packs them into its atlas).
//
// It is a module of its own, so fixstep itself does not depend on
// Ebitengine:
//
//	cd bench/bunnymark-ebiten && go run . -n 10000
package main

import (
	"errors"
	"flag"
	"fmt"
	"image"
	"log"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
)

const (
	width, height = 800, 600
	size          = 32
	warmup        = time.Second
	measure       = 3 * time.Second
)

type bunny struct{ x, y, vx, vy float32 }

type game struct {
	n         int
	bunnies   []bunny
	rng       *rand.Rand
	imgs      []*ebiten.Image
	op        ebiten.DrawImageOptions
	start     time.Time
	last      time.Time
	intervals []time.Duration
	done      bool
}

func (g *game) Update() error {
	if g.done {
		return ebiten.Termination
	}
	for i := range g.bunnies {
		s := &g.bunnies[i]
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
			if g.rng.Float32() < 0.5 {
				s.vy -= g.rng.Float32() * 6
			}
		case s.y < 0:
			s.vy, s.y = 0, 0
		}
	}
	return nil
}

func (g *game) Draw(screen *ebiten.Image) {
	screen.Clear()
	for i := range g.bunnies {
		g.op.GeoM.Reset()
		g.op.GeoM.Translate(float64(g.bunnies[i].x), float64(g.bunnies[i].y))
		screen.DrawImage(g.imgs[i%len(g.imgs)], &g.op)
	}
	now := time.Now()
	if g.start.IsZero() {
		g.start, g.last = now, now
		return
	}
	t := now.Sub(g.start)
	if t >= warmup && t < warmup+measure {
		g.intervals = append(g.intervals, now.Sub(g.last))
	}
	if t >= warmup+measure {
		g.done = true
	}
	g.last = now
}

func (g *game) Layout(int, int) (int, int) { return width, height }

func main() {
	n := flag.Int("n", 1000, "sprites")
	seed := flag.Uint64("seed", 1, "random seed")
	textures := flag.Int("textures", 1, "sprite i uses image i%K of K images")
	flag.Parse()
	if *textures < 1 || *textures > 256 {
		log.Fatalf("bunnymark-ebiten: -textures %d: want 1 to 256", *textures)
	}
	rng := rand.New(rand.NewPCG(*seed, *seed))
	g := &game{n: *n, rng: rng, bunnies: make([]bunny, *n)}
	for i := range g.bunnies {
		g.bunnies[i] = bunny{vx: rng.Float32() * 10, vy: rng.Float32()*10 - 5}
	}
	for k := range *textures {
		c := color(k)
		pix := image.NewRGBA(image.Rect(0, 0, size, size))
		for y := range size {
			for x := range size {
				dx, dy := float64(x)-15.5, float64(y)-15.5
				a := min(max(15.5-math.Sqrt(dx*dx+dy*dy), 0), 1)
				o := pix.PixOffset(x, y)
				pix.Pix[o], pix.Pix[o+1], pix.Pix[o+2], pix.Pix[o+3] = byte(float64(c[0])*a), byte(float64(c[1])*a), byte(float64(c[2])*a), byte(255*a)
			}
		}
		g.imgs = append(g.imgs, ebiten.NewImageFromImage(pix))
	}
	ebiten.SetWindowSize(width, height)
	ebiten.SetWindowTitle("bunnymark-ebiten")
	ebiten.SetVsyncEnabled(false)
	ebiten.SetTPS(60)
	if err := ebiten.RunGame(g); err != nil && !errors.Is(err, ebiten.Termination) {
		log.Fatal(err)
	}
	if len(g.intervals) == 0 {
		log.Fatal("bunnymark-ebiten: no frames measured")
	}
	slices.Sort(g.intervals)
	med := float64(g.intervals[len(g.intervals)/2]) / 1e6
	fmt.Printf("RESULT name=ebitengine n=%d textures=%d frames=%d ms_per_frame_median=%.3f fps=%.1f\n", *n, *textures, len(g.intervals), med, 1000/med)
}

// color is image k's color, as in fixstep's bunnymark.
func color(k int) [3]byte {
	if k == 0 {
		return [3]byte{230, 180, 200}
	}
	return [3]byte{byte(80 + 37*k%176), byte(80 + 71*k%176), byte(80 + 113*k%176)}
}
