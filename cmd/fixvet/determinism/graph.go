package determinism

import "go/types"

// graph is the package's call graph, built from the syntax and types: an
// edge for each function or method a unit refers to (a call, a method
// value, a function value), and for each interface method it calls, one
// to each method of the package with that name whose type implements the
// interface.
type graph struct {
	units  []*unit
	byObj  map[*types.Func]*unit
	byName map[string][]*unit // methods
}

func newGraph(units []*unit) *graph {
	g := &graph{units: units, byObj: map[*types.Func]*unit{}, byName: map[string][]*unit{}}
	for _, u := range units {
		if u.obj == nil {
			continue
		}
		g.byObj[u.obj] = u
		if u.decl.Recv != nil {
			g.byName[u.obj.Name()] = append(g.byName[u.obj.Name()], u)
		}
	}
	return g
}

// next returns the units u refers to.
func (g *graph) next(u *unit) []*unit {
	var out []*unit
	for _, fn := range u.callees {
		if v := g.byObj[fn.Origin()]; v != nil {
			out = append(out, v)
		}
	}
	for _, m := range u.ifaces {
		iface, _ := m.Signature().Recv().Type().Underlying().(*types.Interface)
		for _, v := range g.byName[m.Name()] {
			if iface != nil && implements(v.obj, iface) {
				out = append(out, v)
			}
		}
	}
	return out
}

// reach returns u and every unit it reaches.
func (g *graph) reach(u *unit) []*unit {
	seen := map[*unit]bool{u: true}
	out := []*unit{u}
	for i := 0; i < len(out); i++ {
		for _, v := range g.next(out[i]) {
			if !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
		}
	}
	return out
}

// simulating returns the units that simulate: the roots and what they
// reach.
func (g *graph) simulating() map[*unit]bool {
	sim := map[*unit]bool{}
	var queue []*unit
	for _, u := range g.units {
		if u.root {
			sim[u] = true
			queue = append(queue, u)
		}
	}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, v := range g.next(u) {
			if !sim[v] {
				sim[v] = true
				queue = append(queue, v)
			}
		}
	}
	return sim
}

// implements reports whether the receiver type of method m (T or *T)
// implements iface.
func implements(m *types.Func, iface *types.Interface) bool {
	recv := m.Signature().Recv()
	if recv == nil {
		return false
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	return types.Implements(t, iface) || types.Implements(types.NewPointer(t), iface)
}
