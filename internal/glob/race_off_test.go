//go:build !race

package glob

// timeScale stretches the tests' time bounds under the race detector.
const timeScale = 1
