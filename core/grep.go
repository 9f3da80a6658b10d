package core

import ()

// GrepMode selects what Grep reports.
type GrepMode int

// The output modes (GrepOutputMode in pi-natives).
const (
	// ModeContent reports matching lines, with optional context.
	ModeContent GrepMode = iota
	// ModeCount reports one entry per file with its match count.
	ModeCount
	// ModeFilesWithMatches reports one entry per file that matched.
	ModeFilesWithMatches
)

// GrepOptions are the options of Grep (GrepOptions in pi-natives).
type GrepOptions struct {
	// Pattern is a regular expression in Rust regex syntax.
	Pattern string
	// Path is a directory or a single file.
	Path string
	// Glob filters relative file paths (compiled like Glob's pattern).
	Glob string
	// Type filters by file type ("ts", "py", "rust", an extension, ...).
	Type string
	// IgnoreCase folds case (Unicode).
	IgnoreCase bool
	// Multiline turns on (?m); matches never span lines.
	Multiline bool
	// Hidden searches dot entries (default true).
	Hidden *bool
	// Gitignore honours ignore files (default true).
	Gitignore *bool
	// Cache takes the candidate files from the shared scan cache.
	Cache bool
	// MaxCount caps the reported matches (files in filesWithMatches mode).
	MaxCount *int
	// Offset skips that many matches (files in filesWithMatches mode).
	Offset *int
	// ContextBefore and ContextAfter win over Context (content mode only).
	ContextBefore, ContextAfter, Context *int
	// MaxColumns truncates longer lines (in bytes) with "...".
	MaxColumns *int
	// Mode is the output mode.
	Mode GrepMode
	Cancel
}

// ContextLine is one line of context around a match.
type ContextLine struct {
	LineNumber int
	Line       string
}

// GrepMatch is one matching line, or one file's entry in the count and
// filesWithMatches modes (LineNumber 0, Line "").
type GrepMatch struct {
	Path          string
	LineNumber    int
	Line          string
	ContextBefore []ContextLine
	ContextAfter  []ContextLine
	Truncated     bool
	// MatchCount is set in count mode only.
	MatchCount *int
}

// GrepResult is the result of Grep.
type GrepResult struct {
	Matches []GrepMatch
	// TotalMatches counts matches over all files (each file counted up to
	// one past its cap), or files with a match in filesWithMatches mode.
	TotalMatches     int
	FilesWithMatches int
	FilesSearched    int
	// LimitReached is true when MaxCount stopped the output.
	LimitReached bool
}

// Grep is not available until the search engine lands.
func Grep(o GrepOptions, onMatch func(GrepMatch) error) (GrepResult, error) {
	return GrepResult{}, &Error{Code: CodeUnsupported, Message: "grep is not implemented yet"}
}

func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}
