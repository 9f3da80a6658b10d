//go:build !unix

package readcache

import "io/fs"

// fileOwner is not known off unix (Windows ACLs are not checked here).
func fileOwner(fs.FileInfo) (int, bool) { return 0, false }

// permOK: permission bits mean nothing off unix.
func permOK(fs.FileInfo) bool { return true }
