package regex

import "testing"

func TestNeeds(t *testing.T) {
	cases := []struct {
		pat  string
		ic   bool
		want string
	}{
		{"hello", false, `"hello"`},
		{"Hello", false, `"hello"`},
		{"hello", true, `"hello"`},
		{"foo.*bar", false, `and("foo" "bar")`},
		{"foo|bar", false, `or("foo" "bar")`},
		{"(?i)kelvin", false, "or(\"kelvin\" \"\u212aelvin\")"},
		{"ab|cd", false, `all`},
		{"(foo.*x|bar.*y)z", false, `or("foo" "bar")`},
		{".*", false, `all`},
		{"a+", false, `all`},
		{"abcd+", false, `"abc"`},
		{"xyz(?=abc)", false, `"xyz"`},
		{`(\w+)\s\1`, false, `all`},
		{"hello(", false, `"hello("`},
	}
	for _, c := range cases {
		got := Needs(Options{Pattern: c.pat, IgnoreCase: c.ic}, 3).String()
		if got != c.want {
			t.Errorf("Needs(%q, ic=%v) = %s, want %s", c.pat, c.ic, got, c.want)
		}
	}
}
