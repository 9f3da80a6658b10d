//go:build unix

package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestGrepLargeFiles: files past bigReadFrom (read outside the heap, in a
// mapping each worker reuses and grows) are searched like any other:
// every match, with its line and context, in files of growing and
// shrinking sizes searched by concurrent greps, and a small file after a
// large one in the same worker.
func TestGrepLargeFiles(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	want := map[string][]int{}
	sizes := []int{bigReadFrom + 10, 3*bigReadFrom + 7, 2 * bigReadFrom, 4 << 10, bigReadFrom - 1, 3 * bigReadFrom}
	for i, size := range sizes {
		var b strings.Builder
		line := 1
		name := fmt.Sprintf("f%d.txt", i)
		for b.Len() < size-100 {
			if line%9973 == 1 {
				fmt.Fprintf(&b, "needle %d in file %d\n", line, i)
				want[name] = append(want[name], line)
			} else {
				fmt.Fprintf(&b, "filler line %d of file %d, nothing to see here\n", line, i)
			}
			line++
		}
		fmt.Fprintf(&b, "needle %d in file %d\n", line, i) // the last line
		want[name] = append(want[name], line)
		mustDo(t, os.WriteFile(filepath.Join(root, fmt.Sprintf("f%d.txt", i)), []byte(b.String()), 0o644))
	}
	check := func() error {
		r, err := Grep(GrepOptions{Pattern: "needle", Path: root, Context: Int(1), Gitignore: Bool(false)}, nil)
		if err != nil {
			return err
		}
		got := map[string][]int{}
		for _, m := range r.Matches {
			got[m.Path] = append(got[m.Path], m.LineNumber)
			n := 0
			if _, err := fmt.Sscanf(m.Line, "needle %d", &n); err != nil || n != m.LineNumber {
				return fmt.Errorf("%s:%d: line %q", m.Path, m.LineNumber, m.Line)
			}
			if m.LineNumber > 1 && (len(m.ContextBefore) != 1 || !strings.HasPrefix(m.ContextBefore[0].Line, "filler line ")) {
				return fmt.Errorf("%s:%d: context %+v", m.Path, m.LineNumber, m.ContextBefore)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			return fmt.Errorf("matches %v, want %v", got, want)
		}
		if r.FilesSearched != len(sizes) {
			return fmt.Errorf("filesSearched %d", r.FilesSearched)
		}
		return nil
	}
	if err := check(); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		wg.Go(func() {
			for range 3 {
				if err := check(); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
