package search

import (
	"reflect"
	"testing"
)

// TestRawLines: with Options.Raw, lines are the file's bytes (white space,
// '\r', '\n' kept, never cut), each match has its own context (overlaps
// repeated, after-context past the match that stopped the search), and
// Lossy and CRBefore describe the data.
func TestRawLines(t *testing.T) {
	m, err := Compile(Options{Pattern: "TODO", ContextBefore: 1, ContextAfter: 1, Raw: true,
		MaxColumns: 3, HasMaxColumns: true})
	if err != nil {
		t.Fatal(err)
	}
	data := []byte("a\r\nTODO x  \nTODO\rc\n\xffTODO\nz")
	got, n, err := m.Search(data, 3, true, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []Match{
		{LineNumber: 2, Line: "TODO x  \n", ContextBefore: []ContextLine{{1, "a\r\n"}}, ContextAfter: []ContextLine{{3, "TODO\rc\n"}}},
		{LineNumber: 3, Line: "TODO\rc\n", ContextBefore: []ContextLine{{2, "TODO x  \n"}}, ContextAfter: []ContextLine{{4, "\uFFFDTODO\n"}}},
		{LineNumber: 4, Line: "\uFFFDTODO\n", Lossy: true, ContextBefore: []ContextLine{{3, "TODO\rc\n"}}, ContextAfter: []ContextLine{{5, "z"}}},
	}
	if n != 3 || !reflect.DeepEqual(got, want) {
		t.Fatalf("got %d %#v\nwant %#v", n, got, want)
	}
	// A cap that stops the search: the last match's after-context still
	// runs on (the matching line that stopped it is a context line).
	got, n, err = m.Search(data, 1, true, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n != 2 || len(got) != 1 || !reflect.DeepEqual(got[0], want[0]) {
		t.Fatalf("capped: got %d %#v", n, got)
	}
	// A '\r' alone before the block: CRBefore.
	z, _ := Compile(Options{Pattern: "^z", ContextBefore: 1, Raw: true})
	got, _, _ = z.Search(data, -1, true, nil, nil)
	if len(got) != 1 || !got[0].CRBefore || got[0].Line != "z" || got[0].LineNumber != 5 {
		t.Fatalf("crBefore: %#v", got)
	}
	// The formatted search is unchanged: trimmed, cut, deduplicated.
	f, _ := Compile(Options{Pattern: "TODO", ContextBefore: 1, ContextAfter: 1})
	got, _, _ = f.Search(data, -1, true, nil, nil)
	if len(got) != 3 || got[0].Line != "TODO x" || got[1].ContextBefore != nil || got[0].ContextAfter != nil {
		t.Fatalf("formatted: %#v", got)
	}
}
