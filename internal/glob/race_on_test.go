//go:build race

package glob

// timeScale stretches the tests' time bounds under the race detector, which
// slows this code about fifteenfold.
const timeScale = 20
