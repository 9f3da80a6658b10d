//go:build windows

package mmap

import (
	"fmt"
	"os"
	"unsafe"

	"golang.org/x/sys/windows"
)

// mapFile maps the first size bytes of f read-only: a file mapping object
// and a view of it. The object's handle is closed at once; the view keeps
// it alive.
func mapFile(f *os.File, size int) ([]byte, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	var addr uintptr
	var merr error
	if err := rc.Control(func(fd uintptr) {
		addr, merr = mapView(windows.Handle(fd), size)
	}); err != nil {
		return nil, err
	}
	if merr != nil {
		return nil, merr
	}
	// addr is memory outside the Go heap that stays mapped until
	// unmapFile: converted without vet's uintptr check.
	p := *(*unsafe.Pointer)(unsafe.Pointer(&addr))
	return unsafe.Slice((*byte)(p), size), nil
}

func mapView(h windows.Handle, size int) (uintptr, error) {
	n := uint64(size)
	fm, err := windows.CreateFileMapping(h, nil, windows.PAGE_READONLY, uint32(n>>32), uint32(n), nil)
	if err != nil {
		return 0, fmt.Errorf("CreateFileMapping: %w", err)
	}
	defer windows.CloseHandle(fm)
	addr, err := windows.MapViewOfFile(fm, windows.FILE_MAP_READ, 0, 0, uintptr(size))
	if err != nil {
		return 0, fmt.Errorf("MapViewOfFile: %w", err)
	}
	return addr, nil
}

// unmapFile releases a view made by mapFile.
func unmapFile(data []byte) error {
	return windows.UnmapViewOfFile(uintptr(unsafe.Pointer(unsafe.SliceData(data))))
}
