package engine

import (
	"path/filepath"
	"strings"
	"time"
)

// Invalidation and published indexes. invalidateFsScanCache(path) says
// that path (or the tree under it) changed in a way the file system may
// not show (a write through a shared mapping, which need not update the
// mtime at once): this process then trusts no published entry under it
// that was built before the invalidation.

// maxDistrust bounds the paths remembered; past it, the oldest half is
// forgotten and every published index built before then is distrusted.
const maxDistrust = 1024

// distrust is one invalidated path (absolute, canonical) and when.
type distrust struct {
	path string
	at   int64 // UnixNano
}

// distrustPath records an invalidation of path (canonical, absolute).
func (d *diskState) distrustPath(path string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.distrust) >= maxDistrust {
		half := d.distrust[len(d.distrust)/2:]
		d.distrustAllBefore = half[0].at
		d.distrust = append(d.distrust[:0], half...)
	}
	d.distrust = append(d.distrust, distrust{path: path, at: time.Now().UnixNano()})
}

// distrusted returns, for a published index of root built at builtNs, the
// root-relative paths whose entries must not be trusted ("" inside: every
// file), and all when the index must not be used at all.
func (d *diskState) distrusted(root string, builtNs int64) (rels []string, all bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if builtNs <= d.distrustAllBefore {
		return nil, true
	}
	root = filepath.ToSlash(root) // Windows: file paths are '/'-separated here
	for _, x := range d.distrust {
		x.path = filepath.ToSlash(x.path)
		if x.at < builtNs {
			continue // the index was built after it
		}
		if x.path == root || relBelowOrRoot(root, x.path) {
			return nil, true
		}
		if rel, ok := relBelow(x.path, root); ok {
			rels = append(rels, rel)
		}
	}
	return rels, false
}

// relBelowOrRoot reports whether path is dir or above it.
func relBelowOrRoot(dir, path string) bool {
	_, ok := relBelow(dir, path)
	return ok
}

// under reports whether rel is one of dirs or below one of them.
func under(rel string, dirs []string) bool {
	for _, d := range dirs {
		if rel == d || strings.HasPrefix(rel, d) && rel[len(d)] == '/' {
			return true
		}
	}
	return false
}
