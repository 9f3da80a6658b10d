package readcache

import (
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// threeLineFile is n lines drawn at random (seeded) from 3 distinct ones.
func threeLineFile(n int, seed int64) string {
	r := rand.New(rand.NewSource(seed))
	lines := [...]string{"alpha\n", "beta\n", "gamma\n"}
	var b strings.Builder
	for range n {
		b.WriteString(lines[r.Intn(3)])
	}
	return b.String()
}

// TestCostlyDiffServedInFull (issue 45 item 5): a 200k-line file of 3
// distinct lines rewritten as a fresh draw of the same lines is served in
// full because the diff passed its work budget (it used to run to the end,
// 1.1 s through pi's read, and find its patch too large).
func TestCostlyDiffServedInFull(t *testing.T) {
	f := newFixture(t)
	p := f.write("three.txt", threeLineFile(200000, 1))
	first := f.read("three.txt", nil, nil, nil)
	next := threeLineFile(200000, 2)
	if err := os.WriteFile(p, []byte(next), 0o644); err != nil {
		t.Fatal(err)
	}
	r := f.read("three.txt", map[string]string{"full": first.Meta.ServedHash}, nil, nil)
	want, _ := piText(strings.Split(next, "\n"), window{end: 200001, totalLines: 200001}, "three.txt", false)
	if r.Mode != ModeFullFallback || r.Reason != "diff_too_costly" || r.Text != want {
		t.Fatalf("mode %s (%s), %d bytes; want full_fallback (diff_too_costly), pi's %d bytes", r.Mode, r.Reason, len(r.Text), len(want))
	}
}

// BenchmarkRereadCostlyDiff: the reread of TestCostlyDiffServedInFull
// (file read, hashed, the base loaded, the diff given up, pi's text).
func BenchmarkRereadCostlyDiff(b *testing.B) {
	dir := b.TempDir()
	p := filepath.Join(dir, "three.txt")
	if err := os.WriteFile(p, []byte(threeLineFile(200000, 1)), 0o644); err != nil {
		b.Fatal(err)
	}
	o := Options{ResolveOptions: ResolveOptions{Path: "three.txt", Cwd: dir}, StoreDir: filepath.Join(dir, "store")}
	first, err := Read(o)
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(threeLineFile(200000, 2)), 0o644); err != nil {
		b.Fatal(err)
	}
	o.PathKey, o.Bases = first.PathKey, map[string]string{"full": first.Meta.ServedHash}
	for b.Loop() {
		r, err := Read(o)
		if err != nil || r.Mode != ModeFullFallback {
			b.Fatalf("%s %v", r.Mode, err)
		}
	}
}
