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
	// FileType is the entry's kind; a symlink that passed a File or Dir
	// filter has its target's kind.
	FileType FileType
	// Mtime is the modification time (of the entry itself) in ms since the
	// epoch, with its fraction (as pi-natives 18.2 reports it), with
	// SortByMtime; -1 without it, or when the time is before the epoch
	// (pi-natives reports none then).
	Mtime float64
	// Size is the size in bytes of a regular file with SortByMtime, -1
	// otherwise.
	Size int64
}

// GlobResult is the result of Glob.
type GlobResult struct {
	// Matches are the entries found, in path order (newest first with
	// SortByMtime), at most MaxResults of them.
	Matches []GlobMatch
	// TotalMatches is len(Matches).
	TotalMatches int
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
	return globResult(&r), nil
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

// FuzzyFindMatch is one scored path.
type FuzzyFindMatch struct {
	// Path is relative to the searched directory, '/'-separated; a
	// directory's path ends with '/'.
	Path string
	// IsDirectory reports that the entry is a directory (or a link to one).
	IsDirectory bool
	// Score is how well Path matched the query; higher is better.
	Score int
}

// FuzzyFindResult is the result of FuzzyFind.
type FuzzyFindResult struct {
	// Matches holds the best MaxResults matches, by score then path.
	Matches []FuzzyFindMatch
	// TotalMatches counts every entry that scored.
	TotalMatches int
}

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
	return fuzzyFindResult(&r), nil
}

// GrepMode selects what Grep reports (GrepOutputMode in pi-natives).
type GrepMode int

// The output modes.
const (
	// ModeContent reports matching lines, with optional context.
	ModeContent GrepMode = 0
	// ModeCount reports one entry per file with its match count.
	ModeCount GrepMode = 1
	// ModeFilesWithMatches reports one entry per file that matched.
	ModeFilesWithMatches GrepMode = 2
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
	// ContextBefore is the number of lines reported before a match
	// (ModeContent only). When it or ContextAfter is set, the two replace
	// Context, an unset one reading as 0.
	ContextBefore *int
	// ContextAfter is the number of lines reported after a match, as
	// ContextBefore.
	ContextAfter *int
	// Context is the number of lines reported on both sides of a match
	// (default 0) when neither ContextBefore nor ContextAfter is set
	// (ModeContent only).
	Context *int
	// MaxColumns truncates longer lines (in bytes) with "...".
	MaxColumns *int
	// Mode is the output mode (default ModeContent).
	Mode GrepMode
	// MaxCountPerFile, in ModeContent, keeps at most that many matches of
	// each file (0 reads as 1), each file counted up to one past it, so one
	// hot file cannot use the whole MaxCount (pi-natives 18.2). The other
	// modes, and a Path that is a file, ignore it (as 18.2.3 does).
	MaxCountPerFile *int
	// RawLines (ours), in ModeContent, reports every line (match and
	// context) as it is in the file, for a caller that formats lines
	// itself from the bytes searched rather than reading the file again:
	// not trimmed, with its terminating "\n" when it has one, never cut
	// (MaxColumns is ignored), invalid UTF-8 still replaced by U+FFFD
	// (GrepMatch.Lossy). Each match then has its own context lines,
	// whatever the other matches: a line in the context of two matches is
	// reported with both, and the after-context runs to the end of the
	// file past a match that MaxCountPerFile or MaxCount stopped at
	// (default false).
	RawLines bool
	// TimeoutMs is as in GlobOptions.
	TimeoutMs *int64
	// OnMatch, when not nil, receives every final match in order before
	// Grep returns (ours: pi-natives' onMatch argument).
	OnMatch func(GrepMatch)
}

// ContextLine is one line of context around a match.
type ContextLine struct {
	// LineNumber is the line's number in its file, from 1.
	LineNumber int
	// Line is the line's text, as the match's Line is reported (trailing
	// white space trimmed, invalid UTF-8 replaced, shortened by MaxColumns).
	Line string
}

// GrepMatch is one matching line, or one file's entry in ModeCount and
// ModeFilesWithMatches (LineNumber 0, Line "").
type GrepMatch struct {
	// Path is relative to the searched directory, '/'-separated (the path
	// as given when GrepOptions.Path is a file).
	Path string
	// LineNumber is the matching line's number, from 1 (0 in ModeCount and
	// ModeFilesWithMatches).
	LineNumber int
	// Line is the matching line, trailing white space trimmed and invalid
	// UTF-8 replaced by U+FFFD ("" in ModeCount and ModeFilesWithMatches).
	Line string
	// ContextBefore holds the lines before the match that the context
	// options asked for, in order (nil when none).
	ContextBefore []ContextLine
	// ContextAfter holds the lines after the match, in order (nil when
	// none).
	ContextAfter []ContextLine
	// Truncated reports that MaxColumns shortened Line.
	Truncated bool
	// Lossy (RawLines only) reports that Line held invalid UTF-8.
	Lossy bool
	// CRBefore (RawLines only) reports that the file holds a '\r' not
	// followed by '\n' before the first line reported with the match
	// (its first context line, else the match's line): an editor that
	// also breaks lines at a lone '\r' numbers the lines differently.
	CRBefore bool
	// MatchCount is the file's number of matches, in ModeCount only (nil
	// otherwise).
	MatchCount *int
}

// GrepResult is the result of Grep.
type GrepResult struct {
	// Matches are the reported matches (files in ModeCount and
	// ModeFilesWithMatches), by path then line, after Offset and MaxCount.
	Matches []GrepMatch
	// TotalMatches counts matches over all files, each file counted up to
	// one past its cap (files with a match in ModeFilesWithMatches).
	TotalMatches int
	// FilesWithMatches counts the files with at least one match.
	FilesWithMatches int
	// FilesSearched counts the files searched.
	FilesSearched int
	// LimitReached is true when MaxCount (or MaxCountPerFile) stopped the
	// output.
	LimitReached bool
}

// Grep searches the files under o.Path (or the file o.Path) for lines
// matching o.Pattern, with ripgrep's file selection (ignore files, hidden
// files, binary files and files over 4 MiB skipped).
func Grep(ctx context.Context, o GrepOptions) (GrepResult, error) {
	var on func(engine.GrepMatch) error
	if o.OnMatch != nil {
		on = func(m engine.GrepMatch) error { o.OnMatch(grepMatchAlone(&m)); return nil }
	}
	r, err := engine.Grep(grepOptions(ctx, o), on)
	if err != nil {
		return GrepResult{}, publicError(err)
	}
	return grepResult(&r), nil
}

// grepOptions are the engine's options for Grep(ctx, o).
func grepOptions(ctx context.Context, o GrepOptions) engine.GrepOptions {
	return engine.GrepOptions{
		Pattern: o.Pattern, Path: o.Path, Glob: o.Glob, Type: o.Type, IgnoreCase: o.IgnoreCase,
		Multiline: o.Multiline, Hidden: o.Hidden, Gitignore: o.Gitignore, Cache: o.Cache,
		MaxCount: o.MaxCount, Offset: o.Offset, ContextBefore: o.ContextBefore,
		ContextAfter: o.ContextAfter, Context: o.Context, MaxColumns: o.MaxColumns,
		Mode: engine.GrepMode(o.Mode), MaxCountPerFile: o.MaxCountPerFile, RawLines: o.RawLines,
		// Grouped: the matches stay by file and are converted once, into
		// GrepResult.Matches, not copied into one engine slice first.
		Grouped: true, Cancel: cancelOf(ctx, o.TimeoutMs),
	}
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

// WorkspaceEntry is one entry of ListWorkspace.
type WorkspaceEntry struct {
	// Path is relative to the root, '/'-separated.
	Path string
	// Type is the entry's own kind (links are not followed).
	Type FileType
	// Mtime is the modification time (of the entry itself) in ms since the
	// epoch, with a fractional part; an AGENTS.md file found by
	// CollectAgentsMd has whole milliseconds, as in pi-natives. -1 when the
	// time is before the epoch (pi-natives reports none then).
	Mtime float64
	// Size is the size in bytes of a regular file, -1 for other kinds.
	Size int64
}

// ListWorkspaceResult is the result of ListWorkspace.
type ListWorkspaceResult struct {
	// Entries are those within MaxDepth, sorted by path (byte order).
	Entries []WorkspaceEntry
	// AgentsMdFiles are the relative paths of the AGENTS.md files found
	// with CollectAgentsMd, sorted; never nil.
	AgentsMdFiles []string
	// Truncated reports that AgentsMdFiles was capped (at 200).
	Truncated bool
}

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
	return listWorkspaceResult(&r), nil
}
