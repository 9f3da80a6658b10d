package walk

import (
	"io/fs"
	"syscall"
)

// osHidden reports whether de has Windows' hidden attribute
// (FILE_ATTRIBUTE_HIDDEN), which hides an entry as a leading '.' does: the
// ignore crate's walker (pi-natives') treats either as hidden on Windows.
// The attributes come with the directory listing: no extra system call.
func osHidden(de fs.DirEntry) bool {
	fi, err := de.Info()
	if err != nil {
		return false
	}
	d, ok := fi.Sys().(*syscall.Win32FileAttributeData)
	return ok && d.FileAttributes&syscall.FILE_ATTRIBUTE_HIDDEN != 0
}
