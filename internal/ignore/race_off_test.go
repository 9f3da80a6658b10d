//go:build !race

package ignore

// timeScale stretches the tests' time bounds under the race detector.
const timeScale = 1
