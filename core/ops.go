package core

import (
	"context"

	"github.com/fscache/fscache/internal/engine"
	"github.com/fscache/fscache/internal/walk"
)

// GlobOptions are the options of Glob (GlobOptions in pi-natives).
type GlobOptions struct {
	// Pattern is a glob: "*", "?", "[...]", "{a,b}", "**". A pattern
	// without "/" matches at any depth when Recursive (the default).
	Pattern string
	// Path is the directory to search, relative to the working directory
	// or absolute.
	Path string
	// FileType, when not 0, keeps entries of that kind only. A symlink
	// passes a File or Dir filter when its target is of that kind.
	FileType FileType
	// Recursive makes a slash-less pattern match at any depth, as if it
	// began with "**/" (default true).
	Recursive *bool
	// Hidden includes dot entries (default false).
	Hidden bool
	// MaxResults caps the matches (nil: no cap; 0: no match, and no scan).
	MaxResults *int
	// Gitignore honours .gitignore, .ignore and git's excludes (default true).
	Gitignore *bool
	// Cache uses the shared scan cache (default false).
	Cache bool
	// SortByMtime sorts newest first, before the cap, and fills Mtime
	// (default false).
	SortByMtime bool
	// IncludeNodeModules searches node_modules too (default: only when the
	// pattern names node_modules).
	IncludeNodeModules *bool
	// TimeoutMs, when not nil, ends the call with CodeTimeout after that
	// many milliseconds; 0 has expired before the call starts.
	TimeoutMs *int64
	// OnMatch, when not nil, is called with matches as they are found,
	// never concurrently, before Glob returns (ours: pi-natives' onMatch
	// argument).
	OnMatch func(GlobMatch)
}

// GlobMatch is one entry that Glob found.
type GlobMatch struct {
	// Path is relative to the searched directory, '/'-separated.
	Path string
	// FileType is the entry's kind.
	FileType FileType
	// Mtime is the modification time in ms since the epoch with
	// SortByMtime, -1 otherwise.
	Mtime int64
}

// GlobResult is the result of Glob.
type GlobResult struct {
	Matches []GlobMatch
	// TotalMatches is len(Matches).
	TotalMatches int
}

func globMatch(e *walk.Entry) GlobMatch {
	return GlobMatch{Path: e.Path, FileType: FileType(e.Type), Mtime: e.Mtime}
}

// Glob finds the entries under o.Path whose relative path matches
// o.Pattern, in path order (newest first with SortByMtime). .git is never
// searched; links are reported, not followed.
func Glob(ctx context.Context, o GlobOptions) (GlobResult, error) {
	eo := engine.GlobOptions{
		Pattern: o.Pattern, Path: o.Path, FileType: walk.FileType(o.FileType), Recursive: o.Recursive,
		Hidden: o.Hidden, MaxResults: o.MaxResults, Gitignore: o.Gitignore, Cache: o.Cache,
		SortByMtime: o.SortByMtime, IncludeNodeModules: o.IncludeNodeModules,
		Cancel: cancelOf(ctx, o.TimeoutMs),
	}
	var on func(engine.GlobMatch) error
	if o.OnMatch != nil {
		on = func(e engine.GlobMatch) error { o.OnMatch(globMatch(&e)); return nil }
	}
	r, err := engine.Glob(eo, on)
	if err != nil {
		return GlobResult{}, publicError(err)
	}
	return GlobResult{Matches: convert(r.Matches, globMatch), TotalMatches: r.TotalMatches}, nil
}

// nonNil returns s, or an empty slice when s is nil: a result's slices
// are never nil.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// convert returns f of every element of in, in order (an empty slice, not
// nil, when in is empty).
func convert[S, D any](in []S, f func(*S) D) []D {
	out := make([]D, len(in))
	for i := range in {
		out[i] = f(&in[i])
	}
	return out
}

// FuzzyFindOptions are the options of FuzzyFind (FuzzyFindOptions in
// pi-natives).
type FuzzyFindOptions struct {
	// Query is matched case-insensitively against paths.
	Query string
	// Path is the directory to search.
	Path string
	// Hidden includes dot entries (default false).
	Hidden bool
	// Gitignore honours ignore files (default true).
	Gitignore *bool
	// Cache uses the shared scan cache (default false).
	Cache bool
	// MaxResults caps Matches (default 100).
	MaxResults *int
	// TimeoutMs is as in GlobOptions.
	TimeoutMs *int64
}

// FuzzyFindMatch is one scored path. A directory's path ends with '/'.
type FuzzyFindMatch = engine.FuzzyFindMatch

// FuzzyFindResult is the result of FuzzyFind: Matches, the best MaxResults
// by score then path, and TotalMatches, every entry that scored.
type FuzzyFindResult = engine.FuzzyFindResult

// FuzzyFind scores every entry under o.Path (links followed, node_modules
// skipped) against o.Query, as an @-mention autocomplete does.
func FuzzyFind(ctx context.Context, o FuzzyFindOptions) (FuzzyFindResult, error) {
	r, err := engine.FuzzyFind(engine.FuzzyFindOptions{
		Query: o.Query, Path: o.Path, Hidden: o.Hidden, Gitignore: o.Gitignore, Cache: o.Cache,
		MaxResults: o.MaxResults, Cancel: cancelOf(ctx, o.TimeoutMs),
	})
	if err != nil {
		return FuzzyFindResult{}, publicError(err)
	}
	r.Matches = nonNil(r.Matches)
	return r, nil
}

// GrepMode selects what Grep reports (GrepOutputMode in pi-natives).
type GrepMode int

// The output modes.
const (
	// ModeContent reports matching lines, with optional context.
	ModeContent GrepMode = GrepMode(engine.ModeContent)
	// ModeCount reports one entry per file with its match count.
	ModeCount GrepMode = GrepMode(engine.ModeCount)
	// ModeFilesWithMatches reports one entry per file that matched.
	ModeFilesWithMatches GrepMode = GrepMode(engine.ModeFilesWithMatches)
)

// GrepOptions are the options of Grep (GrepOptions in pi-natives 18.2).
type GrepOptions struct {
	// Pattern is a regular expression in Rust regex syntax; look-around
	// and backreferences are accepted too (pi-natives 18.2).
	Pattern string
	// Path is a directory or a single file.
	Path string
	// Glob filters relative file paths (a pattern as in GlobOptions).
	Glob string
	// Type filters by file type ("ts", "py", "rust", an extension, ...).
	Type string
	// IgnoreCase folds case (Unicode; default false).
	IgnoreCase bool
	// Multiline turns on (?m); matches never span lines (default false).
	Multiline bool
	// Hidden searches dot entries (default true).
	Hidden *bool
	// Gitignore honours ignore files (default true).
	Gitignore *bool
	// Cache takes the files to search from the shared scan cache (default
	// false).
	Cache bool
	// MaxCount caps the reported matches (files in ModeFilesWithMatches).
	MaxCount *int
	// Offset skips that many matches (files in ModeFilesWithMatches;
	// default 0).
	Offset *int
	// Context is the number of lines reported on both sides of a match
	// (default 0); ContextBefore and ContextAfter, when either is set,
	// replace it (ModeContent only).
	ContextBefore, ContextAfter, Context *int
	// MaxColumns truncates longer lines (in bytes) with "...".
	MaxColumns *int
	// Mode is the output mode (default ModeContent).
	Mode GrepMode
	// MaxCountPerFile, in ModeContent, keeps at most that many matches of
	// each file (0 reads as 1), each file counted up to one past it, so one
	// hot file cannot use the whole MaxCount (pi-natives 18.2). The other
	// modes, and a Path that is a file, ignore it (as 18.2.3 does).
	MaxCountPerFile *int
	// TimeoutMs is as in GlobOptions.
	TimeoutMs *int64
	// OnMatch, when not nil, receives every final match in order before
	// Grep returns (ours: pi-natives' onMatch argument).
	OnMatch func(GrepMatch)
}

// ContextLine is one line of context around a match: LineNumber, Line.
type ContextLine = engine.ContextLine

// GrepMatch is one matching line, or one file's entry in ModeCount and
// ModeFilesWithMatches (LineNumber 0, Line ""): Path (relative to the
// searched directory, or as given when Path is a file), LineNumber, Line,
// ContextBefore, ContextAfter, Truncated (MaxColumns shortened Line) and
// MatchCount (ModeCount only).
type GrepMatch = engine.GrepMatch

// GrepResult is the result of Grep: Matches; TotalMatches, the matches
// over all files, each file counted up to one past its cap (files with a
// match in ModeFilesWithMatches); FilesWithMatches; FilesSearched; and
// LimitReached, true when MaxCount stopped the output.
type GrepResult = engine.GrepResult

// Grep searches the files under o.Path (or the file o.Path) for lines
// matching o.Pattern, with ripgrep's file selection (ignore files, hidden
// files, binary files and files over 4 MiB skipped).
func Grep(ctx context.Context, o GrepOptions) (GrepResult, error) {
	eo := engine.GrepOptions{
		Pattern: o.Pattern, Path: o.Path, Glob: o.Glob, Type: o.Type, IgnoreCase: o.IgnoreCase,
		Multiline: o.Multiline, Hidden: o.Hidden, Gitignore: o.Gitignore, Cache: o.Cache,
		MaxCount: o.MaxCount, Offset: o.Offset, ContextBefore: o.ContextBefore,
		ContextAfter: o.ContextAfter, Context: o.Context, MaxColumns: o.MaxColumns,
		Mode: engine.GrepMode(o.Mode), MaxCountPerFile: o.MaxCountPerFile,
		Cancel: cancelOf(ctx, o.TimeoutMs),
	}
	var on func(engine.GrepMatch) error
	if o.OnMatch != nil {
		on = func(m engine.GrepMatch) error { o.OnMatch(m); return nil }
	}
	r, err := engine.Grep(eo, on)
	if err != nil {
		return GrepResult{}, publicError(err)
	}
	r.Matches = nonNil(r.Matches)
	return r, nil
}

// ListWorkspaceOptions are the options of ListWorkspace
// (ListWorkspaceOptions in pi-natives 18.2).
type ListWorkspaceOptions struct {
	// Path is the directory to list, relative to the working directory or
	// absolute.
	Path string
	// MaxDepth is the deepest level listed; the root's children are
	// depth 1, and 0 lists no entry.
	MaxDepth uint32
	// Hidden includes dot entries (default false).
	Hidden bool
	// Gitignore honours ignore files (default true).
	Gitignore *bool
	// CollectAgentsMd also lists the AGENTS.md files of the directories at
	// depth 1 to 4 (at most 200), even those an ignore rule names, never
	// in pruned directories, walking deeper than MaxDepth to find them
	// (default false).
	CollectAgentsMd bool
	// TimeoutMs is as in GlobOptions.
	TimeoutMs *int64
}

// WorkspaceEntry is one entry of ListWorkspace: Path (relative to the
// root, '/'-separated), Type (the entry's own kind: links are not
// followed), Mtime (of the entry itself, in ms since the epoch with a
// fractional part; an AGENTS.md file found by CollectAgentsMd has whole
// milliseconds, as in the reference) and Size (of a regular file, -1 for
// other kinds).
type WorkspaceEntry = engine.WorkspaceEntry

// ListWorkspaceResult is the result of ListWorkspace: Entries, those within
// MaxDepth sorted by path (byte order); AgentsMdFiles, the relative paths
// of the AGENTS.md files found with CollectAgentsMd, sorted, never nil; and
// Truncated, true when AgentsMdFiles was capped.
type ListWorkspaceResult = engine.ListWorkspaceResult

// ListWorkspace walks o.Path once, as a coding agent does at start-up: the
// tree to o.MaxDepth and, with CollectAgentsMd, the directory-scoped
// AGENTS.md files. .git and node_modules are never entered.
func ListWorkspace(ctx context.Context, o ListWorkspaceOptions) (ListWorkspaceResult, error) {
	r, err := engine.ListWorkspace(engine.ListWorkspaceOptions{
		Path: o.Path, MaxDepth: o.MaxDepth, Hidden: o.Hidden, Gitignore: o.Gitignore,
		CollectAgentsMd: o.CollectAgentsMd, Cancel: cancelOf(ctx, o.TimeoutMs),
	})
	if err != nil {
		return ListWorkspaceResult{}, publicError(err)
	}
	r.Entries = nonNil(r.Entries)
	return r, nil
}
