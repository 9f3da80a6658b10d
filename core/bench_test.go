package core

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
