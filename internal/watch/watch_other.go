//go:build !linux

package watch

// New reports ErrUnsupported: only Linux (inotify) is built in. macOS's
// FSEvents needs cgo and the CoreServices framework, which the cross
// builds of fscache do not have. Windows' ReadDirectoryChangesW completes
// its requests after the change's call has returned (measured under wine:
// docs/indexed-grep.md), so a Drain that does not block could not prove
// that it saw every change made before it, as inotify's does. The scan
// cache then keeps its TTL policy on those systems, and grep's index is
// validated by a metadata walk.
func New() (Watcher, error) { return nil, ErrUnsupported }
