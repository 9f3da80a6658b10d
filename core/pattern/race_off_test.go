//go:build !race

package pattern

// timeScale stretches the tests' time bounds under the race detector.
const timeScale = 1
