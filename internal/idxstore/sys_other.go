//go:build !unix && !windows

package idxstore

import (
	"fmt"
	"io/fs"
	"os"
)

// openNoFollow: not available here.
const openNoFollow = 0

// checkPrivate does nothing here: there is no owner to check.
func checkPrivate(what, path string, fi fs.FileInfo) error {
	return nil
}

// openIndexFile opens path read-only (the caller refuses anything but a
// regular file).
func openIndexFile(path string) (*os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("idxstore: opening index file: %w", err)
	}
	return f, nil
}

// syncDir does nothing here.
func syncDir(dir string) error {
	return nil
}
