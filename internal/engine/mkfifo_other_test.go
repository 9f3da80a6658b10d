//go:build !unix

package engine

import "errors"

// mkfifo: named pipes are a Unix test fixture.
func mkfifo(string) error { return errors.ErrUnsupported }
