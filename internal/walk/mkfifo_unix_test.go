//go:build unix

package walk

import "syscall"

// mkfifo makes a named pipe (tests of special files).
func mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }
