//go:build !windows

package walk

import "io/fs"

// osHidden reports whether the system marks de hidden: never outside
// Windows, where only the leading '.' hides an entry.
func osHidden(fs.DirEntry) bool { return false }
