package regex

import (
	"bytes"
	"math/rand"
	"slices"
	"testing"
)

// finalMode runs a search's line iterator over data and returns the mode
// it ended in: a prefiltered search hands over to the automaton when its
// candidates are denser than denseGap.
func finalMode(m *Regexp, data []byte) searchMode {
	var it LineIter
	it.Start(m, data, nil)
	defer it.Close()
	for {
		if _, _, _, done := it.Next(len(data)); done {
			return it.mode
		}
	}
}

// TestPrefilterDenseCandidates checks both sides of denseGap: lines of 4
// bytes that all hold the prefilter's byte switch to the automaton, lines
// of 19 keep the prefilter, and either way the matching lines are those a
// line-by-line simulation finds.
func TestPrefilterDenseCandidates(t *testing.T) {
	m, err := Compile(Options{Pattern: `\w+_\w+\(`})
	if err != nil {
		t.Fatal(err)
	}
	if m.lineMode != modePrefilter {
		t.Fatalf("plan: mode %d, want the prefilter", m.lineMode)
	}
	r := rand.New(rand.NewSource(1))
	for _, c := range []struct {
		filler string
		want   searchMode
	}{
		{"a_b\n", modeDFA},
		{"\tAF_INET     = 0x2\n", modePrefilter},
	} {
		var buf bytes.Buffer
		for i := range 5000 {
			switch {
			case r.Intn(50) == 0:
				buf.WriteString("\tx := f_g(1)\n")
			case r.Intn(50) == 0:
				buf.WriteString("no candidate (here)\n")
			default:
				buf.WriteString(c.filler)
			}
			if i == 2500 {
				buf.WriteString("tail_call(") // a match across the window of the first half
				buf.WriteString("\n")
			}
		}
		data := buf.Bytes()
		if got := finalMode(m, data); got != c.want {
			t.Errorf("filler %q: search ended in mode %d, want %d", c.filler, got, c.want)
		}
		got, _ := lineNumbers(t, m, data)
		want := naiveLines(m, data)
		if len(want) < 50 || !slices.Equal(got, want) {
			t.Fatalf("filler %q: %d matching lines, simulation %d (equal: %v)", c.filler, len(got), len(want), slices.Equal(got, want))
		}
	}
}
