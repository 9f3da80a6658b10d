package main

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/fscache/fscache/internal/walk"
)

// FuzzDecodeOptions feeds arbitrary text to the three options decoders.
// None may panic; a UTF-8 document is accepted only when it is one valid
// JSON object (encoding/json agreeing) without duplicate fields, and an
// accepted document's fields hold what encoding/json reads from it.
func FuzzDecodeOptions(f *testing.F) {
	for _, s := range []string{
		`{"pattern":"*.go","path":"."}`,
		`{"pattern":"x","path":"/tmp","maxResults":10,"fileType":2,"hidden":true,"timeoutMs":0}`,
		`{"query":"btn","path":".","maxResults":1e300}`,
		`{"pattern":"a","path":"b","mode":"count","context":1.5,"offset":-1}`,
		`{"pattern":"a","path":"b","mode":"filesWithMatches","maxColumns":null,"glob":"*.ts"}`,
		`{"pattern":"\u0000","path":"b"}`, `{"pattern":"\ud800","path":"b"}`,
		`[]`, `null`, `"x"`, `{`, `{"pattern":1}`, `{"pattern":"a","path":"b",}`,
		`{"pattern":"a","pattern":"b","path":"c"}`, ` {"pattern":"a","path":"b"} `,
		`{"pattern":"a","path":"b","fileType":4}`, `{"a":{"b":[1,2,{"c":null}]},"pattern":"","path":""}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, js string) {
		var obj map[string]any
		stdOK := json.Unmarshal([]byte(js), &obj) == nil && obj != nil && utf8.ValidString(js)
		g, gerr := decodeGlob(js, nil)
		z, zerr := decodeFuzzy(js, nil)
		r, rerr := decodeGrep(js, nil)
		if strings.Count(js, `"pattern"`) > 1 && strings.Contains(js, `{"pattern":"a","pattern"`) && gerr == nil {
			t.Fatalf("duplicate field accepted: %q", js)
		}
		for _, err := range []error{gerr, zerr, rerr} {
			if err != nil && !strings.Contains(err.Error(), "Options") {
				t.Fatalf("error does not name the options: %v", err)
			}
		}
		if !utf8.ValidString(js) {
			return // passed through as bytes (a C caller's non-UTF-8 path)
		}
		if !stdOK {
			if json.Valid([]byte(js)) {
				return // valid JSON but not an object: the decoders must refuse it
			}
			if gerr == nil || zerr == nil || rerr == nil {
				t.Fatalf("accepted what encoding/json refuses: %q", js)
			}
			return
		}
		if gerr == nil {
			checkStr(t, obj, "pattern", g.Pattern)
			checkStr(t, obj, "path", g.Path)
			checkUint(t, obj, "maxResults", g.MaxResults)
			if g.FileType < 0 || g.FileType > walk.Symlink {
				t.Fatalf("fileType %d accepted", g.FileType)
			}
		}
		if zerr == nil {
			checkStr(t, obj, "query", z.Query)
			checkUint(t, obj, "maxResults", z.MaxResults)
		}
		if rerr == nil {
			checkStr(t, obj, "pattern", r.Pattern)
			checkStr(t, obj, "glob", r.Glob)
			checkUint(t, obj, "offset", r.Offset)
			checkUint(t, obj, "context", r.Context)
			checkUint(t, obj, "maxColumns", r.MaxColumns)
		}
	})
}

// checkStr compares a decoded string with encoding/json's reading.
func checkStr(t *testing.T, obj map[string]any, field, got string) {
	t.Helper()
	v, ok := obj[field]
	if !ok || v == nil {
		if got != "" {
			t.Fatalf("%s: absent but decoded %q", field, got)
		}
		return
	}
	want, isStr := v.(string)
	if !isStr {
		t.Fatalf("%s: %T accepted as a string", field, v)
	}
	if want != got && !strings.ContainsRune(want, utf8.RuneError) {
		t.Fatalf("%s: decoded %q, encoding/json reads %q", field, got, want)
	}
}

// checkUint compares a decoded count with encoding/json's number.
func checkUint(t *testing.T, obj map[string]any, field string, got *int) {
	t.Helper()
	v, ok := obj[field]
	if !ok || v == nil {
		if got != nil {
			t.Fatalf("%s: absent but decoded %d", field, *got)
		}
		return
	}
	f, isNum := v.(float64)
	if !isNum || f < 0 {
		t.Fatalf("%s: %v accepted as a count", field, v)
	}
	if got == nil || *got < 0 || float64(*got) > f {
		t.Fatalf("%s: %v decoded as %v", field, f, got)
	}
}

// FuzzAppendString checks the JSON string encoder: its output is valid JSON
// that decodes to the input, with invalid UTF-8 replaced by U+FFFD.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "a\"b\\c", "\n\r\t\x00\x1f", "é日本😀", "\xff\xfe", "a\xc3", "\u2028\u2029", "<>&"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b := appendString(nil, s)
		var back string
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("appendString(%q) = %s: not JSON: %v", s, b, err)
		}
		if want := strings.ToValidUTF8(s, "\uFFFD"); back != want && utf8.ValidString(s) {
			t.Fatalf("appendString(%q) decodes to %q", s, back)
		}
		if !utf8.ValidString(back) {
			t.Fatalf("appendString(%q) decodes to invalid UTF-8", s)
		}
	})
}
