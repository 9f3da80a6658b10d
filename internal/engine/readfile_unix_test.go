//go:build unix

package engine

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// TestReadFileAt reads files of sizes around the buffer's (64 KiB) and the
// fstat-sized growth, relative to their directory, trusting short reads
// and not, and checks every byte.
func TestReadFileAt(t *testing.T) {
	dir := t.TempDir()
	fd, ok := openDir(dir)
	if !ok {
		t.Fatal("cannot open the directory")
	}
	defer closeDir(fd)
	t.Logf("short reads end files here: %v", shortReadIsEOF(fd))
	r := rand.New(rand.NewPCG(3, 4))
	for _, size := range []int{0, 1, 100, 64<<10 - 1, 64 << 10, 64<<10 + 1, 200_000, 1 << 20} {
		want := make([]byte, size)
		for i := range want {
			want[i] = byte(r.IntN(256))
		}
		name := "f" + string(rune('a'+size%26))
		if err := os.WriteFile(filepath.Join(dir, name), want, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, short := range []bool{false, true} {
			for _, buf := range [][]byte{nil, make([]byte, 0, 64<<10)} {
				got, ok := readFileAt(fd, name, buf, short)
				if !ok || !bytes.Equal(got, want) {
					t.Errorf("size %d short=%v: ok=%v, %d bytes read", size, short, ok, len(got))
				}
			}
		}
	}
	if _, ok := readFileAt(fd, "missing", nil, true); ok {
		t.Error("a missing file was read")
	}
	// A NUL ends the kernel's name: "fb\x00x" must not open "fb".
	if _, ok := readFileAt(fd, "fb\x00x", nil, true); ok {
		t.Error("a name holding a NUL was opened")
	}
	if got, ok := readFileNamed(fd, []byte("fb\x00"), nil, false, nil); !ok || len(got) != 1 {
		t.Errorf("readFileNamed: ok=%v, %d bytes", ok, len(got))
	}
}
