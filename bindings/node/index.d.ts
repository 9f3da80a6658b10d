/*
 * Types of fscache for Node and Bun. The declarations of glob, fuzzyFind,
 * grep, invalidateFsScanCache, FileType, GrepOutputMode and their option and
 * result interfaces have the same names, fields and types as those of
 * @oh-my-pi/pi-natives 14.9.9, and listWorkspace, its interfaces and
 * GrepOptions.maxCountPerFile those of 18.2.10, so code written against
 * either package type-checks unchanged against this one. version,
 * cacheStats and CacheStats are fscache's own, and so are the read cache's
 * readCache, readCacheResolve, readCacheStore and their ReadCache*
 * interfaces.
 *
 * The option interfaces are checked field by field against
 * schema/options.json (test/schema.test.mjs). index.d.cts, the same
 * declarations for `require` callers, is a copy of this file written when
 * the package is staged (build/stage-npm.mjs) and by `make typecheck`;
 * it is not in git.
 */

/** One line around a grep match. */
export interface ContextLine {
  /** Line number in the file, counting from 1. */
  lineNumber: number
  /** The line's text, without its line ending and trailing whitespace. */
  line: string
}

/** Kind of a filesystem entry. */
export declare enum FileType {
  /** A regular file. */
  File = 1,
  /** A directory. */
  Dir = 2,
  /** A symbolic link (reported as such when it is not resolved). */
  Symlink = 3
}

/**
 * Fuzzy path search for autocomplete: scores every file and directory under
 * `options.path` against `options.query`, best first.
 */
export declare function fuzzyFind(options: FuzzyFindOptions): Promise<FuzzyFindResult>

/** One fuzzyFind hit. */
export interface FuzzyFindMatch {
  /** Path relative to the search root, `/`-separated; directories end in `/`. */
  path: string
  /** True for directories. */
  isDirectory: boolean
  /** How well the path matches; higher is better. */
  score: number
}

/** Options of fuzzyFind. */
export interface FuzzyFindOptions {
  /** What to look for; matched case-insensitively against paths. */
  query: string
  /** Root directory of the search. */
  path: string
  /** Include entries whose name starts with a dot (default false). */
  hidden?: boolean
  /** Honour .gitignore/.ignore rules (default true). */
  gitignore?: boolean
  /** Use the shared filesystem scan cache (default false). */
  cache?: boolean
  /** Cap on the number of matches returned (default 100). */
  maxResults?: number
  /** An AbortSignal that cancels the search; it then rejects with "Aborted: Signal". */
  signal?: unknown
  /** Deadline in milliseconds; past it the search rejects with "Aborted: Timeout". */
  timeoutMs?: number
}

/** Result of fuzzyFind. */
export interface FuzzyFindResult {
  /** The best matches, at most `maxResults` of them. */
  matches: Array<FuzzyFindMatch>
  /** How many entries matched in all; can be more than `matches.length`. */
  totalMatches: number
}

/**
 * Lists the filesystem entries under `options.path` whose relative path
 * matches `options.pattern`. `onMatch`, when given, is called with
 * `(null, match)` for each accepted match as the walk finds it (with
 * `sortByMtime` and `maxResults`: each match admitted to the newest-first
 * top N), before the promise settles; see docs/compat.md for the order.
 */
export declare function glob(options: GlobOptions, onMatch?: ((error: Error | null, match: GlobMatch) => void) | undefined | null): Promise<GlobResult>

/** One glob hit. */
export interface GlobMatch {
  /** Path relative to the search root, with `/` separators. */
  path: string
  /** Kind of the entry (a symlink that passed a File/Dir filter reports its target's kind). */
  fileType: FileType
  /**
   * Last modification time in milliseconds since the Unix epoch, with the
   * sub-millisecond fraction (as pi-natives 18.2 reports it), of the entry
   * itself (a symlink's own time); present when sorting by mtime, absent
   * for a time before the epoch.
   */
  mtime?: number
  /** Size in bytes, for regular files; present when sorting by mtime. */
  size?: number
}

/** Options of glob. */
export interface GlobOptions {
  /** Glob pattern, e.g. "*.ts" or "src/**\/*.go". */
  pattern: string
  /** Root directory of the search. */
  path: string
  /**
   * Keep only entries of this kind. For File and Dir, a symlink counts when
   * its target is of that kind.
   */
  fileType?: FileType
  /** Make a pattern without `/` match at any depth (`*.ts` acts as `**\/*.ts`); default true. */
  recursive?: boolean
  /** Include entries whose name starts with a dot (default false). */
  hidden?: boolean
  /** Cap on the number of matches returned. */
  maxResults?: number
  /** Honour .gitignore/.ignore rules (default true). */
  gitignore?: boolean
  /** Use the shared filesystem scan cache (default false). */
  cache?: boolean
  /** Order by modification time, newest first, before `maxResults` applies (default false). */
  sortByMtime?: boolean
  /** Search inside `node_modules` even when the pattern does not name it. */
  includeNodeModules?: boolean
  /** An AbortSignal that cancels the search; it then rejects with "Aborted: Signal". */
  signal?: unknown
  /** Deadline in milliseconds; past it the search rejects with "Aborted: Timeout". */
  timeoutMs?: number
}

/** Result of glob. */
export interface GlobResult {
  /** The matching entries. */
  matches: Array<GlobMatch>
  /** The number of entries in `matches`. */
  totalMatches: number
}

/**
 * Regex search of file contents under `options.path` (a directory or one
 * file). `onMatch`, when given, is called with `(null, match)` for each
 * reported match, in order, before the promise settles.
 */
export declare function grep(options: GrepOptions, onMatch?: ((error: Error | null, match: GrepMatch) => void) | undefined | null): Promise<GrepResult>

/** One grep hit (a matching line, or a per-file entry in count/filesWithMatches mode). */
export interface GrepMatch {
  /** The file: relative to the root for directory searches. */
  path: string
  /** Line number counting from 1; 0 for per-file entries. */
  lineNumber: number
  /** The matching line; empty for per-file entries. */
  line: string
  /** Lines just before the match (content mode with context). */
  contextBefore?: Array<ContextLine>
  /** Lines just after the match (content mode with context). */
  contextAfter?: Array<ContextLine>
  /** True when `line` was cut to `maxColumns`. */
  truncated?: boolean
  /** With `rawLines` (ours): `line` held invalid UTF-8, replaced by U+FFFD. */
  lossy?: boolean
  /**
   * With `rawLines` (ours): the file holds a "\r" not followed by "\n"
   * before the first line reported with this match.
   */
  crBefore?: boolean
  /** Number of matching lines in the file (count mode). */
  matchCount?: number
}

/** Options of grep. */
export interface GrepOptions {
  /** Regular expression (Rust regex syntax). */
  pattern: string
  /** Directory or single file to search. */
  path: string
  /** Only search files whose relative path matches this glob, e.g. "*.ts". */
  glob?: string
  /** Only search files of this type, e.g. "js", "py", "rust". */
  type?: string
  /** Match without regard to case (default false). */
  ignoreCase?: boolean
  /** Let `^` and `$` match at line boundaries (default false). */
  multiline?: boolean
  /** Include entries whose name starts with a dot (default true). */
  hidden?: boolean
  /** Honour .gitignore/.ignore rules (default true). */
  gitignore?: boolean
  /** Use the shared filesystem scan cache (default false). */
  cache?: boolean
  /** Cap on the number of matches reported. */
  maxCount?: number
  /** Skip this many matches before reporting (default 0). */
  offset?: number
  /** Lines of context to report before each match. */
  contextBefore?: number
  /** Lines of context to report after each match. */
  contextAfter?: number
  /** Lines of context on both sides, used when the two above are absent (default 0). */
  context?: number
  /** Cut reported lines longer than this. */
  maxColumns?: number
  /** What to report: lines, per-file counts, or matching files (default `GrepOutputMode.Content`). */
  mode?: GrepOutputMode
  /**
   * Maximum matches collected per file (content mode). Keeps one hot file
   * from exhausting the global `max_count` budget before other files are
   * reached.
   */
  maxCountPerFile?: number
  /**
   * Ours: report lines (match and context) as they are in the file: not
   * trimmed, with their "\n" when they have one, never cut (`maxColumns`
   * is ignored), invalid UTF-8 replaced by U+FFFD (`lossy`); each match
   * has its own context lines, whatever the other matches (default false).
   */
  rawLines?: boolean
  /** An AbortSignal that cancels the search; it then rejects with "Aborted: Signal". */
  signal?: unknown
  /** Deadline in milliseconds; past it the search rejects with "Aborted: Timeout". */
  timeoutMs?: number
}

/** What grep reports. */
export declare enum GrepOutputMode {
  /** Each matching line, with optional context. */
  Content = 'content',
  /** One entry per file with its number of matching lines. */
  Count = 'count',
  /** One entry per file that has a match. */
  FilesWithMatches = 'filesWithMatches'
}

/** Result of grep. */
export interface GrepResult {
  /** Matches or per-file entries, depending on the mode. */
  matches: Array<GrepMatch>
  /** Matching lines in all files, or matching files in filesWithMatches mode. */
  totalMatches: number
  /** Number of files with at least one match. */
  filesWithMatches: number
  /** Number of files read. */
  filesSearched: number
  /** True when `maxCount`/`offset` cut the output short. */
  limitReached?: boolean
  /** Number of files skipped because they exceed the size limit. */
  skippedOversized?: number
}

/**
 * Brings cached scans up to date with `path`: in those whose root contains
 * it (relative paths are resolved against the working directory; the path
 * need not exist), the directory holding it is listed again, or the whole
 * subtree when it is a directory; all scans are dropped when `path` is
 * omitted. Synchronous. (fscache refreshes where pi-natives drops; watched
 * scans are current without this call: see docs/compat.md.)
 */
export declare function invalidateFsScanCache(path?: string | undefined | null): void

/**
 * Walk the workspace once and return tree entries plus AGENTS.md candidates.
 *
 * File-level ignore rules for AGENTS.md are bypassed by checking each
 * traversed directory directly when `collectAgentsMd` is enabled, but ignored
 * directories are still pruned by the walker and are not searched.
 */
export declare function listWorkspace(options: ListWorkspaceOptions): Promise<ListWorkspaceResult>

/** Input options for `listWorkspace`, the single-pass workspace startup scan. */
export interface ListWorkspaceOptions {
  /** Directory to scan. */
  path: string
  /** Maximum depth for returned tree entries. Root children are depth 1. */
  maxDepth: number
  /** Include hidden files and directories. Default: false. */
  hidden?: boolean
  /** Respect .gitignore files. Default: true. */
  gitignore?: boolean
  /**
   * Also surface AGENTS.md files in directories at depth 1..=4, even when
   * gitignore would otherwise hide the file. Walks deeper than `maxDepth`
   * to find them. Default: false.
   */
  collectAgentsMd?: boolean
  /** Timeout in milliseconds for the operation. */
  timeoutMs?: number
  /** Abort signal for cancelling the operation. */
  signal?: unknown
}

/** Result payload returned by a workspace scan. */
export interface ListWorkspaceResult {
  /** Entries within `maxDepth`, with mtime and regular-file size metadata. */
  entries: Array<GlobMatch>
  /**
   * Directory-scoped AGENTS.md files within depth 1..=4 (capped at 200).
   * Always empty when `collectAgentsMd` is false.
   */
  agentsMdFiles: Array<string>
  /** True when any output cap was hit. */
  truncated: boolean
}

/**
 * The read cache (fscache only; not in pi-natives): answers a coding agent's
 * `read` tool call as pi's read tool (`@mariozechner/pi-coding-agent`) would,
 * or, when the caller trusts that the model has seen that scope of the file
 * (`bases`, from the `meta` of earlier results), with a marker
 * (`[readcache: unchanged, <n> lines]`) or a unified diff. The content is
 * kept in an object store (`storeDir`) to diff against later. No session
 * state is kept here: which reads are trusted is the caller's to say.
 *
 * Rejects with an Error whose `code` is `"invalid_range"` (a bad
 * `path:start-end` suffix), `"offset_beyond_eof"` (pi's "Offset N is beyond
 * end of file"), `"not_regular"` (a FIFO, socket or device),
 * `"invalid_options"`, `"timeout"` or `"internal"`, and with `objectHash`
 * `"object_missing"` (no intact object of that hash in the store) or
 * `"store"` (the store's directory refused); with an AbortError when
 * `signal` fired. Mode `"baseline"` (an image, a binary, invalid UTF-8,
 * excluded, not found, a directory: `reason` says which) asks the caller to
 * run its own read tool. A file over `maxFileBytes` is streamed: mode
 * `"full"`, reason `"streamed"`, no `meta`.
 */
export declare function readCache(options: ReadCacheOptions): Promise<ReadCacheResult>

/** Options of readCache. (fscache only.) */
export interface ReadCacheOptions {
  /** The read tool's path argument, unmodified: a leading `@`, `~`, unicode spaces and a `path:start-end` suffix are handled as pi does. */
  path: string
  /** The session's working directory (absolute); a relative path resolves against it. Default: the process's. */
  cwd?: string
  /** The tool's 1-based first line. Any integer is passed on and validated (fractions truncated). */
  offset?: number
  /** The tool's line count. Any integer is passed on and validated (fractions truncated). */
  limit?: number
  /** The file `bases` belong to (`pathKey` of an earlier result); when it is not this file's, `bases` are ignored. */
  pathKey?: string
  /** Scope key (`"full"` or `"r:<start>:<end>"`) -> sha256 (64 lowercase hex digits) of the content the model has seen for it (`meta.servedHash`). */
  bases?: Record<string, string>
  /** The object store's directory. Default: `<cwd>/.pi/readcache`. */
  storeDir?: string
  /** Serve without reading or writing the store, hence without diffs. Default: false. */
  noStore?: boolean
  /**
   * (fscache's own option.) Answer from the object store's content of this sha256 (64 lowercase hex digits; a
   * `meta.servedHash`) instead of the file: pi's read text for this read's path, offset and limit as it was when the
   * file held that content (mode `"full"`, `meta.servedHash` this hash; `bases` ignored, nothing stored), whatever the
   * file holds now or whether it still exists. For re-sending the text a marker or diff stood for. A missing or
   * damaged object rejects with code `"object_missing"`; not with `noStore: true` (`"invalid_options"`).
   */
  objectHash?: string
  /** Glob patterns of files never cached, matched on the path as written and on the real path: the base name; the whole path when a pattern has `/`; a pattern ending in `/` (`.ssh/`) the name of every directory the file is under. Absent: `.env*`, `*.pem`, `*.key`, `*.p12`, `*.pfx`, `*.crt`, `*.cer`, `*.der`, `*.pk8`, `id_rsa`, `id_ed25519`, `id_ecdsa`, `id_dsa`, `.npmrc`, `.netrc`, `.ssh/`; `[]`: none. */
  exclude?: Array<string>
  /** Larger files are streamed: mode `"full"`, reason `"streamed"`, no `meta` (pi's text read in one pass, holding only the lines shown; nothing stored). 0 or absent: the library's default (64 MiB). */
  maxFileBytes?: number
  /** The store's size bound (oldest objects pruned first). 0 or absent: the library's default. */
  storeMaxBytes?: number
  /** Objects older than this are pruned. 0 or absent: the library's default. */
  storeMaxAgeSeconds?: number
  /**
   * How line totals are counted (fscache's own option). `"split"`: pi 0.73's (`@mariozechner/pi-coding-agent`), the
   * text split on `\n`, so a trailing newline makes a last empty line. `"lines"`: pi 1.x's
   * (`@earendil-works/pi-coding-agent`): `truncation.totalLines` and `outputLines` do not count a trailing empty line
   * (nor does truncation: 2000 lines ending in a newline are not truncated), and neither do the markers' and the
   * diff header's totals (`[readcache: unchanged, 120 lines]` for 120 lines ending in a newline). The continuation
   * notices, the offset error and `meta.totalLines` count lines split either way, as both pi lines do. Default: `split`.
   */
  lineCount?: "split" | "lines"
  /** Abort signal: the call rejects with an AbortError and writes nothing. */
  signal?: unknown
  /** Timeout in milliseconds ("Aborted: Timeout", code `"timeout"`). */
  timeoutMs?: number
}

/** How readCache answered. */
export type ReadCacheMode = "full" | "unchanged" | "unchanged_range" | "diff" | "full_fallback" | "baseline"

/** pi's TruncationResult (`details.truncation` of its read tool), field for field. (fscache only.) */
export interface ReadCacheTruncation {
  content: string
  truncated: boolean
  truncatedBy: "lines" | "bytes" | null
  totalLines: number
  totalBytes: number
  outputLines: number
  outputBytes: number
  lastLinePartial: boolean
  firstLineExceedsLimit: boolean
  maxLines: number
  maxBytes: number
}

/** The `details.readcache` record of a read (ReadCacheMetaV1): what a caller keeps to trust the read later. (fscache only.) */
export interface ReadCacheMeta {
  v: 1
  pathKey: string
  /** `"full"` or `"r:<start>:<end>"`. */
  scopeKey: string
  /** sha256 of the content served against. */
  servedHash: string
  /** The hash compared against, when there was one. */
  baseHash?: string
  mode: Exclude<ReadCacheMode, "baseline">
  totalLines: number
  rangeStart: number
  rangeEnd: number
  /** Bytes of the text served. */
  bytes: number
}

/** A read's path and range after pi's normalisation, from {@link readCacheResolve}. (fscache only.) */
export interface ReadCacheResolved {
  /** The file's key across spellings: its real path when it exists, else `absPath`. */
  pathKey: string
  /** The path pi's read would open. */
  absPath: string
  /** The path argument without a parsed `:start-end` suffix. */
  path: string
  /** The arguments after the suffix was parsed (absent when none). */
  offset?: number
  limit?: number
}

/** The answer of {@link readCache}. (fscache only.) */
export interface ReadCacheResult extends ReadCacheResolved {
  mode: ReadCacheMode
  /** Why the mode is `"baseline"` or `"full_fallback"`: "binary", "image", "invalid_utf8", "excluded", "not_found", "base_missing", "diff_not_useful", "diff_too_costly" (the diff passed its work budget), ...; "streamed" for a mode `"full"` read of a file over `maxFileBytes`. */
  reason?: string
  /** The tool's text content (`""` for `"baseline"`). */
  text: string
  /** Set where pi's read sets `details.truncation`. */
  truncation?: ReadCacheTruncation
  /** Set for every mode but `"baseline"`, and but a `"streamed"` read of a file over `maxFileBytes` (nothing to trust later). */
  meta?: ReadCacheMeta
  /** Why the object store was not used (the read was served without it). */
  storeError?: string
}

/**
 * Resolves a read's path and range as {@link readCache} does, without
 * reading the file (a refresh command names the same scope with it).
 * Rejects with code `"invalid_range"` or `"invalid_options"`. (fscache only.)
 */
export declare function readCacheResolve(options: ReadCacheResolveOptions): Promise<ReadCacheResolved>

/** Options of readCacheResolve. (fscache only.) */
export interface ReadCacheResolveOptions {
  /** The read tool's path argument, unmodified (see {@link ReadCacheOptions.path}). */
  path: string
  /** The session's working directory (absolute). Default: the process's. */
  cwd?: string
  /** The tool's 1-based first line (any integer). */
  offset?: number
  /** The tool's line count (any integer). */
  limit?: number
}

/**
 * The read cache's object store in `options.dir`: its objects and their
 * bytes (for a status command). Rejects with code `"store"` when the
 * directory is refused (a symlink, foreign-owned, group/other-writable; the
 * message names it). (fscache only.)
 */
export declare function readCacheStore(options: ReadCacheStoreOptions): Promise<ReadCacheStoreInfo>

/** Options of readCacheStore. (fscache only.) */
export interface ReadCacheStoreOptions {
  /** The store's directory (a `storeDir`, or `<cwd>/.pi/readcache`). */
  dir: string
}

/** What {@link readCacheStore} reports. (fscache only.) */
export interface ReadCacheStoreInfo {
  dir: string
  objects: number
  bytes: number
}

/** Version of the loaded libfscache, e.g. "0.1.0". (fscache only; not in pi-natives.) */
export declare function version(): string

/**
 * Statistics of the scan cache, from {@link cacheStats}. (fscache only; not
 * in pi-natives.)
 */
export interface CacheStats {
  /** Cached scans (partitions). */
  entries: number
  /** Cached scans kept current by change notifications (the others are served by TTL). */
  watchedEntries: number
  /** Roots with a watcher. */
  rootsWatched: number
  /** Directory watches held. */
  watches: number
  /** Whether watching is on (FS_SCAN_CACHE_WATCH, platform support). */
  watching: boolean
  /** Why watching is off: "disabled" or "unsupported". */
  watchOff?: string
  /** Falls back to the TTL policy, by reason: "overflow", "watch_limit", "unsupported", "root_gone", "symlinks_followed", "remote_fs" (a network or FUSE file system), "error". */
  fallbacks: Record<string, number>
  /** Roots kept on the TTL policy, with the reason. */
  fallbackRoots: Record<string, string>
  /** Cached answers. */
  hits: number
  /** Change events applied. */
  eventsApplied: number
  /** Targeted refreshes (one directory or subtree of one cached scan), entries they read, their time. */
  refreshes: number
  refreshEntries: number
  refreshMs: number
  /** Scans of a whole root, entries they read, their time. */
  fullScans: number
  fullScanEntries: number
  fullScanMs: number
  /** grep's content indexes (see fscache's docs/indexed-grep.md). */
  grepIndex: GrepIndexStats
  /**
   * Calls made without `cache`: `served` were answered from a watched scan
   * (current as of the call), `walks` walked, by reason: "first_call" (the
   * key's first uncached call within 5 minutes), "watch_started" (the call
   * that made the key watched), "not_watched", "disabled", "unsupported",
   * or a root's fallback reason.
   */
  uncached: { served: number; walks: Record<string, number> }
  /**
   * Background work a panic inside the library dropped, by kind of
   * goroutine: "indexBuild", "watchedFill", "globJSON", "heapRelease",
   * "watchClose", "finalizer"; `reason` is the latest one's ("panic in
   * <kind>: <value>"). Empty when nothing was dropped. A panic in work a
   * call waits for rejects that call with `code` "internal" instead.
   * (fscache only; not in pi-natives.)
   */
  dropped: Record<string, { count: number; reason: string }>
}

/**
 * Statistics of grep's content indexes, the `grepIndex` member of
 * {@link CacheStats}. (fscache only; not in pi-natives.)
 */
export interface GrepIndexStats {
  /** Whether indexing is on (FS_GREP_INDEX is not "0"). */
  enabled: boolean
  /** Roots with a live index; roots queued or being built. */
  roots: number
  building: number
  /** Files listed and text bytes indexed; memory held by the indexes and its cap (FS_GREP_INDEX_MB). */
  files: number
  bytes: number
  indexBytes: number
  capBytes: number
  /** Builds done and abandoned; their total time and the latest's. */
  builds: number
  buildFailures: number
  buildMs: number
  lastBuildMs: number
  /** Greps served by an index; files they searched (in all, and per grep); files ruled out; files read again to bring their entries up to date. */
  queries: number
  candidates: number
  candidatesPerQuery: number
  skipped: number
  reindexed: number
  /** Files re-read whose content hash was their entry's (an identical rewrite), brought back without re-indexing. */
  restored: number
  /** Greps or roots an index could not serve, by reason: "no_trigram", "not_watched", "too_large", "evicted", "error", "disk_error" (the index directory or file could not be used), "locked" (another process is writing the index), "many_candidates" (a grep with maxCount whose pattern the persisted index cannot narrow much, searched without it), "panic" (the build panicked inside the library: recovered, the root is searched without an index; see CacheStats.dropped), or the watcher's ("overflow", "watch_limit", "root_gone", "closed", ...). */
  fallbacks: Record<string, number>
  /** Roots not indexed for good, with the reason. */
  fallbackRoots: Record<string, string>
  /**
   * The indexes kept on disk (FS_GREP_INDEX_DIR, or the user's cache directory;
   * FS_GREP_INDEX=memory turns them off): their directory ("" when off or
   * unusable); greps served from a published index validated by metadata, and the
   * files those searched because the walk did not confirm their entries; indexes
   * this process published; builds that adopted a published index instead of reading
   * every file; indexes published that reused the entries of the one they replaced
   * for the files unchanged since, reading only the others; the latest failure (""
   * when none).
   */
  persisted: {
    dir: string
    queries: number
    untrusted: number
    published: number
    adopted: number
    merged: number
    lastError: string
  }
}

/** Statistics of the scan cache. Synchronous. (fscache only; not in pi-natives.) */
export declare function cacheStats(): CacheStats
