package engine

// Bool returns a pointer to v, for the optional fields of the options in
// tests (Int, which Grep uses too, is in core.go).
func Bool(v bool) *bool { return &v }
