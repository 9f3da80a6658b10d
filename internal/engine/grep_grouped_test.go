package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestGrepGroupedEqualsFlat: a Grouped grep reports through EachMatch the
// same matches, totals and limit flag as the flat result, over offset,
// maxCount, maxCountPerFile and context.
func TestGrepGroupedEqualsFlat(t *testing.T) {
	root := t.TempDir()
	for f := range 7 {
		var b strings.Builder
		for l := range 3 + f*2 {
			fmt.Fprintf(&b, "line %d\nhit %d in %d\n", l, l, f)
		}
		os.WriteFile(filepath.Join(root, fmt.Sprintf("f%d.txt", f)), []byte(b.String()), 0o644)
	}
	ints := []*int{nil, ptrInt(0), ptrInt(1), ptrInt(4), ptrInt(17), ptrInt(1000)}
	for _, off := range ints {
		for _, maxc := range ints {
			for _, per := range []*int{nil, ptrInt(2)} {
				for _, ctx := range []*int{nil, ptrInt(1)} {
					o := GrepOptions{Pattern: "hit", Path: root, Offset: off, MaxCount: maxc, MaxCountPerFile: per, Context: ctx}
					flat, err := Grep(o, nil)
					if err != nil {
						t.Fatal(err)
					}
					o.Grouped = true
					var streamed []GrepMatch
					grouped, err := Grep(o, func(m GrepMatch) error { streamed = append(streamed, m); return nil })
					if err != nil {
						t.Fatal(err)
					}
					var got []GrepMatch
					EachMatch(&grouped, func(m *GrepMatch) error { got = append(got, *m); return nil })
					name := fmt.Sprintf("offset %v maxCount %v perFile %v context %v", show(off), show(maxc), show(per), show(ctx))
					if len(grouped.Matches) != 0 {
						t.Errorf("%s: a grouped result has %d flat matches", name, len(grouped.Matches))
					}
					if !reflect.DeepEqual(got, flat.Matches) && !(len(got) == 0 && len(flat.Matches) == 0) {
						t.Errorf("%s: grouped %d matches, flat %d", name, len(got), len(flat.Matches))
					}
					if !reflect.DeepEqual(streamed, got) {
						t.Errorf("%s: onMatch saw %d matches, EachMatch %d", name, len(streamed), len(got))
					}
					if grouped.TotalMatches != flat.TotalMatches || grouped.LimitReached != flat.LimitReached ||
						grouped.FilesWithMatches != flat.FilesWithMatches || grouped.FilesSearched != flat.FilesSearched {
						t.Errorf("%s: grouped %+v, flat %+v", name, grouped, flat)
					}
				}
			}
		}
	}
}

func ptrInt(v int) *int { return &v }

func show(p *int) string {
	if p == nil {
		return "nil"
	}
	return fmt.Sprint(*p)
}
