//go:build !linux

package watch

// Files is Linux's watcher of files (files_linux.go); elsewhere NewFiles
// reports ErrUnsupported.
type Files struct{}

// NewFiles reports ErrUnsupported (see New).
func NewFiles() (*Files, error) { return nil, ErrUnsupported }

// Add reports ErrUnsupported.
func (*Files) Add(string) (int32, error) { return -1, ErrUnsupported }

// Drain reports nothing.
func (*Files) Drain() ([]int32, bool, error) { return nil, false, nil }

// Close does nothing.
func (*Files) Close() error { return nil }
