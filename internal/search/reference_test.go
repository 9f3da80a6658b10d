package search

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
)

// refCase is one answer of the reference recorded by
// testdata/gen_reference.js.
type refCase struct {
	Name    string `json:"name"`
	Pattern string `json:"pattern"`
	Options struct {
		IgnoreCase    bool   `json:"ignoreCase"`
		Multiline     bool   `json:"multiline"`
		Context       *int   `json:"context"`
		ContextBefore *int   `json:"contextBefore"`
		ContextAfter  *int   `json:"contextAfter"`
		MaxColumns    *int   `json:"maxColumns"`
		MaxCount      *int   `json:"maxCount"`
		Offset        int    `json:"offset"`
		Mode          string `json:"mode"`
	} `json:"options"`
	Content      string     `json:"content"`
	Error        string     `json:"error"`
	TotalMatches int        `json:"totalMatches"`
	Matches      []refMatch `json:"matches"`
}

type refMatch struct {
	LineNumber    int           `json:"lineNumber"`
	Line          string        `json:"line"`
	Truncated     bool          `json:"truncated,omitempty"`
	MatchCount    int           `json:"matchCount,omitempty"`
	ContextBefore []ContextLine `json:"contextBefore,omitempty"`
	ContextAfter  []ContextLine `json:"contextAfter,omitempty"`
}

func loadRefCases(t *testing.T, path string) []refCase {
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading reference answers %s: %v", path, err)
	}
	var cases []refCase
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatalf("decoding reference answers %s: %v", path, err)
	}
	return cases
}

// runLikeReference replays a single-file grep the way the caller of this
// package does: context resolution, per-file cap, offset and limit.
func runLikeReference(c refCase) (total int, out []refMatch, errMsg string) {
	o := c.Options
	opts := Options{Pattern: c.Pattern, IgnoreCase: o.IgnoreCase, Multiline: o.Multiline}
	if o.ContextBefore != nil || o.ContextAfter != nil {
		if o.ContextBefore != nil {
			opts.ContextBefore = *o.ContextBefore
		}
		if o.ContextAfter != nil {
			opts.ContextAfter = *o.ContextAfter
		}
	} else if o.Context != nil {
		opts.ContextBefore, opts.ContextAfter = *o.Context, *o.Context
	}
	if o.MaxColumns != nil {
		opts.MaxColumns, opts.HasMaxColumns = *o.MaxColumns, true
	}
	data, _ := base64.StdEncoding.DecodeString(c.Content)
	m, err := Compile(opts)
	if err != nil {
		return 0, nil, err.Error()
	}
	switch o.Mode {
	case "filesWithMatches":
		if m.HasMatch(data) {
			return 1, []refMatch{{}}, ""
		}
		return 0, nil, ""
	case "count":
		if IsBinary(data) {
			return 0, nil, ""
		}
		// The reference caps count mode too (maxCount+offset per file).
		limit := -1
		if o.MaxCount != nil {
			limit = max(*o.MaxCount, 1) + o.Offset
		}
		_, n, _ := m.Search(data, limit, false, nil, nil)
		if n > 0 {
			out = []refMatch{{MatchCount: n}}
		}
		return n, out, ""
	}
	if IsBinary(data) {
		return 0, nil, ""
	}
	limit := -1
	if o.MaxCount != nil {
		limit = max(*o.MaxCount, 1) + o.Offset
	}
	ms, n, _ := m.Search(data, limit, true, nil, nil)
	if o.Offset < len(ms) {
		ms = ms[o.Offset:]
	} else {
		ms = nil
	}
	if o.MaxCount != nil && len(ms) > max(*o.MaxCount, 1) {
		ms = ms[:max(*o.MaxCount, 1)]
	}
	for _, x := range ms {
		out = append(out, refMatch{LineNumber: x.LineNumber, Line: x.Line, Truncated: x.Truncated,
			ContextBefore: x.ContextBefore, ContextAfter: x.ContextAfter})
	}
	return n, out, ""
}

// TestReferenceAnswers replays every recorded answer of the reference:
// hand-written cases, then generated ones. SEARCH_REFERENCE_CASES names
// another file to replay (a larger campaign).
func TestReferenceAnswers(t *testing.T) {
	files := []string{"testdata/reference.json", "testdata/random.json"}
	if p := os.Getenv("SEARCH_REFERENCE_CASES"); p != "" {
		files = []string{p}
	}
	for _, f := range files {
		t.Run(f, func(t *testing.T) { replay(t, loadRefCases(t, f)) })
	}
}

func replay(t *testing.T, cases []refCase) {
	t.Logf("%d recorded answers", len(cases))
	for i, c := range cases {
		total, got, errMsg := runLikeReference(c)
		if c.Error != "" && errMsg == "" && supersededByBacktrack(c) {
			continue
		}
		if c.Error != "" || errMsg != "" {
			if "Regex error: "+errMsgBody(c.Error) != errMsg && c.Error != errMsg {
				t.Errorf("case %d %q %+v:\n got error %q\nwant error %q", i, c.Pattern, c.Options, errMsg, c.Error)
			}
			continue
		}
		want := c.Matches
		if want == nil {
			want = []refMatch{}
		}
		if got == nil {
			got = []refMatch{}
		}
		if total != c.TotalMatches || !reflect.DeepEqual(got, want) {
			data, _ := base64.StdEncoding.DecodeString(c.Content)
			t.Errorf("case %d %q %+v on %q:\n got total=%d %+v\nwant total=%d %+v", i, c.Pattern, c.Options, data, total, got, c.TotalMatches, want)
		}
	}
}

func errMsgBody(s string) string {
	const p = "Regex error: "
	if len(s) >= len(p) && s[:len(p)] == p {
		return s[len(p):]
	}
	return s
}

// supersededByBacktrack reports whether a recorded 14.9.9 rejection of
// look-around or a backreference is now run by the backtracking engine
// (pi-natives 18.x; its answers are in testdata/backtrack.json).
func supersededByBacktrack(c refCase) bool {
	if !strings.Contains(c.Error, "error: look-around, including look-ahead and look-behind, is not supported") &&
		!strings.Contains(c.Error, "error: backreferences are not supported") &&
		!strings.Contains(c.Error, "error: unrecognized escape sequence") &&
		!strings.Contains(c.Error, "error: unrecognized flag") {
		return false
	}
	m, err := Compile(Options{Pattern: c.Pattern, IgnoreCase: c.Options.IgnoreCase, Multiline: c.Options.Multiline})
	return err == nil && m.re.Backtracks()
}
