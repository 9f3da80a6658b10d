package regex

import (
	"bytes"
	"testing"

	"github.com/fscache/fscache/internal/cancel"
)

// pollWindow is the window in which scanLines drives a LineIter, the line
// searcher's (internal/search pollEvery).
const pollWindow = 1 << 16

// scanLines drives a LineIter over data as the line searcher does: in
// windows of pollWindow bytes, polling tok between them. It returns the
// numbers of the matching lines and the error that ended the iteration.
func scanLines(re *Regexp, data []byte, tok *cancel.Token) ([]int, error) {
	var it LineIter
	it.Start(re, data, tok)
	defer it.Close()
	var out []int
	lnPos, lnNum := 0, 1
	next := pollWindow
	for {
		if next <= it.Pos() {
			next = it.Pos() + pollWindow
		}
		ls, _, found, done := it.Next(min(len(data), next))
		if !found {
			if done {
				return out, it.Err()
			}
			if tok.Poll() {
				return out, tok.Err()
			}
			next = it.Pos() + pollWindow
			continue
		}
		lnNum += bytes.Count(data[lnPos:ls], []byte{'\n'})
		lnPos = ls
		out = append(out, lnNum)
		if it.Pos() >= next {
			if tok.Poll() {
				return out, tok.Err()
			}
			next = it.Pos() + pollWindow
		}
	}
}

// lineNumbers is scanLines without a token; an error fails the test.
func lineNumbers(t *testing.T, m *Regexp, data []byte) ([]int, int) {
	t.Helper()
	out, err := scanLines(m, data, nil)
	if err != nil {
		t.Fatal(err)
	}
	return out, len(out)
}

// hasMatch is HasMatch without cancellation or its error.
func (m *Regexp) hasMatch(data []byte) bool {
	ok, _ := m.HasMatch(data, nil)
	return ok
}
