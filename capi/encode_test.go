package main

import (
	"encoding/json"
	"testing"
)

// The encoder writes ASCII only, and the JSON means the same string (with
// invalid UTF-8 bytes replaced by U+FFFD).
func TestAppendStringASCII(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain/path.go", "plain/path.go"},
		{"é/ü", "é/ü"},
		{"日本語.txt", "日本語.txt"},
		{"emoji 😀 x", "emoji 😀 x"},
		{"bad \xff\xfe byte", "bad \uFFFD\uFFFD byte"},
		{"quote \" back \\ tab \t nl \n ctl \x01", "quote \" back \\ tab \t nl \n ctl \x01"},
	} {
		b := appendString(nil, c.in)
		for _, x := range b {
			if x >= 0x80 {
				t.Fatalf("%q: non-ASCII byte in %q", c.in, b)
			}
		}
		var got string
		if err := json.Unmarshal(b, &got); err != nil || got != c.want {
			t.Errorf("%q: got %q (%v), want %q", c.in, got, err, c.want)
		}
	}
}
