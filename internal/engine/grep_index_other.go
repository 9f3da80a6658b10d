//go:build !unix

package engine

import "github.com/fscache/fscache/internal/index"

// fileMeta knows nothing of links here (nothing is watched, so nothing is
// indexed).
func fileMeta(string) index.Meta { return index.Meta{} }
