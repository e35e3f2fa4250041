package determinism

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// The packages whose types name a game's hooks and its world.
const (
	enginePath  = "github.com/fixstep/fixstep/engine"
	physicsPath = "github.com/fixstep/fixstep/physics"
)

// Directives.
const (
	simDirective    = "//fixvet:sim"
	ignoreDirective = "//fixvet:ignore"
)

// worldChanges are the physics.World methods that change a world.
var worldChanges = map[string]bool{
	"Add": true, "Remove": true, "Step": true, "Teleport": true, "Wake": true, "Restore": true, "Reserve": true,
	"ApplyImpulse": true, "ApplyImpulseAt": true, "ApplyAngularImpulse": true, "ApplyTorque": true,
}

// packageMarked reports whether f has a //fixvet:sim line before its
// package clause.
func packageMarked(f *ast.File) bool {
	for _, g := range f.Comments {
		if g.Pos() > f.Package {
			break
		}
		if hasDirective(g, simDirective) {
			return true
		}
	}
	return false
}

// hasDirective reports whether a comment of g is the directive, alone or
// followed by a space.
func hasDirective(g *ast.CommentGroup, directive string) bool {
	if g == nil {
		return false
	}
	for _, c := range g.List {
		if c.Text == directive || strings.HasPrefix(c.Text, directive+" ") {
			return true
		}
	}
	return false
}

// directives records f's //fixvet:ignore lines, and reports those without
// a reason.
func (c *checker) directives(f *ast.File) {
	for _, g := range f.Comments {
		for _, cm := range g.List {
			rest, ok := strings.CutPrefix(cm.Text, ignoreDirective)
			if !ok || (rest != "" && rest[0] != ' ' && rest[0] != '\t') {
				continue
			}
			reason, _, _ := strings.Cut(rest, "//") // a comment on the comment is no reason
			if strings.TrimSpace(reason) == "" {
				c.pass.Reportf(cm.Pos(), "//fixvet:ignore needs a reason: //fixvet:ignore WHY THIS IS DETERMINISTIC")
				continue
			}
			p := c.pass.Fset.Position(cm.Pos())
			lines := c.ignored[p.Filename]
			if lines == nil {
				lines = map[int]bool{}
				c.ignored[p.Filename] = lines
			}
			lines[p.Line] = true // a trailing comment
			if c.startsLine(cm.Pos()) {
				lines[p.Line+1] = true // a comment above
			}
		}
	}
}

// startsLine reports whether the comment at pos has only indentation
// before it on its line.
func (c *checker) startsLine(pos token.Pos) bool {
	tf := c.pass.Fset.File(pos)
	src, err := c.pass.ReadFile(tf.Name())
	if err != nil {
		return false
	}
	start, off := tf.Offset(tf.LineStart(tf.Line(pos))), tf.Offset(pos)
	return off <= len(src) && strings.TrimSpace(string(src[start:off])) == ""
}

// isIgnored reports whether a //fixvet:ignore accepts a finding at pos.
func (c *checker) isIgnored(pos token.Pos) bool {
	p := c.pass.Fset.Position(pos)
	return c.ignored[p.Filename][p.Line]
}

// isRoot reports whether u simulates by itself (see the package doc).
func (c *checker) isRoot(u *unit) bool {
	if hasDirective(u.decl.Doc, simDirective) {
		return true
	}
	sig := u.obj.Signature()
	if isBot(sig) {
		return true
	}
	if recv := sig.Recv(); recv != nil {
		switch u.obj.Name() {
		case "Update":
			if isTickHook(sig) && sig.Results().Len() == 1 {
				return true
			}
		case "Input":
			if isTickHook(sig) && sig.Results().Len() == 0 && hasUpdate(recv.Type()) {
				return true
			}
		case "Start":
			if hasParams(sig, isInt) && hasResults(sig, isError) && hasUpdate(recv.Type()) {
				return true
			}
		case "Save":
			if hasParams(sig, isBytes) && hasResults(sig, isBytes) && hasUpdate(recv.Type()) {
				return true
			}
		case "Load":
			if hasParams(sig, isBytes) && hasResults(sig, isError) && hasUpdate(recv.Type()) {
				return true
			}
		case "BeginContact":
			if hasParams(sig, func(t types.Type) bool { return isPointerTo(t, physicsPath, "Contact") }) {
				return true
			}
		case "EndContact":
			bodyID := func(t types.Type) bool { return isNamed(t, physicsPath, "BodyID") }
			if hasParams(sig, bodyID, bodyID) {
				return true
			}
		}
	}
	return u.changesWorld || c.pass.Pkg.Name() == "main" && makesGame(sig)
}

// makesGame reports whether a function's results hold a game (a type with
// Update(engine.Tick) error, or a pointer to one). In a command, such a
// constructor builds the state the game starts from; in a library, a type
// with an Update may wrap a game (netplay.Session) and its constructor
// set up a transport, so run asks this of package main only.
func makesGame(sig *types.Signature) bool {
	if sig.Recv() != nil {
		return false
	}
	for i := range sig.Results().Len() {
		t := sig.Results().At(i).Type()
		if p, ok := types.Unalias(t).(*types.Pointer); ok {
			t = p.Elem()
		}
		if _, ok := types.Unalias(t).(*types.Named); ok && hasUpdate(t) {
			return true
		}
	}
	return false
}

// isTickHook reports whether sig is Update(engine.Tick) error or
// Input(engine.Tick, []byte).
func isTickHook(sig *types.Signature) bool {
	tick := func(t types.Type) bool { return isNamed(t, enginePath, "Tick") }
	return hasParams(sig, tick) && hasResults(sig, isError) ||
		hasParams(sig, tick, isBytes) && sig.Results().Len() == 0
}

// isBot reports whether sig is app.Options.Bot's, func(seed uint64, t
// engine.Tick, dst []byte): a bot's input decides the world of a -bot run,
// which a cross-build check compares.
func isBot(sig *types.Signature) bool {
	return sig.Results().Len() == 0 && hasParams(sig,
		func(t types.Type) bool { return types.Identical(t, types.Typ[types.Uint64]) },
		func(t types.Type) bool { return isNamed(t, enginePath, "Tick") },
		isBytes)
}

// hasUpdate reports whether the receiver type t (or *t) has the method
// Update(engine.Tick) error, promoted ones included.
func hasUpdate(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(t), true, nil, "Update")
	fn, ok := obj.(*types.Func)
	return ok && isTickHook(fn.Signature()) && fn.Signature().Results().Len() == 1
}

func hasParams(sig *types.Signature, want ...func(types.Type) bool) bool {
	return matches(sig.Params(), want)
}

func hasResults(sig *types.Signature, want ...func(types.Type) bool) bool {
	return matches(sig.Results(), want)
}

func matches(t *types.Tuple, want []func(types.Type) bool) bool {
	if t.Len() != len(want) {
		return false
	}
	for i, w := range want {
		if !w(t.At(i).Type()) {
			return false
		}
	}
	return true
}

func isInt(t types.Type) bool { return types.Identical(t, types.Typ[types.Int]) }

func isError(t types.Type) bool { return types.Identical(t, types.Universe.Lookup("error").Type()) }

func isBytes(t types.Type) bool {
	s, ok := t.(*types.Slice)
	return ok && types.Identical(s.Elem(), types.Typ[types.Byte])
}

// isNamed reports whether t is the named type path.name.
func isNamed(t types.Type, path, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Name() == name && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == path
}

func isPointerTo(t types.Type, path, name string) bool {
	p, ok := types.Unalias(t).(*types.Pointer)
	return ok && isNamed(p.Elem(), path, name)
}

// isWorldState reports whether t is a physics.World or Body, or a pointer
// to one.
func isWorldState(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	return isNamed(t, physicsPath, "World") || isNamed(t, physicsPath, "Body")
}
