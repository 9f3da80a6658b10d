package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestFuzzyFindCachedEqualsUncached checks that a cached fuzzyFind (which
// skips entries by character masks) answers exactly as an uncached one
// (which scores every entry), for queries that match many, few and no
// entries, with and without '/', in upper case and not ASCII.
func TestFuzzyFindCachedEqualsUncached(t *testing.T) {
	root := t.TempDir()
	names := []string{"httpServer.go", "server_http.go", "HTTP", "mod7file1.ts", "Ünïcode.txt", "İstanbul", "ΣΑΣ.md", "a-b_c.d", "README", "x"}
	for d := 0; d < 30; d++ {
		dir := filepath.Join(root, fmt.Sprintf("pkg%d", d%7), fmt.Sprintf("sub_%d", d))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for i, n := range names {
			os.WriteFile(filepath.Join(dir, fmt.Sprintf("%d%s", i*d%5, n)), nil, 0o644)
		}
	}
	queries := []string{"", "http", "HTTPSERVER", "srvhttp", "mod7", "pkg3/sub", "sub_1/", "/", "ünï", "istanbul", "i̇stanbul", "σας", "a b c", "zzz", "x", "0x", "readme", "p/s/h"}
	for _, q := range queries {
		for _, limit := range []int{3, 1000} {
			o := FuzzyFindOptions{Query: q, Path: root, MaxResults: Int(limit)}
			want, err := FuzzyFind(o)
			if err != nil {
				t.Fatal(err)
			}
			o.Cache = true
			for range 2 { // the first fills the cache, the second hits it
				got, err := FuzzyFind(o)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("query %q limit %d: cached %d/%d matches, uncached %d/%d", q, limit,
						len(got.Matches), got.TotalMatches, len(want.Matches), want.TotalMatches)
				}
			}
		}
	}
}
