package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/fscache/fscache/internal/scancache"
	"github.com/fscache/fscache/internal/walk"
)

// TestGlobFirstLimitedMatchesFullWalk: an uncached glob with a limit and no
// mtime sort, with no scan of its root at hand, walks in path order and
// stops at the limit (firstLimited); it answers exactly as the glob over
// the full walk (a cached scan) for patterns, type filters (a link to a
// directory among them), hidden and ignore options and limits, streams the
// same matches to onMatch, and walks less of the tree when its matches
// come early.
func TestGlobFirstLimitedMatchesFullWalk(t *testing.T) {
	isolateGit(t)
	useCache(t, scancache.Policy{TTL: 10 * time.Minute, EmptyRecheck: time.Hour, MaxEntries: 16}) // nothing watches
	root := streamTree(t)
	mustDo(t, os.Symlink("d2/s1", filepath.Join(root, "d0", "zlink")))
	mustDo(t, os.Symlink("f00.txt", filepath.Join(root, "d0", "s0", "alink.txt")))
	total := 0
	walked := func() int64 { return CacheStats().FullScanEntries }
	stoppedEarly := false
	for _, pat := range []string{"**/*.txt", "*.txt", "d*", "**/s1/**", "**/f0*", "**", "**/*link*", "nothing*"} {
		for _, ft := range []walk.FileType{0, walk.File, walk.Dir, walk.Symlink} {
			for _, hidden := range []bool{false, true} {
				for _, limit := range []int{1, 2, 5, 17, 100000} {
					o := GlobOptions{Pattern: pat, Path: root, FileType: ft, Hidden: hidden, MaxResults: Int(limit)}
					name := fmt.Sprintf("%q type %d hidden %v limit %d", pat, ft, hidden, limit)
					var got []GlobMatch
					before, scans := walked(), CacheStats().FullScans
					res, err := Glob(o, func(m GlobMatch) error { got = append(got, m); return nil })
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if CacheStats().FullScans != scans+1 {
						t.Fatalf("%s: the uncached glob did not walk", name)
					}
					n := walked() - before
					o.Cache = true
					want, err := Glob(o, nil)
					if err != nil {
						t.Fatal(err)
					}
					if !reflect.DeepEqual(res, want) {
						t.Fatalf("%s:\nfirst     %+v\nfull walk %+v", name, res, want)
					}
					if len(got) != len(want.Matches) || len(got) > 0 && !reflect.DeepEqual(got, want.Matches) {
						t.Fatalf("%s: onMatch got %+v, want %+v", name, got, want.Matches)
					}
					if limit == 100000 {
						total = max(total, int(n))
					} else if limit == 1 && pat == "**" && n*3 < int64(total) {
						stoppedEarly = true
					}
				}
			}
		}
	}
	if !stoppedEarly {
		t.Error("no first glob with a limit stopped short of the tree")
	}
}
