package mmap

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func writeTemp(t *testing.T, data []byte) *os.File {
	t.Helper()
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func TestMap(t *testing.T) {
	for _, n := range []int{1, 7, 4096, 4097, 1 << 20} {
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(i*7 + i>>8)
		}
		f := writeTemp(t, data)
		m, err := Map(f)
		if err != nil {
			t.Fatal(err)
		}
		f.Close() // the mapping outlives the file
		if !bytes.Equal(m.Bytes(), data) {
			t.Fatalf("%d bytes: the mapping differs from the file", n)
		}
		if err := m.Close(); err != nil {
			t.Fatal(err)
		}
		if err := m.Close(); err != nil {
			t.Fatalf("second Close: %v", err)
		}
		if len(m.Bytes()) != 0 {
			t.Fatal("Bytes after Close is not empty")
		}
	}
}

func TestMapEmpty(t *testing.T) {
	m, err := Map(writeTemp(t, nil))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Bytes()) != 0 {
		t.Fatalf("empty file: %d bytes", len(m.Bytes()))
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestMapDirectory(t *testing.T) {
	f, err := os.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if m, err := Map(f); err == nil {
		m.Close()
		t.Fatal("a directory was mapped")
	}
}

func TestMapClosedFile(t *testing.T) {
	f := writeTemp(t, []byte("x"))
	f.Close()
	if _, err := Map(f); err == nil {
		t.Fatal("a closed file was mapped")
	}
}

// TestEvict: the bytes of a mapping read the same after Evict; after
// Close it does nothing.
func TestEvict(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	want := bytes.Repeat([]byte("0123456789abcdef"), 64<<10)
	if err := os.WriteFile(path, want, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Map(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(m.Bytes(), want) {
		t.Fatal("mapped bytes differ")
	}
	m.Evict()
	if !bytes.Equal(m.Bytes(), want) {
		t.Fatal("the bytes differ after Evict")
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	m.Evict()
}
