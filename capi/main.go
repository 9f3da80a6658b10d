// Command capi is the C ABI of fscache, built with -buildmode=c-shared into
// libfscache.so. It decodes JSON options, calls internal/engine, encodes the
// result as JSON and never lets a Go panic cross into C. The contract is
// include/fscache.h.
package main

/*
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef void (*fscache_match_fn)(void *ctx, const char *match_json, size_t len);

static char *fscache_version_cstr;
static void fscache_version_set(char *v) { fscache_version_cstr = v; }
static char *fscache_version_get(void) { return fscache_version_cstr; }

// In signals.c: calls fn with the caller's signal mask in force.
void fscache_signals_call_match(fscache_match_fn fn, void *ctx, const char *json, size_t len);

static void fscache_call_match(fscache_match_fn fn, void *ctx, const char *json, size_t len) {
	fscache_signals_call_match(fn, ctx, json, len);
}
*/
import "C"

import (
	"fmt"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/fscache/fscache/internal/engine"
	fencing "github.com/fscache/fscache/internal/fence"
)

func main() {}

// result builds the C string returned to the caller: {"ok": ...} from the
// encoded payload, or the error envelope.
func result(payload []byte, err error) *C.char {
	var b []byte
	if err != nil {
		code, msg := engine.CodeInternal, err.Error()
		if e, ok := err.(*engine.Error); ok {
			code = e.Code
		} else if _, ok := err.(optionsError); ok {
			code = engine.CodeInvalidOptions
		}
		b = appendError(make([]byte, 0, 64+len(msg)), code, msg)
	} else {
		b = make([]byte, 0, len(payload)+8)
		b = append(b, `{"ok":`...)
		b = append(b, payload...)
		b = append(b, '}')
	}
	return cBytes(b)
}

// okEncoded writes the success envelope around enc's payload straight into
// a C result of about estimate bytes (its pages pooled, see resultmem.go),
// so that a large payload is written once and neither allocated nor copied
// in Go. A payload that outgrows the estimate is finished in Go memory by
// append and copied.
func okEncoded(estimate int, enc func([]byte) []byte) *C.char {
	n := max(estimate, 16) + 8
	p := cAlloc(n)
	if p == nil {
		return nil
	}
	region := unsafe.Slice((*byte)(p), n)
	b := append(region[:0:n-1], `{"ok":`...) // room kept for the NUL
	b = append(enc(b), '}')
	if unsafe.SliceData(b) == &region[0] {
		region[len(b)] = 0
		return (*C.char)(p)
	}
	cFree(p)
	return cBytes(b)
}

// cBytes copies b into a new NUL-terminated C string owned by the caller.
func cBytes(b []byte) *C.char {
	p := (*C.char)(cAlloc(len(b) + 1))
	if p == nil {
		return nil
	}
	if len(b) > 0 {
		C.memcpy(unsafe.Pointer(p), unsafe.Pointer(&b[0]), C.size_t(len(b)))
	}
	*(*byte)(unsafe.Add(unsafe.Pointer(p), len(b))) = 0
	return p
}

// optionsError marks a decoding failure (code invalid_options).
type optionsError struct{ error }

// fence converts a panic into an internal error envelope.
func fence(out **C.char) {
	if r := recover(); r != nil {
		*out = result(nil, panicError(r))
	}
}

// panicError describes a recovered panic as an internal error.
func panicError(r any) error {
	return &engine.Error{Code: engine.CodeInternal, Message: fmt.Sprintf("internal error: %v\n%s", r, debug.Stack())}
}

// fenceError is the internal error of a panic recovered by a fence (the
// call's goroutine or one it started).
func fenceError(e *fencing.Error) error {
	return &engine.Error{Code: engine.CodeInternal, Message: e.Error()}
}

// spawn runs call on a new goroutine, recovering a panic into an internal
// error (a panic there would otherwise kill the process); wait blocks until
// call is done and returns what it returned.
func spawn[R any](call func() (R, error)) (wait func() (R, error)) {
	var out R
	var err error
	done := make(chan struct{})
	go func() {
		defer close(done)
		if perr := fencing.Run(fencing.Call, func() {
			fencing.Point(fencing.Call)
			out, err = call()
		}); perr != nil {
			err = fenceError(perr)
		}
	}()
	return func() (R, error) {
		<-done
		return out, err
	}
}

// goOptions copies the caller's options string; NULL is reported.
func goOptions(p *C.char) (string, error) {
	if p == nil {
		return "", optionsError{fmt.Errorf("options_json is NULL")}
	}
	return C.GoString(p), nil
}

// cancelFlag returns a poller for the caller's flag, or nil.
func cancelFlag(p *C.int32_t) func() bool {
	if p == nil {
		return nil
	}
	ptr := (*int32)(unsafe.Pointer(p))
	return func() bool { return atomic.LoadInt32(ptr) != 0 }
}

// matchSink delivers JSON objects to a C callback through one reusable C
// buffer, so no Go pointer reaches C.
type matchSink struct {
	fn  C.fscache_match_fn
	ctx unsafe.Pointer
	buf *C.char
	cap int
	tmp []byte
}

func (s *matchSink) send(js []byte) {
	if len(js)+1 > s.cap {
		C.free(unsafe.Pointer(s.buf))
		s.cap = max(2*s.cap, len(js)+1, 256)
		s.buf = (*C.char)(C.malloc(C.size_t(s.cap)))
	}
	C.memcpy(unsafe.Pointer(s.buf), unsafe.Pointer(&js[0]), C.size_t(len(js)))
	*(*byte)(unsafe.Add(unsafe.Pointer(s.buf), len(js))) = 0
	C.fscache_call_match(s.fn, s.ctx, s.buf, C.size_t(len(js)))
}

func (s *matchSink) close() {
	if s.buf != nil {
		C.free(unsafe.Pointer(s.buf))
		s.buf = nil
	}
}

// offThread runs call on a new goroutine and waits for it, delivering the
// matches it produces to the C callback from here, on the calling thread.
//
// Why: the goroutine of a cgo export is locked to the caller's OS thread,
// and the scheduler routes every wakeup of a locked goroutine through that
// one thread; a parallel scan run on it took about 1.7x as long as the same
// scan from Go. Running the work on an ordinary goroutine removes that cost,
// and keeping the callbacks here keeps on_match on the calling thread (which
// Bun's JSCallback, for one, needs).
//
// call returns the complete C result (see okEncoded), or an error. A panic
// in call is recovered into an internal error (see spawn).
func offThread[T any](fn C.fscache_match_fn, ctx unsafe.Pointer, appendMatch func([]byte, T) []byte,
	call func(cb func(T) error) (*C.char, error)) *C.char {
	var cb func(T) error
	var matches, free chan []byte
	if fn != nil {
		matches = make(chan []byte, 256)
		free = make(chan []byte, 256)
		cb = func(m T) error {
			var b []byte
			select {
			case b = <-free:
			default:
			}
			matches <- appendMatch(b[:0], m)
			return nil
		}
	}
	wait := spawn(func() (*C.char, error) {
		if matches != nil {
			defer close(matches)
		}
		return call(cb)
	})
	if matches != nil {
		s := &matchSink{fn: fn, ctx: ctx}
		for js := range matches {
			s.send(js)
			select {
			case free <- js:
			default:
			}
		}
		s.close()
	}
	out, err := wait()
	if err != nil {
		fscache_go_free(out)
		return result(nil, err)
	}
	return out
}

//export fscache_go_glob
func fscache_go_glob(options *C.char, onMatch C.fscache_match_fn, ctx unsafe.Pointer, cancel *C.int32_t) (out *C.char) {
	defer fence(&out)
	js, err := goOptions(options)
	if err != nil {
		return result(nil, err)
	}
	o, err := decodeGlob(js, cancelFlag(cancel))
	if err != nil {
		return result(nil, optionsError{err})
	}
	return offThread(onMatch, ctx, appendGlobMatch, func(cb func(engine.GlobMatch) error) (*C.char, error) {
		sel, err := engine.GlobSelect(o, cb)
		if err != nil {
			return nil, err
		}
		return globResult(&sel), nil
	})
}

//export fscache_go_fuzzy_find
func fscache_go_fuzzy_find(options *C.char, cancel *C.int32_t) (out *C.char) {
	defer fence(&out)
	js, err := goOptions(options)
	if err != nil {
		return result(nil, err)
	}
	o, err := decodeFuzzy(js, cancelFlag(cancel))
	if err != nil {
		return result(nil, optionsError{err})
	}
	// Off the calling thread for the same reason as offThread.
	res, err := spawn(func() (*C.char, error) {
		r, err := engine.FuzzyFind(o)
		if err != nil {
			return nil, err
		}
		return okEncoded(fuzzyResultSize(r), func(b []byte) []byte { return appendFuzzyResult(b, r) }), nil
	})()
	if err != nil {
		fscache_go_free(res)
		return result(nil, err)
	}
	return res
}

//export fscache_go_grep
func fscache_go_grep(options *C.char, onMatch C.fscache_match_fn, ctx unsafe.Pointer, cancel *C.int32_t) (out *C.char) {
	defer fence(&out)
	js, err := goOptions(options)
	if err != nil {
		return result(nil, err)
	}
	o, err := decodeGrep(js, cancelFlag(cancel))
	if err != nil {
		return result(nil, optionsError{err})
	}
	return offThread(onMatch, ctx, appendGrepMatch, func(cb func(engine.GrepMatch) error) (*C.char, error) {
		o.Grouped = true // encoded from the files' matches, not copied into one slice first
		r, err := engine.Grep(o, cb)
		if err != nil {
			return nil, err
		}
		return okEncoded(grepResultSize(&r), func(b []byte) []byte { return appendGrepResult(b, &r) }), nil
	})
}

//export fscache_go_invalidate
func fscache_go_invalidate(path *C.char) {
	defer func() { _ = recover() }()
	if path == nil {
		engine.InvalidateAll()
		return
	}
	engine.Invalidate(C.GoString(path))
}

//export fscache_go_free
func fscache_go_free(p *C.char) {
	cFree(unsafe.Pointer(p))
}

// version is fscache's version, stamped at link time from the VERSION file
// at the repository root (-ldflags "-X main.version=..."); a build that was
// not stamped says so.
var version = "0.0.0-unstamped"

// versionOnce makes version a C string once. It is kept in a C global
// (fscache_version_cstr) for the life of the process: fscache_version()
// hands out a static string, and a pointer held only by Go would look like
// a leak to LeakSanitizer.
var versionOnce sync.Once

//export fscache_go_version
func fscache_go_version() *C.char {
	versionOnce.Do(func() { C.fscache_version_set(C.CString(version)) })
	return C.fscache_version_get()
}
