package core

import (
	"context"
	"errors"
	"time"

	"github.com/fscache/fscache/internal/cancel"
	"github.com/fscache/fscache/internal/readcache"
)

// The read cache (fscache's own; not in pi-natives): a read tool for a
// coding agent that answers a repeated read of a file the model has seen
// with a marker or a diff instead of the whole file again. ReadCache holds
// no session state: the caller says which content hashes the model has
// seen (Bases), for instance by replaying its session's earlier results
// (their Meta). See the seed's specification for the modes and texts.

// The error codes of the read cache, besides CodeInvalidOptions and
// CodeTimeout.
const (
	// CodeInvalidRange: a "path:start-end" suffix that is not a valid range
	// (e.g. ":0", ":5-3").
	CodeInvalidRange Code = "invalid_range"
	// CodeOffsetBeyondEOF: pi's "Offset N is beyond end of file (M lines
	// total)".
	CodeOffsetBeyondEOF Code = "offset_beyond_eof"
	// CodeNotRegular: a FIFO, socket or device, which is never opened.
	CodeNotRegular Code = "not_regular"
	// CodeCancelled: the call's context was done (the read cache's calls
	// report it so, where the scan calls report CodeAborted).
	CodeCancelled Code = "cancelled"
	// CodeStore: the object store's directory is refused (a symlink,
	// foreign-owned, or writable by group or others); the message names it.
	CodeStore Code = "store"
	// CodeObjectMissing: ReadCacheOptions.ObjectHash names no intact
	// object of the store (missing, or damaged and removed); the message
	// names the object and the store.
	CodeObjectMissing Code = "object_missing"
)

// ReadCacheMode is how ReadCache answered a read.
type ReadCacheMode string

// The read cache's modes.
const (
	// ReadCacheFull is a first read of the scope: pi's own read output.
	ReadCacheFull ReadCacheMode = "full"
	// ReadCacheUnchanged is the marker "[readcache: unchanged, N lines]".
	ReadCacheUnchanged ReadCacheMode = "unchanged"
	// ReadCacheUnchangedRange is a range's unchanged marker.
	ReadCacheUnchangedRange ReadCacheMode = "unchanged_range"
	// ReadCacheDiff is a unified diff against the base.
	ReadCacheDiff ReadCacheMode = "diff"
	// ReadCacheFullFallback is pi's read output where a base was trusted
	// but no marker or diff could be served (Reason says why).
	ReadCacheFullFallback ReadCacheMode = "full_fallback"
	// ReadCacheBaseline means the caller's own read tool must answer (an
	// image, a binary, invalid UTF-8, excluded, not found, a directory;
	// Reason says which). Text is empty.
	ReadCacheBaseline ReadCacheMode = "baseline"
)

// ReadCacheResolveOptions name a read as the model gave it (the options of
// ReadCacheResolve).
type ReadCacheResolveOptions struct {
	// Path is the read tool's path argument, unmodified: a leading "@",
	// "~", unicode spaces and a "path:start-end" suffix are handled as pi's
	// read does.
	Path string
	// Cwd is the session's working directory (absolute); a relative Path
	// resolves against it. Empty: the process's working directory.
	Cwd string
	// Offset is the tool's 1-based first line (nil: absent); when Offset or
	// Limit is set the path's suffix is not parsed. Any integer is passed
	// on; the engine validates it.
	Offset *int
	// Limit is the tool's line count (nil: absent).
	Limit *int
}

// ReadCacheOptions are the options of ReadCache.
type ReadCacheOptions struct {
	// Path is the read tool's path argument, unmodified (see
	// ReadCacheResolveOptions.Path).
	Path string
	// Cwd is the session's working directory (absolute); a relative Path
	// resolves against it. Empty: the process's working directory.
	Cwd string
	// Offset is the tool's 1-based first line (nil: absent).
	Offset *int
	// Limit is the tool's line count (nil: absent).
	Limit *int
	// PathKey is the file the Bases belong to (ReadCacheResult.PathKey of
	// an earlier read); when it is not the file's, Bases are ignored and
	// the read is served in full.
	PathKey string
	// Bases maps a scope key ("full" or "r:<start>:<end>") to the content
	// hash (sha256, 64 lowercase hex digits; ReadCacheMeta.ServedHash) the
	// model has seen for that scope of PathKey. nil: a first read.
	Bases map[string]string
	// StoreDir is the object store's directory (empty: <Cwd>/.pi/readcache).
	StoreDir string
	// NoStore serves without reading or writing the store, hence without
	// diffs (default false).
	NoStore bool
	// ObjectHash, when set (sha256, 64 lowercase hex digits: a
	// ReadCacheMeta.ServedHash), answers from the object store's content
	// of that hash instead of the file: pi's read output for the read's
	// path and range as it was when the file held that content
	// (ReadCacheFull, Meta.ServedHash ObjectHash), whatever the file holds
	// now or whether it still exists; for re-sending the text a marker or
	// diff stood for. Bases are ignored and nothing is stored. A missing
	// or damaged object is CodeObjectMissing, a refused store CodeStore;
	// with NoStore it is CodeInvalidOptions.
	ObjectHash string
	// Exclude lists glob patterns of files never cached (matched against
	// the base name, and the whole path when they contain "/"; one ending
	// in "/" against the name of every directory the file is under), on
	// the path as written and on the real path; nil: the defaults (.env*,
	// *.pem, *.key, *.p12, *.pfx, *.crt, *.cer, *.der, *.pk8, id_rsa,
	// id_ed25519, id_ecdsa, id_dsa, .npmrc, .netrc, .ssh/); an empty
	// slice: none.
	Exclude []string
	// MaxFileBytes: larger files are streamed: ReadCacheFull with Reason
	// "streamed" and no Meta (pi's text, read in one pass holding only the
	// lines shown; nothing stored, no marker or diff later); 0 is
	// the engine's default.
	MaxFileBytes int64
	// StoreMaxBytes bounds the object store's total size (oldest objects
	// pruned first); 0 is the engine's default.
	StoreMaxBytes int64
	// StoreMaxAgeSeconds prunes objects older than that; 0 is the engine's
	// default.
	StoreMaxAgeSeconds int64
	// LineCount is how the line totals of Truncation, the markers and the
	// diff header are counted: "split" (pi 0.73, @mariozechner: the text
	// split on "\n", so a trailing newline makes a last empty line; ""
	// is it: default split) or "lines" (pi 1.x, @earendil-works: a
	// trailing empty line is not counted and not truncated on, so a
	// 120-line file ending in a newline is "[readcache: unchanged, 120
	// lines]"). The continuation notices, the offset error and Meta count
	// lines split either way, as both pi lines do.
	LineCount string
	// TimeoutMs, when not nil, ends the call with CodeTimeout after that
	// many milliseconds; 0 has expired before the call starts.
	TimeoutMs *int64
}

// ReadCacheResolved is a read's path and range after pi's normalisation
// (the result of ReadCacheResolve).
type ReadCacheResolved struct {
	// PathKey identifies the file across spellings: the real path of
	// AbsPath when it resolves, else AbsPath.
	PathKey string
	// AbsPath is the path pi's read would open.
	AbsPath string
	// Path is the path argument without a parsed ":start-end" suffix.
	Path string
	// Offset is the offset argument after the suffix was parsed (nil:
	// absent).
	Offset *int
	// Limit is the limit argument after the suffix was parsed (nil:
	// absent).
	Limit *int
}

// ReadCacheTruncation is pi's TruncationResult (details.truncation of its
// read tool), field for field.
type ReadCacheTruncation struct {
	// Content is the text kept.
	Content string
	// Truncated reports that the text was cut.
	Truncated bool
	// TruncatedBy is "lines" or "bytes", nil when not truncated.
	TruncatedBy *string
	// TotalLines is the text's line count before truncation.
	TotalLines int
	// TotalBytes is the text's size before truncation.
	TotalBytes int
	// OutputLines is Content's line count.
	OutputLines int
	// OutputBytes is Content's size.
	OutputBytes int
	// LastLinePartial reports that Content ends inside a line.
	LastLinePartial bool
	// FirstLineExceedsLimit reports that the first line alone is over
	// MaxBytes.
	FirstLineExceedsLimit bool
	// MaxLines is the line limit applied.
	MaxLines int
	// MaxBytes is the byte limit applied.
	MaxBytes int
}

// ReadCacheMeta is the details.readcache record of a read's tool result
// (ReadCacheMetaV1): what a caller keeps to trust the read later.
type ReadCacheMeta struct {
	// V is the record's version, 1.
	V int
	// PathKey is the file's key.
	PathKey string
	// ScopeKey is "full" or "r:<start>:<end>".
	ScopeKey string
	// ServedHash is the sha256 of the content served against.
	ServedHash string
	// BaseHash is the hash compared against ("" when none).
	BaseHash string
	// Mode is the read's mode.
	Mode ReadCacheMode
	// TotalLines is the file's line count.
	TotalLines int
	// RangeStart is the scope's first line (1-based).
	RangeStart int
	// RangeEnd is the scope's last line (inclusive).
	RangeEnd int
	// Bytes is the size of the text served.
	Bytes int
}

// ReadCacheResult is the answer of ReadCache.
type ReadCacheResult struct {
	// Mode is how the read was answered.
	Mode ReadCacheMode
	// Reason says why Mode is ReadCacheBaseline or ReadCacheFullFallback
	// (e.g. "binary", "image", "invalid_utf8", "excluded",
	// "not_found", "base_missing", "diff_not_useful", "diff_too_costly");
	// "streamed" for a ReadCacheFull read of a file over MaxFileBytes; ""
	// otherwise.
	Reason string
	// ReadCacheResolved is the read's path and range.
	ReadCacheResolved
	// Text is the tool's text content (empty for ReadCacheBaseline).
	Text string
	// Truncation is set where pi's read sets details.truncation.
	Truncation *ReadCacheTruncation
	// Meta is set for every mode but ReadCacheBaseline, and but a
	// streamed read of a file over MaxFileBytes (Reason "streamed").
	Meta *ReadCacheMeta
	// StoreError, when not empty, says why the object store could not be
	// used (the read was served without it).
	StoreError string
}

// ReadCacheStoreInfo describes an object store (for a status command).
type ReadCacheStoreInfo struct {
	// Dir is the store's directory.
	Dir string
	// Objects is the number of objects it holds.
	Objects int
	// Bytes is their total size.
	Bytes int64
}

// ReadCache reads the file o.Path names as pi's read tool would and
// answers with pi's output, an unchanged marker or a diff against the base
// the caller trusts (o.Bases), keeping the content in the object store for
// later diffs. Errors are *Error: CodeInvalidRange, CodeOffsetBeyondEOF,
// CodeNotRegular, CodeInvalidOptions, CodeCancelled (ctx done) and
// CodeTimeout; with ObjectHash also CodeObjectMissing and CodeStore.
func ReadCache(ctx context.Context, o ReadCacheOptions) (ReadCacheResult, error) {
	tok := newReadCacheToken(ctx, o.TimeoutMs)
	defer tok.Release()
	if err := tok.Err(); err != nil {
		return ReadCacheResult{}, readCacheError(err, tok)
	}
	r, err := readcache.Read(readcache.Options{
		ResolveOptions: readcache.ResolveOptions{Path: o.Path, Cwd: o.Cwd, Offset: o.Offset, Limit: o.Limit},
		PathKey:        o.PathKey, Bases: o.Bases, StoreDir: o.StoreDir, NoStore: o.NoStore, ObjectHash: o.ObjectHash,
		Exclude: o.Exclude, MaxFileBytes: o.MaxFileBytes, StoreMaxBytes: o.StoreMaxBytes,
		StoreMaxAgeSeconds: o.StoreMaxAgeSeconds, LineCount: o.LineCount, Cancel: tok.Stopped,
	})
	if err != nil {
		return ReadCacheResult{}, readCacheError(err, tok)
	}
	return readCacheResult(&r), nil
}

// ReadCacheResolve resolves a read's path and range as ReadCache does,
// without opening the file (for a refresh command, say). Errors are *Error
// (CodeInvalidRange, CodeInvalidOptions, CodeCancelled).
func ReadCacheResolve(ctx context.Context, o ReadCacheResolveOptions) (ReadCacheResolved, error) {
	if ctx != nil && ctx.Err() != nil {
		return ReadCacheResolved{}, &Error{Code: CodeCancelled, Message: readCacheCancelled}
	}
	r, err := readcache.Resolve(readcache.ResolveOptions{Path: o.Path, Cwd: o.Cwd, Offset: o.Offset, Limit: o.Limit})
	if err != nil {
		return ReadCacheResolved{}, readCacheError(err, nil)
	}
	return readCacheResolved(&r), nil
}

// ReadCacheStore describes the object store in dir (the directory
// ReadCacheOptions.StoreDir names, or <cwd>/.pi/readcache). A refused
// directory is an *Error with CodeStore.
func ReadCacheStore(ctx context.Context, dir string) (ReadCacheStoreInfo, error) {
	if ctx != nil && ctx.Err() != nil {
		return ReadCacheStoreInfo{}, &Error{Code: CodeCancelled, Message: readCacheCancelled}
	}
	s, err := readcache.StoreStats(dir)
	if err != nil {
		return ReadCacheStoreInfo{}, readCacheError(err, nil)
	}
	return ReadCacheStoreInfo{Dir: s.Dir, Objects: s.Objects, Bytes: s.Bytes}, nil
}

// newReadCacheToken watches ctx and the timeout for one read (released by
// the caller).
func newReadCacheToken(ctx context.Context, timeoutMs *int64) *cancel.Token {
	var deadline time.Time
	if timeoutMs != nil {
		deadline = time.Now().Add(time.Duration(*timeoutMs) * time.Millisecond)
	}
	var flag func() bool
	if ctx != nil && ctx.Done() != nil {
		flag = func() bool { return ctx.Err() != nil }
	}
	return cancel.New(deadline, flag)
}

// readCacheError turns the read cache's errors into *Error: the engine's
// codes pass through, but a cancellation the timeout caused is CodeTimeout
// ("Aborted: Timeout"). err may also be the token's own error, when it had
// stopped before the read began.
func readCacheError(err error, tok *cancel.Token) error {
	var e *readcache.Error
	switch {
	case errors.As(err, &e):
		if e.Code == readcache.CodeCancelled && errors.Is(tok.Err(), cancel.ErrTimeout) {
			return &Error{Code: CodeTimeout, Message: cancel.ErrTimeout.Error()}
		}
		return &Error{Code: Code(e.Code), Message: e.Message}
	case errors.Is(err, cancel.ErrTimeout):
		return &Error{Code: CodeTimeout, Message: cancel.ErrTimeout.Error()}
	case errors.Is(err, cancel.ErrSignal):
		return &Error{Code: CodeCancelled, Message: readCacheCancelled}
	}
	return &Error{Code: CodeInternal, Message: err.Error()}
}

// readCacheCancelled is the message of a read cancelled before it began.
const readCacheCancelled = "Operation aborted" // the engine's own

func readCacheResolved(r *readcache.Resolved) ReadCacheResolved {
	return ReadCacheResolved{PathKey: r.PathKey, AbsPath: r.AbsPath, Path: r.Path, Offset: r.Offset, Limit: r.Limit}
}

func readCacheResult(r *readcache.Result) ReadCacheResult {
	out := ReadCacheResult{Mode: ReadCacheMode(r.Mode), Reason: r.Reason, ReadCacheResolved: readCacheResolved(&r.Resolved),
		Text: r.Text, StoreError: r.StoreError}
	if t := r.Truncation; t != nil {
		out.Truncation = &ReadCacheTruncation{Content: t.Content, Truncated: t.Truncated, TruncatedBy: t.TruncatedBy,
			TotalLines: t.TotalLines, TotalBytes: t.TotalBytes, OutputLines: t.OutputLines, OutputBytes: t.OutputBytes,
			LastLinePartial: t.LastLinePartial, FirstLineExceedsLimit: t.FirstLineExceedsLimit,
			MaxLines: t.MaxLines, MaxBytes: t.MaxBytes}
	}
	if m := r.Meta; m != nil {
		out.Meta = &ReadCacheMeta{V: m.V, PathKey: m.PathKey, ScopeKey: m.ScopeKey, ServedHash: m.ServedHash,
			BaseHash: m.BaseHash, Mode: ReadCacheMode(m.Mode), TotalLines: m.TotalLines,
			RangeStart: m.RangeStart, RangeEnd: m.RangeEnd, Bytes: m.Bytes}
	}
	return out
}
