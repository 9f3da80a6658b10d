package main

import (
	"fmt"
	"math"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/fscache/fscache/internal/engine"
	"github.com/fscache/fscache/internal/walk"
)

// decoder reads typed fields from one options object and records the first
// problem, naming the field.
type decoder struct {
	kind string // "GlobOptions", ...
	obj  gjson.Result
	err  error
}

// newDecoder validates that js is one JSON object.
func newDecoder(kind, js string) *decoder {
	d := &decoder{kind: kind}
	switch {
	case !gjson.Valid(js):
		d.err = fmt.Errorf("%s: malformed JSON", kind)
	default:
		d.obj = gjson.Parse(js)
		if !d.obj.IsObject() {
			d.err = fmt.Errorf("%s: expected a JSON object, got %s", kind, typeName(d.obj))
		} else if k, dup := duplicateKey(d.obj); dup {
			// gjson reads the first of duplicate keys, JSON.parse the
			// last: refuse rather than guess which one the caller meant.
			d.err = fmt.Errorf("%s.%s: duplicate field", kind, k)
		}
	}
	return d
}

// duplicateKey returns a key that occurs twice in the object obj.
func duplicateKey(obj gjson.Result) (key string, dup bool) {
	seen := make(map[string]struct{}, 16)
	obj.ForEach(func(k, _ gjson.Result) bool {
		if _, ok := seen[k.Str]; ok {
			key, dup = k.Str, true
			return false
		}
		seen[k.Str] = struct{}{}
		return true
	})
	return key, dup
}

func (d *decoder) fail(field, format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("%s.%s: %s", d.kind, field, fmt.Sprintf(format, args...))
	}
}

// get returns the field, treating null like an absent field.
func (d *decoder) get(field string) (gjson.Result, bool) {
	if d.err != nil {
		return gjson.Result{}, false
	}
	v := d.obj.Get(gjson.Escape(field))
	if !v.Exists() || v.Type == gjson.Null {
		return v, false
	}
	return v, true
}

func (d *decoder) str(field string, required bool) string {
	v, ok := d.get(field)
	if !ok {
		if required {
			d.fail(field, "missing required string field")
		}
		return ""
	}
	if v.Type != gjson.String {
		d.fail(field, "expected a string, got %s", typeName(v))
		return ""
	}
	if strings.IndexByte(v.Str, 0) >= 0 {
		d.fail(field, "string contains a NUL byte")
		return ""
	}
	return v.Str
}

func (d *decoder) boolean(field string) *bool {
	v, ok := d.get(field)
	if !ok {
		return nil
	}
	if !v.IsBool() {
		d.fail(field, "expected a boolean, got %s", typeName(v))
		return nil
	}
	b := v.Bool()
	return &b
}

func (d *decoder) flag(field string, def bool) bool {
	if b := d.boolean(field); b != nil {
		return *b
	}
	return def
}

// uint reads a non-negative number; fractions are truncated as a u32
// conversion would.
func (d *decoder) uint(field string, maxVal float64) *int {
	f, ok := d.number(field)
	if !ok {
		return nil
	}
	if math.IsNaN(f) || f < 0 {
		d.fail(field, "expected a non-negative number, got %s", d.raw(field))
		return nil
	}
	f = math.Min(math.Trunc(f), maxVal)
	n := int(f)
	return &n
}

// number reads a number field; ok is false when it is absent or (failed)
// not a number.
func (d *decoder) number(field string) (float64, bool) {
	v, ok := d.get(field)
	if !ok {
		return 0, false
	}
	if v.Type != gjson.Number {
		d.fail(field, "expected a number, got %s", typeName(v))
		return 0, false
	}
	return v.Float(), true
}

// raw is a field's JSON text, for error messages.
func (d *decoder) raw(field string) string {
	v, _ := d.get(field)
	return v.Raw
}

func (d *decoder) cancel(flag func() bool) engine.Cancel {
	c := engine.Cancel{Aborted: flag}
	if n := d.uint("timeoutMs", math.MaxInt32); n != nil {
		ms := int64(*n)
		c.TimeoutMs = &ms
	}
	return c
}

func typeName(v gjson.Result) string {
	switch v.Type {
	case gjson.Null:
		return "null"
	case gjson.False, gjson.True:
		return "a boolean"
	case gjson.Number:
		return "a number"
	case gjson.String:
		return "a string"
	}
	if v.IsArray() {
		return "an array"
	}
	return "an object"
}

const maxU32 = math.MaxUint32

// The decoders below read the fields of schema/options.json, with their
// types and requiredness; schema_test.go holds them to it field by field
// (and include/fscache.h's option tables too).

func decodeGlob(js string, flag func() bool) (engine.GlobOptions, error) {
	d := newDecoder("GlobOptions", js)
	o := engine.GlobOptions{
		Pattern:            d.str("pattern", true),
		Path:               d.str("path", true),
		Recursive:          d.boolean("recursive"),
		Hidden:             d.flag("hidden", false),
		MaxResults:         d.uint("maxResults", maxU32),
		Gitignore:          d.boolean("gitignore"),
		Cache:              d.flag("cache", false),
		SortByMtime:        d.flag("sortByMtime", false),
		IncludeNodeModules: d.boolean("includeNodeModules"),
		Cancel:             d.cancel(flag),
	}
	if ft := d.uint("fileType", maxU32); ft != nil {
		if *ft < 1 || *ft > 3 {
			d.fail("fileType", "expected 1 (file), 2 (dir) or 3 (symlink), got %d", *ft)
		}
		o.FileType = walk.FileType(*ft)
	}
	return o, d.err
}

func decodeFuzzy(js string, flag func() bool) (engine.FuzzyFindOptions, error) {
	d := newDecoder("FuzzyFindOptions", js)
	o := engine.FuzzyFindOptions{
		Query:      d.str("query", true),
		Path:       d.str("path", true),
		Hidden:     d.flag("hidden", false),
		Gitignore:  d.boolean("gitignore"),
		Cache:      d.flag("cache", false),
		MaxResults: d.uint("maxResults", maxU32),
		Cancel:     d.cancel(flag),
	}
	return o, d.err
}

func decodeGrep(js string, flag func() bool) (engine.GrepOptions, error) {
	d := newDecoder("GrepOptions", js)
	o := engine.GrepOptions{
		Pattern:       d.str("pattern", true),
		Path:          d.str("path", true),
		Glob:          d.str("glob", false),
		Type:          d.str("type", false),
		IgnoreCase:    d.flag("ignoreCase", false),
		Multiline:     d.flag("multiline", false),
		Hidden:        d.boolean("hidden"),
		Gitignore:     d.boolean("gitignore"),
		Cache:         d.flag("cache", false),
		MaxCount:      d.uint("maxCount", maxU32),
		Offset:        d.uint("offset", maxU32),
		ContextBefore: d.uint("contextBefore", maxU32),
		ContextAfter:  d.uint("contextAfter", maxU32),
		Context:       d.uint("context", maxU32),
		MaxColumns:    d.uint("maxColumns", maxU32),
		Cancel:        d.cancel(flag),
		// pi-natives 18.2
		MaxCountPerFile: d.uint("maxCountPerFile", maxU32),
		// ours
		RawLines: d.flag("rawLines", false),
	}
	switch mode := d.str("mode", false); mode {
	case "", "content":
		o.Mode = engine.ModeContent
	case "count":
		o.Mode = engine.ModeCount
	case "filesWithMatches":
		o.Mode = engine.ModeFilesWithMatches
	default:
		d.fail("mode", `expected "content", "count" or "filesWithMatches", got %q`, mode)
	}
	return o, d.err
}
