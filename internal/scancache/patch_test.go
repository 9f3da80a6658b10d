package scancache

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fscache/fscache/internal/walk"
)

// TestRefreshWalksMarkedSubtreesWhole: a shallow refresh that descends
// into a directory to walk whole reads that directory's subdirectories
// again too, although the old snapshot has them (a watched partition once
// kept a nested directory's old entries here, and its file's new mtime
// was never seen).
func TestRefreshWalksMarkedSubtreesWhole(t *testing.T) {
	root := tree(t, "a/e/sub/deeper/f.txt", "a/e/g.txt", "a/k/h.txt")
	for _, full := range []bool{false, true} {
		k := Key{Root: root, Full: full}
		es, err := walk.Scan(k.Options(nil))
		if err != nil {
			t.Fatal(err)
		}
		// Changes the refresh must see: a file appears two levels under
		// the marked directory, another file grows, a nested directory
		// goes away.
		os.WriteFile(filepath.Join(root, "a/e/sub/new.txt"), nil, 0o644)
		os.WriteFile(filepath.Join(root, "a/e/sub/deeper/f.txt"), []byte("longer"), 0o644)
		os.RemoveAll(filepath.Join(root, "a/e/sub/deeper"))
		os.MkdirAll(filepath.Join(root, "a/e/sub/deeper"), 0o755)
		for _, c := range []struct {
			rel     string
			descend map[string]bool
		}{
			{"a", map[string]bool{"a/e": true}},
			{"", map[string]bool{"a": true}},
		} {
			got, _, err := refresh(k, NewSnapshot(es, time.Time{}), c.rel, false, c.descend, walk.Hooks{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if d := diff(k, got.Entries()); d != "" {
				t.Errorf("full=%v, refresh %q descending %v: %s", full, c.rel, c.descend, d)
			}
		}
		os.Remove(filepath.Join(root, "a/e/sub/new.txt"))
		os.MkdirAll(filepath.Join(root, "a/e/sub/deeper"), 0o755)
		os.WriteFile(filepath.Join(root, "a/e/sub/deeper/f.txt"), []byte("x"), 0o644)
	}
}
