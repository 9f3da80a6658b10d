package engine

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func goroot(t testing.TB) string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return runtime.GOROOT()
	}
	return strings.TrimSpace(string(out))
}

// BenchmarkGlobGoroot compares a fresh scan with a cache hit over
// $GOROOT/src (about 12k files).
func BenchmarkGlobGoroot(b *testing.B) {
	root := filepath.Join(goroot(b), "src")
	b.Run("fresh", func(b *testing.B) {
		for b.Loop() {
			if _, err := Glob(GlobOptions{Pattern: "*.go", Path: root}, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("find-tool", func(b *testing.B) {
		// As the agent's find tool calls it.
		maxResults := 200
		o := GlobOptions{Pattern: "**/*", Path: root, Hidden: true, SortByMtime: true, MaxResults: &maxResults}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Glob(o, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("cached", func(b *testing.B) {
		o := GlobOptions{Pattern: "*.go", Path: root, Cache: true}
		Glob(o, nil)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Glob(o, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("cached-fuzzy", func(b *testing.B) {
		o := FuzzyFindOptions{Query: "srvhttp", Path: root, Cache: true}
		FuzzyFind(o)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := FuzzyFind(o); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkFuzzyFindFresh is an uncached fuzzyFind over $GOROOT/src: a
// scan, then every entry scored once.
func BenchmarkFuzzyFindFresh(b *testing.B) {
	root := filepath.Join(goroot(b), "src")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := FuzzyFind(FuzzyFindOptions{Query: "strconv", Path: root}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGrepGoroot is grep over $GOROOT/src through engine.Grep, walk or
// cache hit included: a literal, and a regex without a prefix literal that
// matches some 36k lines (most of its cost is building the matches).
func BenchmarkGrepGoroot(b *testing.B) {
	root := filepath.Join(goroot(b), "src")
	for _, c := range []struct {
		name string
		o    GrepOptions
	}{
		{"literal", GrepOptions{Pattern: "func main", Path: root}},
		{"no-literal", GrepOptions{Pattern: `\w+_\w+\(`, Path: root}},
		{"no-literal-cached", GrepOptions{Pattern: `\w+_\w+\(`, Path: root, Cache: true}},
		{"no-literal-count-cached", GrepOptions{Pattern: `\w+_\w+\(`, Path: root, Cache: true, Mode: ModeCount}},
	} {
		b.Run(c.name, func(b *testing.B) {
			Grep(c.o, nil)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Grep(c.o, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkListWorkspace is listWorkspace over $GOROOT/src at depths 3 and
// 6, and over an empty directory (the fixed cost of a call).
func BenchmarkListWorkspace(b *testing.B) {
	root := filepath.Join(goroot(b), "src")
	for _, c := range []struct {
		name string
		o    ListWorkspaceOptions
	}{
		{"depth3", ListWorkspaceOptions{Path: root, MaxDepth: 3}},
		{"depth6", ListWorkspaceOptions{Path: root, MaxDepth: 6}},
		{"empty", ListWorkspaceOptions{Path: b.TempDir(), MaxDepth: 3}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ListWorkspace(c.o); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
