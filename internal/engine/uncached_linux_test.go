package engine

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestUncachedMmapWriteAfterInvalidate: a write through a shared mapping
// raises no inotify event on Linux (some sandboxes' kernels report one), so
// a served answer may keep the file's old mtime; invalidateFsScanCache(path),
// as compat.md says, makes the next served answer (a glob's sortByMtime, a
// listWorkspace) a walk's again.
func TestUncachedMmapWriteAfterInvalidate(t *testing.T) {
	needWatch(t)
	useCache(t, watchedPolicy)
	root, _ := filepath.EvalSymlinks(t.TempDir())
	p := filepath.Join(root, "mapped.ts")
	mustDo(t, os.WriteFile(p, []byte("hello world\n"), 0o644))
	write(t, filepath.Join(root, "other.ts"))
	past := time.Now().Add(-time.Hour)
	mustDo(t, os.Chtimes(p, past, past))
	o := GlobOptions{Pattern: "**/*.ts", Path: root, MaxResults: Int(200), SortByMtime: true, Gitignore: Bool(true)}
	l := ListWorkspaceOptions{Path: root, MaxDepth: 2, Hidden: true, Gitignore: Bool(false)}
	for range 3 {
		globFull(t, o)
		listFull(t, l)
	}
	f, err := os.OpenFile(p, os.O_RDWR, 0)
	mustDo(t, err)
	data, err := unix.Mmap(int(f.Fd()), 0, 12, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
	mustDo(t, err)
	f.Close() // its IN_CLOSE_WRITE is drained by the next calls, before the write
	globFull(t, o)
	listFull(t, l)
	copy(data, "HELLO")
	mustDo(t, unix.Msync(data, unix.MS_SYNC))
	mustDo(t, unix.Munmap(data))
	Invalidate(p)
	got, gotL := globFull(t, o), listFull(t, l)
	var want, wantL string
	walked(func() { want, wantL = globFull(t, o), listFull(t, l) })
	if got != want || gotL != wantL {
		t.Errorf("after invalidate:\nserved %s\n       %s\nwalked %s\n       %s", got, gotL, want, wantL)
	}
	if st := CacheStats(); st.UncachedServed == 0 {
		t.Errorf("nothing served: %+v", st)
	}
}
