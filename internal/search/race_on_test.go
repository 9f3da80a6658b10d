//go:build race

package search

// raceEnabled: sync.Pool drops items at random under the race detector.
const raceEnabled = true
