package index

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// BenchmarkBuild measures the trigram sets of Go source alone and a whole
// build (sets, radix sort, encoding) over up to 16 MiB of it.

// goFiles returns the contents of up to max bytes of .go files of GOROOT.
func goFiles(b *testing.B, max int) [][]byte {
	var out [][]byte
	n := 0
	filepath.WalkDir(filepath.Join(runtime.GOROOT(), "src"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || n >= max {
			return filepath.SkipDir
		}
		if strings.HasSuffix(p, ".go") {
			if data, err := os.ReadFile(p); err == nil {
				out = append(out, data)
				n += len(data)
			}
		}
		return nil
	})
	return out
}

func BenchmarkBuild(b *testing.B) {
	files := goFiles(b, 16<<20)
	total := 0
	for _, f := range files {
		total += len(f)
	}
	b.Run("grams", func(b *testing.B) {
		b.SetBytes(int64(total))
		var gs gramSet
		for b.Loop() {
			for _, f := range files {
				gs.of(f)
			}
		}
	})
	b.Run("builder", func(b *testing.B) {
		b.SetBytes(int64(total))
		for b.Loop() {
			var bd Builder
			for i, f := range files {
				bd.Add(fmt.Sprintf("f%08d", i), f, true, Meta{})
			}
			bd.Finish()
		}
	})
}
