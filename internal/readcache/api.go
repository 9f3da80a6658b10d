// Package readcache is the read cache's engine (seed 001, §5-6, §8-10,
// §14-16): it resolves a read's path and range as pi's read tool does,
// reads the file once, decides whether it is text the cache may serve,
// hashes it (sha256), picks the mode (full, unchanged, unchanged_range,
// diff, full_fallback) against the base hashes the caller trusts, writes
// the exact tool text (pi's read output, a marker, or a unified diff) and
// keeps the content in a content-addressed object store for later diffs.
//
// It holds no session state: which hashes are trusted is the caller's
// (the pi package replays them from the session branch, §7). Anything it
// cannot serve provably is answered with ModeBaseline, telling the caller
// to run its own read tool.
package readcache

// Mode is how a read was answered.
type Mode string

// The modes of §8, and ModeBaseline: the caller's own read tool answers
// (not text, an image, excluded, not found, a directory).
const (
	ModeFull           Mode = "full"
	ModeUnchanged      Mode = "unchanged"
	ModeUnchangedRange Mode = "unchanged_range"
	ModeDiff           Mode = "diff"
	ModeFullFallback   Mode = "full_fallback"
	ModeBaseline       Mode = "baseline"
)

// ResolveOptions name a read as the model gave it.
type ResolveOptions struct {
	// Path is the tool's path argument, unmodified: a leading "@", "~",
	// unicode spaces and a "path:start-end" suffix are handled here (§5).
	Path string
	// Cwd is the session's working directory; a relative Path resolves
	// against it. Empty: the process's working directory.
	Cwd string
	// Offset and Limit are the tool's own arguments (1-based first line,
	// line count); when either is set the path suffix is not parsed.
	Offset, Limit *int
}

// Resolved is a read's path and range after §5.
type Resolved struct {
	// PathKey identifies the file across spellings: the real path of
	// AbsPath when it resolves, else AbsPath.
	PathKey string
	// AbsPath is the path pi's read would open (resolveReadPath).
	AbsPath string
	// Path is the path argument without a parsed ":start-end" suffix.
	Path string
	// Offset and Limit are the arguments after the suffix was parsed.
	Offset, Limit *int
}

// Options are a read's options.
type Options struct {
	ResolveOptions
	// PathKey is the key Bases belong to. When it is not the resolved
	// PathKey, Bases are ignored (the read is served in full).
	PathKey string
	// Bases maps a scope key ("full" or "r:<start>:<end>") to the content
	// hash (sha256, 64 lowercase hex digits) the caller trusts the model
	// has seen for that scope of PathKey (§8 step 5).
	Bases map[string]string
	// StoreDir is the object store's directory; empty: Cwd/.pi/readcache.
	StoreDir string
	// NoStore serves without reading or writing the store (no diffs).
	NoStore bool
	// ObjectHash, when set (sha256, 64 lowercase hex digits), answers from
	// the store's object of that hash instead of the file: the path and
	// range resolve as usual, but the text is pi's read output for that
	// content (ModeFull, Meta.ServedHash ObjectHash), whatever the file
	// holds now or whether it exists. It re-renders the text a marker or
	// diff served against that hash stood for. Bases are ignored, nothing
	// is stored and the store is not pruned; Exclude still applies to the
	// path. A "path:start-end" suffix is parsed also when the file is gone
	// (a path as written that exists is still taken whole). A missing or
	// damaged object is CodeObjectMissing; it cannot be combined with
	// NoStore.
	ObjectHash string
	// Exclude lists glob patterns (matched against the base name, and the
	// whole path when they contain "/"; a pattern ending in "/", such as
	// ".ssh/", against the name of every directory the file is under) of
	// files never cached, on the path as written and on the real path;
	// nil: the defaults of §15 (DefaultExclude).
	Exclude []string
	// MaxFileBytes: larger files are streamed (readHuge): ModeFull with
	// Reason "streamed" and no Meta, nothing stored, pi's text read in one
	// pass holding only what is shown; 0 means DefaultMaxFileBytes.
	MaxFileBytes int64
	// StoreMaxBytes and StoreMaxAgeSeconds bound the object store (oldest
	// objects pruned first); 0 means the defaults.
	StoreMaxBytes      int64
	StoreMaxAgeSeconds int64
	// LineCount is how the line totals of details.truncation, the markers
	// and the diff header are counted, and so which pi's truncation is
	// mimicked: LineCountSplit (pi 0.73; "" is it) or LineCountLines (pi
	// 1.x). The continuation notices, the offset error and Meta count
	// lines split either way, as both pi lines do.
	LineCount string
	// Cancel, when not nil, is polled; a cancelled read returns an error
	// and writes nothing.
	Cancel func() bool
}

// Truncation is pi's TruncationResult (details.truncation of its read
// tool), field for field.
type Truncation struct {
	Content               string  `json:"content"`
	Truncated             bool    `json:"truncated"`
	TruncatedBy           *string `json:"truncatedBy"` // "lines", "bytes" or null
	TotalLines            int     `json:"totalLines"`
	TotalBytes            int     `json:"totalBytes"`
	OutputLines           int     `json:"outputLines"`
	OutputBytes           int     `json:"outputBytes"`
	LastLinePartial       bool    `json:"lastLinePartial"`
	FirstLineExceedsLimit bool    `json:"firstLineExceedsLimit"`
	MaxLines              int     `json:"maxLines"`
	MaxBytes              int     `json:"maxBytes"`
}

// Meta is the details.readcache record of §4 (ReadCacheMetaV1).
type Meta struct {
	V          int    `json:"v"`
	PathKey    string `json:"pathKey"`
	ScopeKey   string `json:"scopeKey"`
	ServedHash string `json:"servedHash"`
	BaseHash   string `json:"baseHash,omitempty"`
	Mode       Mode   `json:"mode"`
	TotalLines int    `json:"totalLines"`
	RangeStart int    `json:"rangeStart"`
	RangeEnd   int    `json:"rangeEnd"`
	Bytes      int    `json:"bytes"`
}

// Result is a read's answer.
type Result struct {
	Mode Mode
	// Reason says why Mode is ModeBaseline or ModeFullFallback (e.g.
	// "binary", "image", "invalid_utf8", "excluded",
	// "not_found", "not_regular", "base_missing", "diff_not_useful",
	// "diff_too_costly"), and "streamed" for a ModeFull read of a file
	// over MaxFileBytes.
	Reason string
	Resolved
	// Text is the tool's text content (empty for ModeBaseline).
	Text string
	// Truncation is set where pi's read sets details.truncation.
	Truncation *Truncation
	// Meta is set for every mode but ModeBaseline, and but a streamed
	// read of a file over MaxFileBytes (Reason "streamed": not trusted
	// later, nothing stored).
	Meta *Meta
	// StoreError, when not empty, says why the store could not be used
	// (the read was served without it).
	StoreError string
}

// StoreInfo describes an object store (for /readcache-status).
type StoreInfo struct {
	Dir     string
	Objects int
	Bytes   int64
}

// Error is a read the engine refuses, with a code and a message that names
// the problem (pi's own message where pi's read has one).
type Error struct {
	Code    string // see the Code* constants
	Message string
}

func (e *Error) Error() string { return e.Message }

// Error codes.
const (
	CodeInvalidRange   = "invalid_range"     // a "path:start-end" suffix that is not a valid range
	CodeOffsetBeyond   = "offset_beyond_eof" // pi's "Offset N is beyond end of file (M lines total)"
	CodeNotRegular     = "not_regular"       // a FIFO, socket or device: never opened
	CodeCancelled      = "cancelled"         // Options.Cancel fired
	CodeInvalidOptions = "invalid_options"   // e.g. a relative Cwd
	CodeStore          = "store"             // StoreStats, ObjectHash: the store directory is refused
	CodeObjectMissing  = "object_missing"    // ObjectHash: no intact object of that hash in the store
)

// Functions (readcache.go, store.go):
//
//	func Resolve(o ResolveOptions) (Resolved, error)
//	func Read(o Options) (Result, error)
//	func StoreStats(dir string) (StoreInfo, error)
