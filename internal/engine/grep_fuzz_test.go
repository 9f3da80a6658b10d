package engine

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// naiveLine formats a valid UTF-8 line as the reference reports it: trailing
// white space trimmed, then cut to maxCols-3 bytes at a character boundary
// plus "..." when longer than maxCols (maxCols < 0: no limit).
func naiveLine(s string, maxCols int) (string, bool) {
	s = strings.TrimRightFunc(s, unicode.IsSpace)
	if maxCols < 0 || len(s) <= maxCols {
		return s, false
	}
	cut := max(maxCols-3, 0)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "...", true
}

// FuzzGrepShaping greps one file of arbitrary content for a literal and
// checks the line shaping against a naive reading of the file: matched
// lines hold the literal and are numbered right, formatted lines and
// context equal the naive formatting, context is contiguous and bounded,
// count mode counts every matching line, and offset/maxCount select exactly
// the slice [offset, offset+maxCount) of the unshaped matches.
func FuzzGrepShaping(f *testing.F) {
	f.Add([]byte("a\nb\nab\n\nxa  \n"), uint8(0), uint8(0), uint8(0), uint8(1), uint8(1), uint8(0), uint8(0))
	f.Add([]byte("ab ab\nzz\nab\r\nq\nab"), uint8(1), uint8(1), uint8(2), uint8(0), uint8(2), uint8(5), uint8(0))
	f.Add([]byte("é\xffa\n\ta\u00a0\nééééa\n"), uint8(2), uint8(0), uint8(1), uint8(3), uint8(0), uint8(4), uint8(1))
	f.Add([]byte(strings.Repeat("x a\n", 50)), uint8(0), uint8(7), uint8(9), uint8(2), uint8(2), uint8(0), uint8(2))
	f.Add([]byte("\n\n\na"), uint8(3), uint8(0), uint8(0), uint8(5), uint8(5), uint8(3), uint8(0))
	literals := []string{"a", "ab", "é", "x a"}
	// One file per process: fuzz workers are processes, each running its
	// inputs one at a time.
	path := filepath.Join(f.TempDir(), "f.txt")
	f.Fuzz(func(t *testing.T, data []byte, lit, offset, maxCount, before, after, maxCols, mode uint8) {
		if len(data) > 1<<16 || bytes.IndexByte(data, 0) >= 0 {
			return // binary files have their own rule (TestBinaryRule)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		needle := literals[int(lit)%len(literals)]
		// The naive reading: lines split on '\n', no empty line after a
		// final '\n'.
		lines := strings.Split(string(data), "\n")
		if len(data) == 0 || data[len(data)-1] == '\n' {
			lines = lines[:len(lines)-1]
		}
		var want []int // matching line numbers
		for i, l := range lines {
			if strings.Contains(l, needle) {
				want = append(want, i+1)
			}
		}
		cols := -1
		var colsOpt *int
		if maxCols > 0 {
			cols = int(maxCols) % 40
			colsOpt = Int(cols)
		}
		checkLine := func(what string, n int, got string, gotTrunc *bool) {
			if n < 1 || n > len(lines) {
				t.Fatalf("%s: line number %d of %d lines", what, n, len(lines))
			}
			if !utf8.ValidString(lines[n-1]) {
				return // lossy conversion is checked by the search package
			}
			w, trunc := naiveLine(lines[n-1], cols)
			if got != w || gotTrunc != nil && *gotTrunc != trunc {
				t.Fatalf("%s: line %d %q (maxColumns %d) reported %q, want %q", what, n, lines[n-1], cols, got, w)
			}
		}

		// Unshaped content search.
		all, err := Grep(GrepOptions{Pattern: needle, Path: path, MaxColumns: colsOpt}, nil)
		if err != nil {
			t.Fatal(err)
		}
		var got []int
		for _, m := range all.Matches {
			got = append(got, m.LineNumber)
			checkLine("match", m.LineNumber, m.Line, &m.Truncated)
		}
		if !slices.Equal(got, want) || all.TotalMatches != len(want) {
			t.Fatalf("%q in %q: lines %v (total %d), want %v", needle, data, got, all.TotalMatches, want)
		}

		switch mode % 3 {
		case 0: // context
			b, a := int(before%4), int(after%4)
			r, err := Grep(GrepOptions{Pattern: needle, Path: path, MaxColumns: colsOpt,
				ContextBefore: Int(b), ContextAfter: Int(a)}, nil)
			if err != nil {
				t.Fatal(err)
			}
			prevEnd := 0 // last line number reported (match or context)
			for i, m := range r.Matches {
				if m.LineNumber != want[i] {
					t.Fatalf("context run: match %d on line %d, want %d", i, m.LineNumber, want[i])
				}
				if len(m.ContextBefore) > b || len(m.ContextAfter) > a {
					t.Fatalf("line %d: %d/%d context lines for %d/%d", m.LineNumber, len(m.ContextBefore), len(m.ContextAfter), b, a)
				}
				// Before-context: the lines right above, as many as
				// allowed, never reaching into reported lines.
				wantBefore := min(b, m.LineNumber-1-prevEnd)
				if len(m.ContextBefore) != wantBefore {
					t.Fatalf("line %d: %d before-context lines, want %d", m.LineNumber, len(m.ContextBefore), wantBefore)
				}
				for k, c := range m.ContextBefore {
					if c.LineNumber != m.LineNumber-len(m.ContextBefore)+k {
						t.Fatalf("line %d: before-context line %d out of place", m.LineNumber, c.LineNumber)
					}
					checkLine("before", c.LineNumber, c.Line, nil)
				}
				// After-context: the lines right below, up to the next
				// match or the end.
				next := len(lines) + 1
				if i+1 < len(want) {
					next = want[i+1]
				}
				wantAfter := min(a, next-1-m.LineNumber)
				if len(m.ContextAfter) != wantAfter {
					t.Fatalf("line %d: %d after-context lines, want %d", m.LineNumber, len(m.ContextAfter), wantAfter)
				}
				for k, c := range m.ContextAfter {
					if c.LineNumber != m.LineNumber+1+k {
						t.Fatalf("line %d: after-context line %d out of place", m.LineNumber, c.LineNumber)
					}
					checkLine("after", c.LineNumber, c.Line, nil)
				}
				prevEnd = m.LineNumber + len(m.ContextAfter)
			}
		case 1: // offset and maxCount
			o, c := int(offset%8), int(maxCount%8)
			r, err := Grep(GrepOptions{Pattern: needle, Path: path, Offset: Int(o), MaxCount: Int(c)}, nil)
			if err != nil {
				t.Fatal(err)
			}
			// A single file reads maxCount 0 as 1 (the reference's rule).
			c = max(c, 1)
			lo, hi := min(o, len(want)), min(o+c, len(want))
			var sel []int
			for _, m := range r.Matches {
				sel = append(sel, m.LineNumber)
			}
			if !slices.Equal(sel, want[lo:hi]) {
				t.Fatalf("offset %d maxCount %d: lines %v, want %v of %v", o, c, sel, want[lo:hi], want)
			}
			if r.LimitReached != (len(sel) >= c) {
				t.Fatalf("offset %d maxCount %d: limitReached %v with %d matches", o, c, r.LimitReached, len(sel))
			}
		case 2: // count mode
			r, err := Grep(GrepOptions{Pattern: needle, Path: path, Mode: ModeCount}, nil)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			if len(r.Matches) == 1 {
				n = *r.Matches[0].MatchCount
			}
			if n != len(want) || r.TotalMatches != len(want) || len(r.Matches) != min(len(want), 1) {
				t.Fatalf("count: %d in %d entries (total %d), want %d", n, len(r.Matches), r.TotalMatches, len(want))
			}
		}
	})
}
