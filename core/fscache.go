// Package core is cached filesystem discovery and search for coding
// agents: Glob, FuzzyFind, Grep and ListWorkspace, with the behaviour of
// the functions of the same names in @oh-my-pi/pi-natives, and a scan cache
// shared by every call in the process that is never stale.
//
// Every function takes a context and an options struct and returns a result
// struct, or an *Error whose Code classifies it and whose Message starts as
// pi-natives' does ("Path not found: ...", "Invalid glob pattern: ...").
// Optional fields are pointers (Bool and Int make them); a nil pointer takes
// pi-natives' default. Paths in results are relative to the searched
// directory and '/'-separated.
//
//	res, err := core.Glob(ctx, core.GlobOptions{Pattern: "**/*.go", Path: "."})
//	hits, err := core.Grep(ctx, core.GrepOptions{Pattern: `func \w+`, Path: "src"})
//
// # The scan cache
//
// Calls with Cache set share in-process scans of a directory. On Linux a
// cached root is watched (inotify): before a cached call answers, the
// changes reported so far are applied, so an answer reflects every change
// completed before the call began. Elsewhere, or when watching falls back
// (queue overflow, watch limit, a network or FUSE file system), a scan is
// served for FS_SCAN_CACHE_TTL_MS (default 1000) and Invalidate refreshes
// it early. A call without Cache answers as of the call: it walks, but
// from the third uncached call of the same shape within five minutes it is
// answered from a watched scan, which is as current as a walk (never from
// a scan served by TTL). The policy is read from the environment once per
// process; see the README.
//
// # Cancellation
//
// A call stops with CodeAborted when its context is done, and with
// CodeTimeout when TimeoutMs (in every options struct) runs out.
//
// The package uses no cgo. The C library and the Node-API addon are built
// from the same engines (internal/) by the capi command.
package core

import (
	"context"
	"errors"

	"github.com/fscache/fscache/internal/engine"
)

// FileType is the kind of a filesystem entry, with pi-natives' values.
type FileType uint8

// The entry kinds. Sockets, FIFOs and devices are never reported.
const (
	File    FileType = 1
	Dir     FileType = 2
	Symlink FileType = 3
)

// Code classifies an Error.
type Code string

// The error codes. The messages of the first six start like pi-natives'.
const (
	CodePathNotFound   Code = "path_not_found"  // "Path not found: <path>"
	CodeNotADirectory  Code = "not_a_directory" // "Search path must be a directory: <path>"
	CodeInvalidGlob    Code = "invalid_glob"    // "Invalid glob pattern: <detail>"
	CodeInvalidRegex   Code = "invalid_regex"   // "Regex error: <detail>"
	CodeTimeout        Code = "timeout"         // "Aborted: Timeout"
	CodeAborted        Code = "aborted"         // "Aborted: Signal"
	CodeInvalidOptions Code = "invalid_options" // names the offending option
	CodeInternal       Code = "internal"        // an unexpected failure
)

// Error is the error of every function of this package; use errors.As
// with a *Error to read its Code.
type Error struct {
	// Code classifies the error.
	Code Code
	// Message is the whole message, err.Error().
	Message string
}

func (e *Error) Error() string { return e.Message }

// Bool returns a pointer to v, for the optional fields of the options.
func Bool(v bool) *bool { return &v }

// Int returns a pointer to v, for the optional fields of the options.
func Int(v int) *int { return &v }

// cancelOf is the engine's view of ctx and a TimeoutMs option.
func cancelOf(ctx context.Context, timeoutMs *int64) engine.Cancel {
	c := engine.Cancel{TimeoutMs: timeoutMs}
	if ctx != nil && ctx.Done() != nil {
		c.Aborted = func() bool { return ctx.Err() != nil }
	}
	return c
}

// publicError turns the engine's errors into *Error.
func publicError(err error) error {
	if err == nil {
		return nil
	}
	var e *engine.Error
	if errors.As(err, &e) {
		return &Error{Code: Code(e.Code), Message: e.Message}
	}
	return &Error{Code: CodeInternal, Message: err.Error()}
}

// Invalidate refreshes the cached scans that hold path: the directory that
// holds it, or the subtree when path is a directory. Call it after writing,
// deleting or renaming a file (with both paths for a rename) on a root that
// is not watched. A relative path is resolved against the working
// directory; a path that no longer exists still invalidates.
func Invalidate(path string) { engine.Invalidate(path) }

// InvalidateAll drops every cached scan.
func InvalidateAll() { engine.InvalidateAll() }
