//go:build !linux

package watch

// New reports ErrUnsupported: only Linux (inotify) is built in. macOS's
// FSEvents needs cgo and the CoreServices framework, which the cross
// builds of fscache do not have; Windows' ReadDirectoryChangesW is not
// implemented. The scan cache then keeps its TTL policy on those systems.
func New() (Watcher, error) { return nil, ErrUnsupported }
