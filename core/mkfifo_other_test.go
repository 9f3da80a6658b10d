//go:build !unix

package core

import "errors"

// mkfifo: no named pipes of this kind here (the tests that need one run on
// unix only).
func mkfifo(string) error { return errors.New("mkfifo: not supported on this system") }
