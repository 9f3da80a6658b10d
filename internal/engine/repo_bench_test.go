package engine

import (
	"os"
	"testing"
)

// BenchmarkGrepRepo is a cached grep over the repository FSCACHE_BENCH_REPO
// names (skipped without it): a token found nowhere and a literal.
func BenchmarkGrepRepo(b *testing.B) {
	root := os.Getenv("FSCACHE_BENCH_REPO")
	if root == "" {
		b.Skip("FSCACHE_BENCH_REPO names no repository")
	}
	for _, c := range []struct {
		name string
		o    GrepOptions
	}{
		{"nowhere-cached", GrepOptions{Pattern: "zqxjFoundNowhere", Path: root, Cache: true}},
		{"literal-cached", GrepOptions{Pattern: "function", Path: root, Cache: true}},
	} {
		b.Run(c.name, func(b *testing.B) {
			Grep(c.o, nil)
			for b.Loop() {
				if _, err := Grep(c.o, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
