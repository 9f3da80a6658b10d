//go:build unix

package core

import "syscall"

// mkfifo makes a named pipe (the read cache must refuse it, not block).
func mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }
