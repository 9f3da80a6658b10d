package main

/*
#include <stdint.h>
*/
import "C"

import (
	"errors"
	"math"
	"strconv"
	"time"

	"github.com/tidwall/gjson"

	cancelpkg "github.com/fscache/fscache/internal/cancel"
	"github.com/fscache/fscache/internal/engine"
	"github.com/fscache/fscache/internal/readcache"
)

// The read cache's three calls (fscache_read_cache, _resolve, _store):
// JSON options decoded into internal/readcache's structs, its results
// encoded by hand (ASCII, keys in the header's order), its errors passed
// through with their codes.

// readCacheOptions are ReadCacheOptions as decoded: the engine's options,
// the timeout (which the engine has no field for) and the caller's flag.
type readCacheOptions struct {
	readcache.Options
	TimeoutMs *int64
	flag      func() bool
}

// readCacheStoreOptions are ReadCacheStoreOptions as decoded.
type readCacheStoreOptions struct {
	Dir string
}

// maxSize is the largest byte count or age read (2^53, JavaScript's
// largest exact integer); larger numbers read as it.
const maxSize = 1 << 53

// integer reads a number that may be negative (offset, limit: the engine
// validates them); fractions are truncated toward zero, and the value is
// clamped to the int32 range.
func (d *decoder) integer(field string) *int {
	f, ok := d.number(field)
	if !ok {
		return nil
	}
	f = math.Trunc(f)
	f = math.Max(math.Min(f, math.MaxInt32), math.MinInt32)
	n := int(f)
	return &n
}

// size reads a non-negative number as an int64 (0 when absent).
func (d *decoder) size(field string) int64 {
	if n := d.uint(field, maxSize); n != nil {
		return int64(*n)
	}
	return 0
}

// stringMap reads an object of strings (nil when absent).
func (d *decoder) stringMap(field string) map[string]string {
	v, ok := d.get(field)
	if !ok {
		return nil
	}
	if !v.IsObject() {
		d.fail(field, "expected an object of strings, got %s", typeName(v))
		return nil
	}
	if k, dup := duplicateKey(v); dup {
		d.fail(field, "duplicate key %q", k)
		return nil
	}
	m := map[string]string{}
	v.ForEach(func(k, x gjson.Result) bool {
		switch {
		case x.Type != gjson.String:
			d.fail(field, "%s: expected a string, got %s", strconv.Quote(k.Str), typeName(x))
		case hasNUL(k.Str) || hasNUL(x.Str):
			d.fail(field, "%s: string contains a NUL byte", strconv.Quote(k.Str))
		default:
			m[k.Str] = x.Str
			return true
		}
		return false
	})
	return m
}

// strings reads an array of strings (nil when absent, empty but not nil
// when empty).
func (d *decoder) strings(field string) []string {
	v, ok := d.get(field)
	if !ok {
		return nil
	}
	if !v.IsArray() {
		d.fail(field, "expected an array of strings, got %s", typeName(v))
		return nil
	}
	out := []string{}
	for i, x := range v.Array() {
		switch {
		case x.Type != gjson.String:
			d.fail(field, "[%d]: expected a string, got %s", i, typeName(x))
			return nil
		case hasNUL(x.Str):
			d.fail(field, "[%d]: string contains a NUL byte", i)
			return nil
		}
		out = append(out, x.Str)
	}
	return out
}

func hasNUL(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			return true
		}
	}
	return false
}

func decodeReadCache(js string, flag func() bool) (readCacheOptions, error) {
	d := newDecoder("ReadCacheOptions", js)
	o := readCacheOptions{Options: readcache.Options{
		ResolveOptions: readcache.ResolveOptions{
			Path:   d.str("path", true),
			Cwd:    d.str("cwd", false),
			Offset: d.integer("offset"),
			Limit:  d.integer("limit"),
		},
		PathKey:            d.str("pathKey", false),
		Bases:              d.stringMap("bases"),
		StoreDir:           d.str("storeDir", false),
		NoStore:            d.flag("noStore", false),
		ObjectHash:         d.str("objectHash", false),
		Exclude:            d.strings("exclude"),
		MaxFileBytes:       d.size("maxFileBytes"),
		StoreMaxBytes:      d.size("storeMaxBytes"),
		StoreMaxAgeSeconds: d.size("storeMaxAgeSeconds"),
		LineCount:          d.str("lineCount", false),
	}}
	switch o.LineCount {
	case "", readcache.LineCountSplit, readcache.LineCountLines:
	default:
		d.fail("lineCount", `expected "split" or "lines", got %q`, o.LineCount)
	}
	o.TimeoutMs = d.cancel(nil).TimeoutMs
	o.flag = flag
	return o, d.err
}

func decodeReadCacheResolve(js string) (readcache.ResolveOptions, error) {
	d := newDecoder("ReadCacheResolveOptions", js)
	o := readcache.ResolveOptions{
		Path:   d.str("path", true),
		Cwd:    d.str("cwd", false),
		Offset: d.integer("offset"),
		Limit:  d.integer("limit"),
	}
	return o, d.err
}

func decodeReadCacheStore(js string) (readCacheStoreOptions, error) {
	d := newDecoder("ReadCacheStoreOptions", js)
	o := readCacheStoreOptions{Dir: d.str("dir", true)}
	return o, d.err
}

// readCacheCancelled is the message of a read cancelled before it began.
const readCacheCancelled = "Operation aborted" // the engine's own

// readCacheError gives the read cache's errors the envelope's codes: the
// engine's pass through, but a cancellation the timeout caused is
// "timeout" ("Aborted: Timeout"). err may also be the token's own error,
// when it had stopped before the read began.
func readCacheError(err error, tok *cancelpkg.Token) error {
	var e *readcache.Error
	switch {
	case errors.As(err, &e):
		if e.Code == readcache.CodeCancelled && errors.Is(tok.Err(), cancelpkg.ErrTimeout) {
			return &engine.Error{Code: engine.CodeTimeout, Message: cancelpkg.ErrTimeout.Error()}
		}
		return &engine.Error{Code: engine.Code(e.Code), Message: e.Message}
	case errors.Is(err, cancelpkg.ErrTimeout):
		return &engine.Error{Code: engine.CodeTimeout, Message: cancelpkg.ErrTimeout.Error()}
	case errors.Is(err, cancelpkg.ErrSignal):
		return &engine.Error{Code: readcache.CodeCancelled, Message: readCacheCancelled}
	}
	return err
}

// readCache runs one read and encodes its result.
func readCache(o readCacheOptions) ([]byte, error) {
	var deadline time.Time
	if o.TimeoutMs != nil {
		deadline = time.Now().Add(time.Duration(*o.TimeoutMs) * time.Millisecond)
	}
	tok := cancelpkg.New(deadline, o.flag)
	defer tok.Release()
	if err := tok.Err(); err != nil {
		return nil, readCacheError(err, tok)
	}
	ro := o.Options
	ro.Cancel = tok.Stopped
	r, err := readcache.Read(ro)
	if err != nil {
		return nil, readCacheError(err, tok)
	}
	return appendReadCacheResult(make([]byte, 0, 512+len(r.Text)+len(r.Text)/16), &r), nil
}

// appendResolved appends the keys of a Resolved (no braces).
func appendResolved(b []byte, r *readcache.Resolved) []byte {
	b = append(b, `"pathKey":`...)
	b = appendString(b, r.PathKey)
	b = append(b, `,"absPath":`...)
	b = appendString(b, r.AbsPath)
	b = append(b, `,"path":`...)
	b = appendString(b, r.Path)
	if r.Offset != nil {
		b = append(b, `,"offset":`...)
		b = strconv.AppendInt(b, int64(*r.Offset), 10)
	}
	if r.Limit != nil {
		b = append(b, `,"limit":`...)
		b = strconv.AppendInt(b, int64(*r.Limit), 10)
	}
	return b
}

func appendReadCacheResolved(b []byte, r *readcache.Resolved) []byte {
	b = append(b, '{')
	b = appendResolved(b, r)
	return append(b, '}')
}

func appendIntField(b []byte, name string, n int) []byte {
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	return strconv.AppendInt(b, int64(n), 10)
}

func appendBoolField(b []byte, name string, v bool) []byte {
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	return strconv.AppendBool(b, v)
}

// appendReadCacheResult encodes a Result: {mode, [reason], pathKey,
// absPath, path, [offset], [limit], text, [truncation], [meta],
// [storeError]}.
func appendReadCacheResult(b []byte, r *readcache.Result) []byte {
	b = append(b, `{"mode":`...)
	b = appendString(b, string(r.Mode))
	if r.Reason != "" {
		b = append(b, `,"reason":`...)
		b = appendString(b, r.Reason)
	}
	b = append(b, ',')
	b = appendResolved(b, &r.Resolved)
	b = append(b, `,"text":`...)
	b = appendString(b, r.Text)
	if t := r.Truncation; t != nil {
		b = append(b, `,"truncation":{"content":`...)
		b = appendString(b, t.Content)
		b = appendBoolField(b, "truncated", t.Truncated)
		b = append(b, `,"truncatedBy":`...)
		if t.TruncatedBy != nil {
			b = appendString(b, *t.TruncatedBy)
		} else {
			b = append(b, "null"...)
		}
		b = appendIntField(b, "totalLines", t.TotalLines)
		b = appendIntField(b, "totalBytes", t.TotalBytes)
		b = appendIntField(b, "outputLines", t.OutputLines)
		b = appendIntField(b, "outputBytes", t.OutputBytes)
		b = appendBoolField(b, "lastLinePartial", t.LastLinePartial)
		b = appendBoolField(b, "firstLineExceedsLimit", t.FirstLineExceedsLimit)
		b = appendIntField(b, "maxLines", t.MaxLines)
		b = appendIntField(b, "maxBytes", t.MaxBytes)
		b = append(b, '}')
	}
	if m := r.Meta; m != nil {
		b = append(b, `,"meta":{"v":`...)
		b = strconv.AppendInt(b, int64(m.V), 10)
		b = append(b, `,"pathKey":`...)
		b = appendString(b, m.PathKey)
		b = append(b, `,"scopeKey":`...)
		b = appendString(b, m.ScopeKey)
		b = append(b, `,"servedHash":`...)
		b = appendString(b, m.ServedHash)
		if m.BaseHash != "" {
			b = append(b, `,"baseHash":`...)
			b = appendString(b, m.BaseHash)
		}
		b = append(b, `,"mode":`...)
		b = appendString(b, string(m.Mode))
		b = appendIntField(b, "totalLines", m.TotalLines)
		b = appendIntField(b, "rangeStart", m.RangeStart)
		b = appendIntField(b, "rangeEnd", m.RangeEnd)
		b = appendIntField(b, "bytes", m.Bytes)
		b = append(b, '}')
	}
	if r.StoreError != "" {
		b = append(b, `,"storeError":`...)
		b = appendString(b, r.StoreError)
	}
	return append(b, '}')
}

func appendReadCacheStoreInfo(b []byte, s *readcache.StoreInfo) []byte {
	b = append(b, `{"dir":`...)
	b = appendString(b, s.Dir)
	b = appendIntField(b, "objects", s.Objects)
	b = append(b, `,"bytes":`...)
	b = strconv.AppendInt(b, s.Bytes, 10)
	return append(b, '}')
}

//export fscache_go_read_cache
func fscache_go_read_cache(options *C.char, cancel *C.int32_t) (out *C.char) {
	defer fence(&out)
	js, err := goOptions(options)
	if err != nil {
		return result(nil, err)
	}
	o, err := decodeReadCache(js, cancelFlag(cancel))
	if err != nil {
		return result(nil, optionsError{err})
	}
	// Off the calling thread for the same reason as offThread.
	return result(spawn(func() ([]byte, error) { return readCache(o) })())
}

//export fscache_go_read_cache_resolve
func fscache_go_read_cache_resolve(options *C.char) (out *C.char) {
	defer fence(&out)
	js, err := goOptions(options)
	if err != nil {
		return result(nil, err)
	}
	o, err := decodeReadCacheResolve(js)
	if err != nil {
		return result(nil, optionsError{err})
	}
	r, err := readcache.Resolve(o)
	if err != nil {
		return result(nil, readCacheError(err, nil))
	}
	return result(appendReadCacheResolved(nil, &r), nil)
}

//export fscache_go_read_cache_store
func fscache_go_read_cache_store(options *C.char) (out *C.char) {
	defer fence(&out)
	js, err := goOptions(options)
	if err != nil {
		return result(nil, err)
	}
	o, err := decodeReadCacheStore(js)
	if err != nil {
		return result(nil, optionsError{err})
	}
	s, err := readcache.StoreStats(o.Dir)
	if err != nil {
		return result(nil, readCacheError(err, nil))
	}
	return result(appendReadCacheStoreInfo(nil, &s), nil)
}
