//go:build cgo

package main

import (
	"bytes"
	"testing"
	"unsafe"
)

// goBytes copies the NUL-terminated result p.
func goBytes(p unsafe.Pointer) []byte {
	var out []byte
	for i := 0; ; i++ {
		c := *(*byte)(unsafe.Add(p, i))
		if c == 0 {
			return out
		}
		out = append(out, c)
	}
}

// TestOkEncoded: the envelope and payload arrive whole whether the payload
// fits the estimate, outgrows it (finished in Go memory and copied), or is
// large enough for a pooled region.
func TestOkEncoded(t *testing.T) {
	for _, c := range []struct {
		name           string
		estimate, size int
	}{
		{"fits", 100, 60},
		{"exact", 60, 60},
		{"outgrows", 10, 5000},
		{"large fits", bigMin * 2, bigMin + 7},
		{"large outgrows", bigMin, bigMin * 3},
		{"empty", 0, 0},
	} {
		payload := bytes.Repeat([]byte(`"\u0001"`), c.size/8+1)[:c.size]
		p := okEncoded(c.estimate, func(b []byte) []byte { return append(b, payload...) })
		if p == nil {
			t.Fatalf("%s: no result", c.name)
		}
		got := goBytes(unsafe.Pointer(p))
		want := append(append([]byte(`{"ok":`), payload...), '}')
		if !bytes.Equal(got, want) {
			t.Errorf("%s: %d bytes back, want %d (prefix %q)", c.name, len(got), len(want), got[:min(len(got), 40)])
		}
		cFree(unsafe.Pointer(p))
	}
}
