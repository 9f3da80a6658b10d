package readcache

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"
)

// hugeCases are files of every shape pi's read has a case for: empty,
// trailing newline or not, CRLF, blank lines, truncation by lines and by
// bytes at and around the limits, a first or a middle line over the byte
// limit, multibyte characters (cut by small chunks).
func hugeCases() map[string]string {
	lines := func(n int, f func(int) string) string {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			if i > 1 {
				b.WriteByte('\n')
			}
			b.WriteString(f(i))
		}
		return b.String()
	}
	num := func(i int) string { return fmt.Sprintf("line %d", i) }
	return map[string]string{
		"two-newlines":   "\n\n",
		"one":            "just one line",
		"nl":             "a\nb\nc\n",
		"no-nl":          "a\nb\nc",
		"crlf":           "a\r\nb\r\nc\r\n",
		"blank-middle":   "a\n\n\nb\n",
		"120-nl":         lines(120, num) + "\n",
		"2000":           lines(2000, num),
		"2000-nl":        lines(2000, num) + "\n",
		"2001-nl":        lines(2001, num) + "\n",
		"3000-nl":        lines(3000, num) + "\n",
		"bytes-100k":     lines(1000, func(i int) string { return fmt.Sprintf("%-98d:", i) }) + "\n",
		"exact-50k":      strings.Repeat("y", 51200),
		"exact-50k-nl":   strings.Repeat("y", 51199) + "\n",
		"over-50k":       strings.Repeat("y", 51201) + "\nnext\n",
		"wide-first":     strings.Repeat("z", 70000) + "\nshort\n",
		"wide-middle":    "a\nb\n" + strings.Repeat("w", 60000) + "\nc\n",
		"utf8":           lines(3000, func(i int) string { return fmt.Sprintf("é€😀 %d — ünïcödé", i) }) + "\n",
		"utf8-bytes":     lines(600, func(i int) string { return strings.Repeat("é", 60) + fmt.Sprint(i) }) + "\n",
		"utf8-wide":      strings.Repeat("€", 30000) + "\nx\n",
		"bom":            "\ufeffa\nb\n",
		"invalid-late":   lines(3000, num) + "\n\xff\n",
		"invalid-cut":    "a\n\xe2\x82\nb\n",
		"invalid-at-end": "a\nb\xe2\x82",
	}
}

var hugeRanges = [][2]int{{0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 0}, {3, 1}, {2, 1}, {1, 2}, {1, 2000}, {1999, 5},
	{2000, 0}, {2001, 0}, {2002, 0}, {2500, 0}, {3001, 0}, {0, 1}, {0, 3}, {0, 120}, {0, 121}, {0, 2000},
	{0, 2001}, {500, 10000}, {3002, 0}, {3003, 0}}

// TestHugeMatchesInMemory (issue 45 item 4): a file over MaxFileBytes is
// streamed, and what it serves is what the in-memory read (pi's read,
// checked against pi 0.73 and 1.x elsewhere) serves for the same file and
// range, text and details.truncation, or the same error or baseline, for
// both line counts and reads cut at every byte.
func TestHugeMatchesInMemory(t *testing.T) {
	defer func(c int) { hugePiece = c }(hugePiece)
	f := newFixture(t)
	cases := hugeCases()
	for name, content := range cases {
		f.write(name, content)
		if !utf8.ValidString(content) {
			f.write(name+".sane", sane(content))
		}
	}
	compared := 0
	type answer struct {
		r   Result
		err error
	}
	refs := map[string]answer{} // the in-memory reads, once each
	// Pieces of 1 and 7 bytes for the small files, 61 (the lines past
	// those kept, taken in bulk, cut anywhere) and whole reads for all.
	for _, chunk := range []int{1, 7, 61, 4096, 0} {
		hugePiece = chunk
		for name, content := range cases {
			if (chunk == 1 && len(content) > 1000) || (chunk == 7 && len(content) > 8000) {
				continue
			}
			for _, rg := range hugeRanges {
				for _, lc := range []string{LineCountSplit, LineCountLines} {
					o := Options{ResolveOptions: ResolveOptions{Path: name, Cwd: f.cwd}, NoStore: true, LineCount: lc}
					if rg[0] > 0 {
						o.Offset = intp(rg[0])
					}
					if rg[1] > 0 {
						o.Limit = intp(rg[1])
					}
					// Only the selection must be UTF-8 when streamed (the
					// rest is only counted): the reference for a file
					// with bad bytes is the file with each made "?".
					ref := o
					if !utf8.ValidString(content) {
						ref.Path = name + ".sane"
					}
					key := fmt.Sprintf("%s %v %s", name, rg, lc)
					w, ok := refs[key]
					if !ok {
						w.r, w.err = Read(ref)
						if ref.Path != name && w.err == nil && !utf8.ValidString(selected(content, rg)) {
							w.r = Result{Mode: ModeBaseline, Reason: "invalid_utf8"}
						}
						refs[key] = w
					}
					want, werr := w.r, w.err
					o.MaxFileBytes = 1
					got, gerr := Read(o)
					where := fmt.Sprintf("%s offset %d limit %d %s chunk %d", name, rg[0], rg[1], lc, chunk)
					compared++
					switch {
					case werr != nil || gerr != nil:
						var we, ge *Error
						if !errors.As(werr, &we) || !errors.As(gerr, &ge) || *we != *ge {
							t.Errorf("%s: error %v, in memory %v", where, gerr, werr)
						}
						continue
					case want.Mode == ModeBaseline:
						if got.Mode != ModeBaseline || got.Reason != want.Reason {
							t.Errorf("%s: %s (%s), in memory baseline (%s)", where, got.Mode, got.Reason, want.Reason)
						}
						continue
					}
					if got.Mode != ModeFull || got.Reason != "streamed" || got.Meta != nil || got.StoreError != "" {
						t.Errorf("%s: mode %s (%s), meta %v", where, got.Mode, got.Reason, got.Meta)
					}
					if got.Text != want.Text || !reflect.DeepEqual(got.Truncation, want.Truncation) {
						t.Errorf("%s: streamed\n  %.200q %+v\nin memory\n  %.200q %+v", where, got.Text, got.Truncation, want.Text, want.Truncation)
					}
				}
			}
		}
	}
	if compared < 2000 {
		t.Fatalf("only %d reads compared", compared)
	}
}

// sane is s with each byte that is not part of a UTF-8 character made "?".
func sane(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteByte('?')
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// selected is the text pi's read selects from s for rg (offset, limit).
func selected(s string, rg [2]int) string {
	lines := strings.Split(s, "\n")
	start, end := max(rg[0]-1, 0), len(lines)
	if rg[1] > 0 {
		end = min(start+rg[1], end)
	}
	if start >= len(lines) {
		return ""
	}
	return strings.Join(lines[start:end], "\n")
}

// TestHugeReadBoundedMemory: a 48 MB file over the limit is streamed
// holding only what it serves: under 2 MB allocated, a full read and a
// range read near its end alike.
func TestHugeReadBoundedMemory(t *testing.T) {
	f := newFixture(t)
	line := strings.Repeat("0123456789abcdef", 6) + "\n" // 97 bytes
	p := filepath.Join(f.cwd, "huge.log")
	w, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	block := strings.Repeat(line, 10000)
	for range 50 {
		if _, err := w.WriteString(block); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	size := int64(len(block) * 50)
	for _, rg := range []struct {
		name          string
		offset, limit *int
	}{{"full read", nil, nil}, {"range near the end", intp(499000), intp(10)}} {
		name := rg.name
		o := Options{ResolveOptions: ResolveOptions{Path: "huge.log", Cwd: f.cwd, Offset: rg.offset, Limit: rg.limit},
			StoreDir: f.store, MaxFileBytes: 1 << 20}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		r, err := Read(o)
		runtime.ReadMemStats(&after)
		if err != nil || r.Mode != ModeFull || r.Reason != "streamed" {
			t.Fatalf("%s: %s (%s) %v", name, r.Mode, r.Reason, err)
		}
		// What it holds does not grow with the file: a 256 KB buffer and
		// the lines shown (0.3-0.6 MB allocated in all when measured).
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 2<<20 {
			t.Errorf("%s: %d bytes allocated to stream a %d-byte file", name, alloc, size)
		}
		want := "[Showing lines 1-527 of 500001 (50.0KB limit). Use offset=528 to continue.]"
		if rg.offset != nil {
			want = "[992 more lines in file. Use offset=499010 to continue.]"
		}
		if !strings.HasSuffix(r.Text, want) {
			t.Errorf("%s: text ends %q, want %q", name, r.Text[max(0, len(r.Text)-100):], want)
		}
	}
	if info, err := StoreStats(f.store); err != nil || info.Objects != 0 {
		t.Errorf("a streamed read stored something: %+v %v", info, err)
	}
}

// BenchmarkStreamedRead: a full read of a 100 MB file of 100-byte lines
// over the limit (the file stays in the page cache between reads).
func BenchmarkStreamedRead(b *testing.B) {
	dir := b.TempDir()
	p := filepath.Join(dir, "big.log")
	block := strings.Repeat(strings.Repeat("0123456789abcdef", 6)+"ghi\n", 10000)
	w, err := os.Create(p)
	if err != nil {
		b.Fatal(err)
	}
	for range 100 {
		if _, err := w.WriteString(block); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	o := Options{ResolveOptions: ResolveOptions{Path: p, Cwd: dir}, NoStore: true}
	b.SetBytes(int64(len(block) * 100))
	for b.Loop() {
		if r, err := Read(o); err != nil || r.Reason != "streamed" {
			b.Fatalf("%s %v", r.Reason, err)
		}
	}
}
