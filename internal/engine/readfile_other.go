//go:build !unix

package engine

import (
	"io"
	"os"
)

// readFile reads the file at path into buf (grown as needed). ok is false
// when the file cannot be read or holds more than maxFileSize bytes.
func readFile(path string, buf []byte) (data []byte, ok bool) {
	f, err := os.Open(path)
	if err != nil {
		return buf, false
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() || info.Size() > maxFileSize {
		return buf, false
	}
	buf = buf[:0]
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if len(buf) > maxFileSize {
			return buf, false
		}
		if err == io.EOF {
			return buf, true
		}
		if err != nil {
			return buf, false
		}
	}
}

// openDir is the Unix build's directory descriptor for readFileAt; here it
// always fails, and files are read by path.
func openDir(string) (int, bool) { return -1, false }

// closeDir is never called: openDir never succeeds.
func closeDir(int) {}

// readFileAt is never called: openDir never succeeds.
func readFileAt(_ int, name string, buf []byte, _ bool) ([]byte, bool) { return readFile(name, buf) }

// readFileNamed is never called: openDir never succeeds.
func readFileNamed(_ int, name []byte, buf []byte, _ bool, _ *bigRead) ([]byte, bool) {
	return readFile(string(name[:len(name)-1]), buf)
}

// cwdDir is readfile_unix.go's; readFileAt ignores it here.
const cwdDir = -1

// shortReadIsEOF is never called: openDir never succeeds.
func shortReadIsEOF(int) bool { return false }
