// Package hidden has what differs by build or by run without looking
// like it, in a game's Update: complex products, maphash, and the map
// orders of reflect and sync.Map.
package hidden

import (
	"hash/fnv"
	"hash/maphash"
	"math/cmplx"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/fixstep/fixstep/engine"
)

type game struct {
	spin, turn complex128
	small      complex64
	x          float64
	scores     map[string]int
	shared     sync.Map
	seed       maphash.Seed
	names      []string
	sum        uint64
}

func (g *game) Update(t engine.Tick) error {
	// Complex products and quotients: fused inside on arm64 and amd64 v3.
	g.spin = g.spin*g.turn + 1             // want `complex product g.spin\*g.turn in simulation code: its parts are computed with products the compiler fuses`
	g.spin = complex128(g.spin*g.turn) + 1 // want `complex product g.spin\*g.turn .*a conversion does not stop it`
	g.spin *= g.turn                       // want `complex product g.spin \*= g.turn`
	g.small = g.small / 2                  // want `complex quotient g.small / 2`
	g.spin /= g.turn                       // want `complex quotient`
	g.x += cmplx.Abs(g.spin)               // want `cmplx.Abs differs between builds`
	g.spin = cmplx.Conj(g.spin) + g.turn   // exact: fine
	g.spin = g.spin + g.turn - 2i          // sums are exact: fine
	const k = (1 + 2i) * (3 - 1i)          // constant, folded: fine
	g.spin += k
	re, im := real(g.spin), imag(g.spin) // a product of parts, rounded: fine
	g.spin = complex(float64(re*re)-float64(im*im), float64(2*re*im))

	// maphash: seeded at random on every run.
	g.seed = maphash.MakeSeed()             // want `maphash.MakeSeed in simulation code: a maphash seed is random on every run`
	g.sum += maphash.String(g.seed, "tank") // want `maphash.String in simulation code`
	var h maphash.Hash
	h.WriteString("tank") // want `maphash.Hash.WriteString in simulation code`
	g.sum += h.Sum64()    // want `maphash.Hash.Sum64`
	f := fnv.New64a()     // a fixed hash: fine
	f.Write([]byte("tank"))
	g.sum += f.Sum64()

	// reflect's and sync.Map's map orders.
	v := reflect.ValueOf(g.scores)
	for it := v.MapRange(); it.Next(); { // want `reflect.Value.MapRange in simulation code: it iterates the map in an order that is random on every run`
		g.names = append(g.names, it.Key().String())
	}
	for _, k := range v.MapKeys() { // want `reflect.Value.MapKeys in simulation code: its keys come in an order that is random`
		g.names = append(g.names, k.String())
	}
	keys := v.MapKeys() // sorted below: fine
	slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
	more := v.MapKeys() // sorted below: fine
	sort.Slice(more, func(i, j int) bool { return more[i].String() < more[j].String() })
	unsorted := v.MapKeys() // want `reflect.Value.MapKeys`
	g.names = append(g.names, unsorted[0].String())
	g.shared.Range(func(k, v any) bool { // want `sync.Map.Range in simulation code: it visits the entries in no fixed order`
		g.names = append(g.names, k.(string))
		return true
	})
	g.shared.Store("tank", 1) // not an order: fine
	return nil
}

// Draw may use all of them.
func (g *game) Draw(engine.Frame) { // want Draw:`findings\(4\)`
	_ = g.spin * g.turn
	_ = maphash.MakeSeed()
	_ = reflect.ValueOf(g.scores).MapKeys()
	g.shared.Range(func(k, v any) bool { return true })
}
