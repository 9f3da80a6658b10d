package index

import (
	"encoding/binary"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// BenchmarkBuild measures the trigram sets of Go source alone and a whole
// build (sets, radix sort, encoding) over up to 16 MiB of it, beside
// "floor": the least per-byte work an n-gram index of every position can
// do (one hashed trigram per byte set in a 64 Kbit bitmap per file that
// stays in the L1 cache, two positions per step for the CPU's parallelism;
// no list of distinct grams, no sort, no encoding).

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
	b.Run("floor", func(b *testing.B) {
		b.SetBytes(int64(total))
		var bm [1 << 10]uint64
		for b.Loop() {
			for _, f := range files {
				clear(bm[:])
				half := (len(f) - 3) / 2
				for i := 0; i < half; i++ {
					t := binary.LittleEndian.Uint32(f[i:]) | 0x20202020
					u := binary.LittleEndian.Uint32(f[i+half:]) | 0x20202020
					h, g := (t<<8)*0x9E3779B1>>16, (u<<8)*0x9E3779B1>>16
					bm[h>>6] |= 1 << (h & 63)
					bm[g>>6] |= 1 << (g & 63)
				}
			}
		}
		if bm[0] == 1<<63 {
			b.Log("") // keeps the loop's stores live
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
