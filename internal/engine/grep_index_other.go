//go:build !unix

package engine

import "github.com/fscache/fscache/internal/index"

// fileMeta knows nothing of links here (nothing is watched: entries are
// validated by the walk's size and mtime).
func fileMeta(string) index.Meta { return index.Meta{Size: -1} }

// fileMetaAt is fileMeta (nothing here has links).
func fileMetaAt(int, string) index.Meta { return index.Meta{Size: -1} }
