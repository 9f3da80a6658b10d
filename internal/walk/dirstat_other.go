//go:build !linux || !(amd64 || arm64)

package walk

// dirStat is the relative lstat of the Linux build; elsewhere openDirStat
// always fails and entries are read with lstatPath.
type dirStat struct{}

func openDirStat(string) (dirStat, bool) { return dirStat{}, false }

func (dirStat) lstat(_, path string) (mtime, size int64) { return lstatPath(path) }

func (dirStat) close() {}

func dirStatOf(int) dirStat { return dirStat{} }
