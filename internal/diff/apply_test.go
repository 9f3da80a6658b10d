package diff

import (
	"strings"
	"testing"
)

// patchStats counts the +/- lines and hunks of a patch.
func patchStats(patch string) Stats {
	var s Stats
	ls := splitKeep(patch)
	if len(ls) < 2 {
		return s
	}
	del, ins := 0, 0
	flush := func() {
		s.Changed += max(del, ins)
		del, ins = 0, 0
	}
	for _, l := range ls[2:] {
		switch {
		case strings.HasPrefix(l, "@@"):
			flush()
			s.Hunks++
		case l[0] == '-':
			s.Deleted++
			del++
		case l[0] == '+':
			s.Inserted++
			ins++
		case l[0] == ' ':
			flush()
		}
	}
	flush()
	return s
}

// check diffs a and b with o, applies the patch and compares stats.
func check(t testing.TB, a, b string, o Options) string {
	t.Helper()
	p, st, err := Unified("x", "y", a, b, o)
	if err != nil {
		t.Fatalf("Unified(%q, %q): %v", a, b, err)
	}
	if a == b {
		if p != "" || st != (Stats{}) {
			t.Fatalf("equal inputs: patch %q, stats %+v", p, st)
		}
		return p
	}
	if p == "" {
		t.Fatalf("Unified(%q, %q): empty patch", a, b)
	}
	got, err := Apply(a, p)
	if err != nil {
		t.Fatalf("applying the patch of %q -> %q: %v\n%s", a, b, err, p)
	}
	if got != b {
		t.Fatalf("patch of %q -> %q gives %q\n%s", a, b, got, p)
	}
	if ps := patchStats(p); ps != st {
		t.Fatalf("stats %+v, the patch has %+v\n%s", st, ps, p)
	}
	return p
}

func TestApplySmall(t *testing.T) {
	cases := [][2]string{
		{"", "a\n"},
		{"a\n", ""},
		{"a", "a\n"},
		{"a\n", "a"},
		{"a\nb\nc\n", "a\nc\n"},
		{"a\nb", "a\nc"},
		{"x\r\ny\r\n", "x\ny\r\n"},
		{"}\n\n}\n\n}\n", "}\n}\n\n\n}\n"},
		{"a\nb\na\nb\n", "a\nb\na\nb\na\nb\n"},
		{"\n\n\n", "\n"},
		{"a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\n", "a\nB\nc\nd\ne\nf\ng\nh\ni\nJ\nk\n"},
	}
	for _, c := range cases {
		for _, ctx := range []int{0, 1, 3, 10} {
			p := check(t, c[0], c[1], Options{Context: ctx, ContextSet: true})
			t.Logf("%q -> %q -U%d:\n%s", c[0], c[1], ctx, p)
		}
	}
}
