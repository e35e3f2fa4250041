package save

// LoadVisits is Load, also returning the nodes its walk visited: the
// measure of Load's work that FuzzLoad and TestLoadLinear hold to a bound
// per byte of input, counted rather than timed so that a loaded machine
// cannot fail it.
func LoadVisits(src []byte, v any) (int, error) {
	p, ptr, err := pointer(v)
	if err != nil {
		return 0, err
	}
	var w walk
	err = p.loadCounted(src, ptr, &w)
	return w.visits, err
}
