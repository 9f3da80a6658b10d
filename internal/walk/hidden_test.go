package walk

import "testing"

// TestSystemHiddenIsHidden: an entry the system marks hidden (Windows'
// attribute) is treated as a dot-named one: dropped unless hidden entries
// are shown. The Windows walk feeds osHidden into this decision
// (hidden_windows_test.go runs it on real files under wine).
func TestSystemHiddenIsHidden(t *testing.T) {
	for _, c := range []struct {
		show, osHid bool
		name        string
		want        bool
	}{
		{false, false, "a.txt", true},
		{false, true, "a.txt", false},
		{true, true, "a.txt", true},
		{false, false, ".a", false},
		{true, false, ".a", true},
	} {
		w := newWalker(Options{Root: "/root-not-read", Hidden: c.show}) // keeps reads nothing
		for _, dir := range []bool{false, true} {
			if got := w.keeps(nil, c.name, dir, c.osHid); got != c.want {
				t.Errorf("keeps(%q, dir %v, osHidden %v) with Hidden %v = %v, want %v", c.name, dir, c.osHid, c.show, got, c.want)
			}
		}
	}
}
