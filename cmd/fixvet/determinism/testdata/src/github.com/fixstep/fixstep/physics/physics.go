// Package physics is a stub of fixstep's physics: the types fixvet looks for.
package physics

type Vec2 struct{ X, Y float64 }

type Body struct {
	Pos, Vel Vec2
	Radius   float64
}

type BodyID struct{ i int }

type Contact struct{ A, B BodyID }

type World struct {
	Gravity Vec2
	Workers *Workers
	bodies  []Body
}

type Workers struct{ MinBodies int }

func (w *World) Add(b Body) (BodyID, error) {
	w.bodies = append(w.bodies, b)
	return BodyID{len(w.bodies) - 1}, nil
}
func (w *World) Body(id BodyID) *Body                     { return &w.bodies[id.i] }
func (w *World) Bodies() []Body                           { return w.bodies }
func (w *World) ApplyImpulse(id BodyID, impulse Vec2)     {}
func (w *World) Step(dt float64)                          {}
func (w *World) Snapshot(dst []byte) []byte               { return dst }
func (w *World) Restore(src []byte) error                 { return nil }
func (w *World) QueryPoint(p Vec2, dst []BodyID) []BodyID { return dst }
