package regex

import "testing"

// TestIsLiteral: which patterns match lines by substring search alone,
// without running the automaton.
func TestIsLiteral(t *testing.T) {
	for p, want := range map[string]bool{"func main": true, "foo|bar": true, "hello(": true, `a\.b`: true,
		`\bfoo`: false, `fo+`: false, `^foo`: false, `\w+`: false} {
		m, err := Compile(Options{Pattern: p})
		if err != nil {
			t.Fatal(err)
		}
		if (m.lineMode == modePure) != want {
			t.Errorf("IsLiteral(%q) = %v", p, !want)
		}
	}
}
