package diff

import (
	"fmt"
	"testing"
)

// BenchmarkUnified: the generated files of 2k, 12k and 100k lines with 10,
// 50, 200 and 1000 edits, context 3. Reports the patch's bytes.
func BenchmarkUnified(b *testing.B) {
	for _, lines := range []int{2000, 12000, 100000} {
		for _, edits := range []int{10, 50, 200, 1000} {
			x, y := genPair(lines, edits, uint32(lines*7919+edits))
			b.Run(fmt.Sprintf("lines=%d/edits=%d", lines, edits), func(b *testing.B) {
				b.SetBytes(int64(len(x) + len(y)))
				var p string
				for b.Loop() {
					var err error
					if p, _, err = Unified("old", "new", x, y, Options{}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(len(p)), "patch-bytes")
			})
		}
	}
}
