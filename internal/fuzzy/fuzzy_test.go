package fuzzy

import "testing"

// The scores below were recorded from the reference's fuzzyFind.
func TestScore(t *testing.T) {
	for _, c := range []struct {
		query, path string
		dir         bool
		want        int
	}{
		{"", "a/b.txt", false, 1},
		{"", "a/b", true, 11},
		{"button", "src/components/Button.tsx", false, 100},
		{"btn", "src/components/Button.tsx", false, 80},
		{"src", "src", true, 130},
		{"src/", "src", true, 100},
		{"src/comp", "src/components", true, 70},
		{"sc/bt", "src/components/Button.tsx", false, 55},
		{"sr/mai", "src/main.rs", false, 65},
		{"ÜNÏ", "src/Ünïcode.txt", false, 100},
		{"._-", "a._-b", false, 0},
		{"abc", "lib/a_b-c.d.ts", false, 90},
		{"libutilsstringsgo", "lib/utils/strings.go", false, 0},
		{"l/u/s", "lib/utils", true, 70},
		{"s/", "lib/a_b-c.d.ts", false, 90},
		{"s/", "src/Ünïcode.txt", false, 70},
		{"s/", "Docs/guide.md", false, 60},
		{"uts", "lib/utils", true, 95},
		{"istanbul", "İstanbul.txt", false, 85},
		{"i\u0307stanbul", "İstanbul.txt", false, 100},
		{"ΣΑΣ", "ΣΑΣ.txt", false, 0},
		{"σας", "ΣΑΣ", false, 120},
	} {
		if got := NewQuery(c.query).Score(c.path, c.dir); got != c.want {
			t.Errorf("Score(%q, %q, dir=%v) = %d, want %d", c.query, c.path, c.dir, got, c.want)
		}
	}
}

func TestSubsequenceGaps(t *testing.T) {
	for _, c := range []struct {
		q, s string
		want int
	}{
		{"abc", "abc", 40}, {"abc", "axbc", 35}, {"abc", "axbxc", 30}, {"ac", "xxac", 40},
		{"abc", "acb", 0}, {"a", "", 0}, {"abcdefghij", "axbxcxdxexfxgxhxixj", 1},
	} {
		if got := subsequence(c.q, c.s); got != c.want {
			t.Errorf("subsequence(%q, %q) = %d, want %d", c.q, c.s, got, c.want)
		}
	}
}
