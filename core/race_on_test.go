//go:build race

package core

// raceEnabled: the race detector slows matching several times; time bounds
// in tests widen.
const raceEnabled = true
