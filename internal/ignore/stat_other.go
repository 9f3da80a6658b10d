//go:build !unix

package ignore

import "os"

// statRegular stats path, following symlinks: ok when it exists, regular
// when it is a regular file.
func statRegular(path string) (regular, ok bool) {
	info, err := os.Stat(path)
	if err != nil {
		return false, false
	}
	return info.Mode().IsRegular(), true
}
