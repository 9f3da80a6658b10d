package core

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fscache/fscache/internal/engine"
)

// The cost of converting the engine's results into the public types,
// beside the grep of Go's source tree that produced them:
//
//	go test -run '^$' -bench 'Grep|Convert' -count 3 ./core
//
// BenchmarkGrepGoSrc/<case>/core is the public call (the engine's grep,
// grouped by file, then the conversion), /<case>/engine the engine's call
// as it was made when the public types were aliases (flat matches, no
// conversion); BenchmarkConvertGrep/<case> is the conversion alone, of
// the same result.

// goSrc returns $(go env GOROOT)/src, and skips b when there is none.
func goSrc(b *testing.B) string {
	root := os.Getenv("GOROOT")
	if root == "" {
		if out, err := exec.Command("go", "env", "GOROOT").Output(); err == nil {
			root = strings.TrimSpace(string(out))
		}
	}
	if root == "" {
		b.Skip("no GOROOT")
	}
	src := filepath.Join(root, "src")
	if st, err := os.Stat(src); err != nil || !st.IsDir() {
		b.Skipf("no Go source tree at %s", src)
	}
	return src
}

// benchGreps are the greps of Go's src: many matches without context, and
// fewer with two lines of context on each side.
var benchGreps = []struct {
	name string
	o    GrepOptions
}{
	{"func", GrepOptions{Pattern: `^func \w+\(`}},
	{"context", GrepOptions{Pattern: `TODO\(`, Context: Int(2)}},
}

func BenchmarkGrepGoSrc(b *testing.B) {
	src := goSrc(b)
	ctx := context.Background()
	for _, c := range benchGreps {
		o := c.o
		o.Path = src
		b.Run(c.name+"/core", func(b *testing.B) {
			n := 0
			b.ReportAllocs()
			for b.Loop() {
				r, err := Grep(ctx, o)
				if err != nil {
					b.Fatal(err)
				}
				n = len(r.Matches)
			}
			b.ReportMetric(float64(n), "matches")
		})
		b.Run(c.name+"/engine", func(b *testing.B) {
			eo := grepOptions(ctx, o)
			eo.Grouped = false
			n := 0
			b.ReportAllocs()
			for b.Loop() {
				r, err := engine.Grep(eo, nil)
				if err != nil {
					b.Fatal(err)
				}
				n = len(r.Matches)
			}
			b.ReportMetric(float64(n), "matches")
		})
	}
}

func BenchmarkConvertGrep(b *testing.B) {
	src := goSrc(b)
	ctx := context.Background()
	for _, c := range benchGreps {
		o := c.o
		o.Path = src
		b.Run(c.name, func(b *testing.B) {
			r, err := engine.Grep(grepOptions(ctx, o), nil)
			if err != nil {
				b.Fatal(err)
			}
			n := 0
			b.ReportAllocs()
			for b.Loop() {
				n = len(grepResult(&r).Matches)
			}
			b.ReportMetric(float64(n), "matches")
		})
	}
}
