/*
 * fscache.h - the C ABI of fscache: cached filesystem discovery and search
 * for coding agents: glob, fuzzy find, grep, listWorkspace (pi-natives
 * 18.2), scan-cache invalidation and statistics; and the read cache
 * (fscache's own): a read tool's answer as a marker or a diff when the
 * model has seen the file.
 *
 * Conventions shared by every function below
 * -------------------------------------------
 * Encoding: every string crossing this ABI, in either direction, is UTF-8 and
 *   NUL-terminated. File names that are not valid UTF-8 are reported with
 *   U+FFFD replacement characters.
 *
 * Options: the `options_json` argument is a JSON object whose fields are the
 *   camelCase fields of the matching TypeScript options interface of
 *   @oh-my-pi/pi-natives (GlobOptions, FuzzyFindOptions, GrepOptions, and
 *   18.2's ListWorkspaceOptions), e.g.
 *   {"pattern":"*.go","path":"src","maxResults":10}, and of fscache's own
 *   ReadCacheOptions, ReadCacheResolveOptions and ReadCacheStoreOptions. `signal` is ignored here:
 *   cancellation goes through the `cancel` argument. The library only reads
 *   `options_json` during the call and keeps no pointer to it; the caller
 *   keeps ownership.
 *   The fields, with their JSON type and "required", their default, or "-"
 *   (absent means what the field's documentation says: the TypeScript
 *   declarations in bindings/node/index.d.ts, or the Go package's options
 *   structs). null is the same as absent; other fields are ignored. A
 *   field given twice, of the wrong type, a negative number, a string
 *   holding a NUL byte, a fileType other than 1 (file), 2 (dir) or 3
 *   (symlink) and a mode other than "content", "count" or
 *   "filesWithMatches" are invalid_options errors. Fractions are truncated
 *   and larger numbers read as 4294967295 (timeoutMs: 2147483647).
 *   The read cache's options differ: offset and limit may be 0 or
 *   negative (passed on, the read cache validates them; fractions
 *   truncated toward zero, clamped to the int32 range); maxFileBytes,
 *   storeMaxBytes and storeMaxAgeSeconds are non-negative, read up to
 *   2^53, 0 meaning the default; bases is an object whose values are
 *   strings ({"full": "<sha256>", "r:3:9": "<sha256>"}); exclude an array
 *   of glob patterns, matched against the file's name (the whole path when
 *   a pattern has a "/"; a pattern ending in "/" against the name of every
 *   directory the file is under), as written and as its real path ([]
 *   excludes nothing; absent: the defaults .env*, *.pem, *.key, *.p12,
 *   *.pfx, *.crt, *.cer, *.der, *.pk8, id_rsa, id_ed25519, id_ecdsa,
 *   id_dsa, .npmrc, .netrc and .ssh/); lineCount is
 *   "split" (pi 0.73's line totals: a trailing newline makes a last empty
 *   line) or "lines" (pi 1.x's details.truncation: a trailing empty line
 *   is not counted, nor truncated on; the markers and diff header count
 *   the same way), another string an invalid_options error; objectHash
 *   (fscache's own; 64 lowercase hex digits, else invalid_options; not
 *   with noStore: true) answers from the object store's content of that
 *   hash (a meta.servedHash) instead of the file: pi's read text for the
 *   read's path and range as when the file held that content (mode full,
 *   meta.servedHash the hash; bases ignored, nothing stored), whatever
 *   the file holds now; for re-sending the text a marker or diff stood
 *   for. A missing or damaged object is object_missing.
 *   (schema/options.json holds the same table; capi's tests check this one
 *   against it.)
 *   fscache_glob, GlobOptions:
 *     pattern             string  required
 *     path                string  required
 *     fileType            number  -
 *     recursive           bool    true
 *     hidden              bool    false
 *     maxResults          number  -
 *     gitignore           bool    true
 *     cache               bool    false
 *     sortByMtime         bool    false
 *     includeNodeModules  bool    -
 *     timeoutMs           number  -
 *   fscache_fuzzy_find, FuzzyFindOptions:
 *     query               string  required
 *     path                string  required
 *     hidden              bool    false
 *     gitignore           bool    true
 *     cache               bool    false
 *     maxResults          number  100
 *     timeoutMs           number  -
 *   fscache_grep, GrepOptions:
 *     pattern             string  required
 *     path                string  required
 *     glob                string  -
 *     type                string  -
 *     ignoreCase          bool    false
 *     multiline           bool    false
 *     hidden              bool    true
 *     gitignore           bool    true
 *     cache               bool    false
 *     maxCount            number  -
 *     offset              number  0
 *     contextBefore       number  -
 *     contextAfter        number  -
 *     context             number  0
 *     maxColumns          number  -
 *     mode                string  "content"
 *     maxCountPerFile     number  -
 *     rawLines            bool    false
 *     timeoutMs           number  -
 *   fscache_list_workspace, ListWorkspaceOptions:
 *     path                string  required
 *     maxDepth            number  required
 *     hidden              bool    false
 *     gitignore           bool    true
 *     collectAgentsMd     bool    false
 *     timeoutMs           number  -
 *   fscache_read_cache, ReadCacheOptions:
 *     path                string  required
 *     cwd                 string  -
 *     offset              number  -
 *     limit               number  -
 *     pathKey             string  -
 *     bases               object  -
 *     storeDir            string  -
 *     noStore             bool    false
 *     objectHash          string  -
 *     exclude             array   -
 *     maxFileBytes        number  -
 *     storeMaxBytes       number  -
 *     storeMaxAgeSeconds  number  -
 *     lineCount           string  "split"
 *     timeoutMs           number  -
 *   fscache_read_cache_resolve, ReadCacheResolveOptions:
 *     path                string  required
 *     cwd                 string  -
 *     offset              number  -
 *     limit               number  -
 *   fscache_read_cache_store, ReadCacheStoreOptions:
 *     dir                 string  required
 *
 * Results: every function returning `char *` (but
 *   fscache_debug_goroutine_stacks, which returns plain text) returns a newly
 *   allocated NUL-terminated JSON document that the CALLER OWNS and must
 *   release with fscache_free() (never with free()). It is NULL only when
 *   the library could not allocate it. It is one of
 *     {"ok": <result>}
 *     {"error": {"code": "<code>", "message": "<message>"}}
 *   where <result> has the shape of GlobResult / FuzzyFindResult /
 *   GrepResult / ListWorkspaceResult / ReadCacheResult /
 *   ReadCacheResolved / ReadCacheStoreInfo (and CacheStats for
 *   fscache_cache_stats, which never fails).
 *   Error codes and the start of their messages (fscache_list_workspace's
 *   first two read "Native directory scan failed for <path>: ..." instead):
 *     path_not_found   "Path not found: <path>"
 *     not_a_directory  "Search path must be a directory: <path>"
 *     invalid_glob     "Invalid glob pattern: <detail>"
 *     invalid_regex    "Regex error: <detail>"
 *     timeout          "Aborted: Timeout"
 *     aborted          "Aborted: Signal"
 *     invalid_options  names the offending field (malformed JSON, wrong type,
 *                      a missing required field, NUL byte, ...)
 *     internal         an unexpected failure (a recovered panic, for one);
 *                      the library stays usable
 *   and the read cache's own (fscache_read_cache*; their messages name the
 *   problem, pi's read's own message where it has one):
 *     invalid_range      a "path:start-end" suffix that is not a valid range
 *                        (":0", ":5-3")
 *     offset_beyond_eof  "Offset <n> is beyond end of file (<m> lines total)"
 *     not_regular        a FIFO, socket or device (never opened)
 *     cancelled          the cancel flag was raised (where the other calls
 *                        say "aborted"); timeoutMs still gives "timeout"
 *     store              the object store's directory is refused (a
 *                        symlink, foreign-owned, or group/other-writable);
 *                        the message names it
 *     object_missing     objectHash names no intact object of the store
 *                        (missing, or damaged and removed); the message
 *                        names the object and the store
 *
 * Result layout: the bytes of a document are part of this ABI, not only
 *   the JSON value: a caller may rely on them (the Node addon does). A
 *   document is compact JSON (no space or line break outside strings);
 *   "ok" or "error" is its only key; every object's keys come in the order
 *   listed here ([key] marks one that may be absent; `: [T]` an array of
 *   T; `: T` an object of layout T). Hence a result of fscache_glob, fscache_fuzzy_find or fscache_grep
 *   begins with exactly these 18 bytes: {"ok":{"matches":[
 *   Documents are ASCII (other characters written as \u escapes), but for
 *   fscache_cache_stats' (UTF-8). on_match gets GlobMatch and GrepMatch
 *   objects of the same layout.
 *     error               {code, message}
 *     GlobResult          {matches: [GlobMatch], totalMatches}
 *     GlobMatch           {path, fileType, [mtime], [size]}
 *     FuzzyFindResult     {matches: [FuzzyFindMatch], totalMatches}
 *     FuzzyFindMatch      {path, isDirectory, score}
 *     GrepResult          {matches: [GrepMatch], totalMatches,
 *                          filesWithMatches, filesSearched, [limitReached]}
 *     GrepMatch           {path, lineNumber, line,
 *                          [contextBefore: [ContextLine]],
 *                          [contextAfter: [ContextLine]], [truncated],
 *                          [lossy], [crBefore], [matchCount]}
 *                          (lossy, crBefore: with rawLines, ours: lines as
 *                          in the file, see core.GrepOptions.RawLines)
 *     ContextLine         {lineNumber, line}
 *     ListWorkspaceResult {entries: [WorkspaceEntry], agentsMdFiles,
 *                          truncated}
 *     WorkspaceEntry      {path, fileType, [mtime], [size]}
 *     ReadCacheResult     {mode, [reason], pathKey, absPath, path, [offset],
 *                          [limit], text, [truncation: ReadCacheTruncation],
 *                          [meta: ReadCacheMeta], [storeError]}
 *     ReadCacheTruncation {content, truncated, truncatedBy, totalLines,
 *                          totalBytes, outputLines, outputBytes,
 *                          lastLinePartial, firstLineExceedsLimit, maxLines,
 *                          maxBytes}
 *     ReadCacheMeta       {v, pathKey, scopeKey, servedHash, [baseHash], mode,
 *                          totalLines, rangeStart, rangeEnd, bytes}
 *     ReadCacheResolved   {pathKey, absPath, path, [offset], [limit]}
 *     ReadCacheStoreInfo  {dir, objects, bytes}
 *     CacheStats          {entries, watchedEntries, rootsWatched, watches,
 *                          watching, [watchOff], fallbacks, fallbackRoots,
 *                          hits, eventsApplied, refreshes, refreshEntries,
 *                          refreshMs, fullScans, fullScanEntries,
 *                          fullScanMs, grepIndex, uncached, dropped}
 *   (capi's TestResultLayout checks every kind against this list.)
 *
 * Callbacks: `on_match` may be NULL. When it is not, it is called once per
 *   accepted match with `ctx` passed through unchanged and `match_json`
 *   pointing at a JSON object (a GlobMatch or GrepMatch) of `len` bytes,
 *   NUL-terminated. `match_json` is owned by the library and valid only until
 *   the callback returns: copy it if you need it later. The callback runs on
 *   the thread that made the call (so a runtime whose callbacks are tied to
 *   one thread, such as Bun's JSCallback, can receive it), never on two
 *   threads at once for one call, and every callback of a call has returned
 *   before that call returns. It must not call back into fscache for the
 *   same call. A slow callback slows the search down; it never loses a
 *   match.
 *
 * Cancellation: `cancel` may be NULL. Otherwise it points at caller-owned
 *   memory that must stay valid until the call returns. The library only
 *   reads it (atomically, as a 32-bit int); any non-zero value aborts the call,
 *   which then returns the "aborted" error ("cancelled" for
 *   fscache_read_cache, the read cache's own code). It is polled before the walk, at
 *   least every 128 entries, and between files; a flag that is already
 *   non-zero when the call starts aborts at once. `timeoutMs` in the options
 *   gives a deadline, reported as the "timeout" error; `timeoutMs: 0` has
 *   expired before the call starts (as in the reference).
 *
 * Threads: every function may be called from any thread, concurrently. The
 *   only shared state is the process-wide scan cache, which is thread-safe,
 *   and the read cache's object stores on disk, which any number of threads
 *   and processes may share (objects are written to a temporary file and
 *   renamed into place).
 *   Calls block the calling thread until they finish.
 *
 * Signals (Linux; Windows has none; macOS below): the library leaves the
 *   host's signal handlers as the host installed them, before or after the
 *   library was loaded: same function, flags and mask.
 *   The library's Go runtime installs its own handlers (SA_ONSTACK) for
 *   five signals only: SIGSEGV, SIGBUS and SIGFPE, whose handler the host
 *   had is still called for faults outside the library's Go code; SIGPIPE,
 *   whose handler the host had is still called; and SIGURG, its preemption
 *   signal, whose handler the host had is no longer called. The one
 *   exception: a handler installed before the load for SIGCHLD, SIGPROF,
 *   SIGSTKFLT or signal 34 (glibc's SIGRTMIN) gets SA_ONSTACK, as Go sets
 *   it, because Go never lets its threads block these and SA_ONSTACK keeps
 *   the handler off the library's small goroutine stacks; give handlers for
 *   them SA_ONSTACK yourself if you install them after the load.
 *   Instead of SA_ONSTACK, masks keep the host's handlers off those stacks:
 *   the library's own threads block every signal except SIGSEGV, SIGBUS,
 *   SIGFPE, SIGILL, SIGTRAP, SIGSYS, SIGPIPE, SIGURG and the exception's
 *   (with glibc's internal 32 and 33), so a signal sent to the process is
 *   handled on one of the host's threads; and every function blocks the
 *   same signals on the calling thread while it runs and restores the
 *   caller's mask before it returns. A signal sent to that thread during a
 *   call is handled when the call returns, or during on_match, which runs
 *   with the caller's mask. After a call the thread's mask is as it was.
 *   A thread that has called the library keeps the Go runtime's alternate
 *   signal stack (when it had none) until it exits; handlers without
 *   SA_ONSTACK never run on it.
 *   On macOS the Go runtime's initializer runs before the library's (Mach-O
 *   has no initializer priorities; make test-dist checks the order in the
 *   built dylibs), so the library behaves as every Go c-shared library
 *   does: handlers installed before the load gain SA_ONSTACK, and the
 *   library's threads do not block the host's signals. Calls still block
 *   them on the calling thread as above. (JavaScriptCore suspends threads
 *   with Mach calls on macOS, not signals: the hang this prevents on Linux
 *   does not arise there.)
 *
 * Environment (read once per process, at the first call):
 *   FS_SCAN_CACHE_TTL_MS (default 1000), FS_SCAN_EMPTY_RECHECK_MS (200),
 *   FS_SCAN_CACHE_MAX_ENTRIES (16), FS_SCAN_CACHE_WATCH (on; "0" turns
 *   change notifications off). GOGC, read when the library is loaded, tunes
 *   the library's own Go collector as for any Go program; without it the
 *   library keeps a heap goal of about 16 MB while its live heap is small
 *   (fewer collections per call) and the default once it is larger.
 */
#ifndef FSCACHE_H
#define FSCACHE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Receives one match. `ctx`: the caller's pointer, passed through.
 * `match_json`: UTF-8 JSON object, NUL-terminated, owned by the library,
 * valid until the callback returns. `len`: its length in bytes, without the
 * NUL. Runs on the calling thread; see "Callbacks" above.
 */
typedef void (*fscache_match_fn)(void *ctx, const char *match_json, size_t len);

/*
 * Finds filesystem entries under options.path matching options.pattern.
 * options_json: GlobOptions as JSON (borrowed). on_match/ctx: optional,
 * called with matches while the walk runs, in the walk's order: each match
 * once; with sortByMtime and maxResults, each match when it enters the
 * bounded newest-first top N (every match of the result is among them);
 * on a cache hit, or with maxResults without sortByMtime, each match of the
 * result in path order after the walk (docs/compat.md). The JSON handed to
 * on_match and returned is ASCII (other characters as \u escapes).
 * cancel: optional flag. With sortByMtime a match's mtime is in ms since
 * the epoch with its fraction (a number in the shortest form that reads
 * back as the same double, as pi-natives 18.2 computes it: seconds * 1000
 * + nanoseconds / 1e6), absent before the epoch; the order is by that
 * double, newest first, then by path.
 * Returns {"ok": GlobResult} or an error envelope; caller frees with
 * fscache_free().
 */
char *fscache_glob(const char *options_json, fscache_match_fn on_match, void *ctx,
                   const volatile int32_t *cancel);

/*
 * Fuzzy path search for autocomplete under options.path.
 * options_json: FuzzyFindOptions as JSON (borrowed). cancel: optional flag.
 * Returns {"ok": FuzzyFindResult} or an error envelope; caller frees with
 * fscache_free().
 */
char *fscache_fuzzy_find(const char *options_json, const volatile int32_t *cancel);

/*
 * Regex content search (Rust regex syntax) under options.path, which may be
 * a directory or a single file. options_json: GrepOptions as JSON (borrowed).
 * on_match/ctx: optional, called for every final (offset/limit-shaped) match
 * in result order. cancel: optional flag.
 * Returns {"ok": GrepResult} or an error envelope; caller frees with
 * fscache_free().
 */
char *fscache_grep(const char *options_json, fscache_match_fn on_match, void *ctx,
                   const volatile int32_t *cancel);

/*
 * listWorkspace (pi-natives 18.2): one walk of options.path returning the
 * entries up to options.maxDepth (root children are depth 1) and, with
 * options.collectAgentsMd, the AGENTS.md files of the directories at depth
 * 1..4 (capped at 200, even when an ignore rule names the file, never inside
 * pruned directories).
 * options_json: ListWorkspaceOptions as JSON (borrowed; see "Options").
 * cancel: optional flag (borrowed; read from other threads while the call
 * runs, so it must stay valid until the call returns); a non-zero value
 * ends the call with "Aborted: Signal". timeoutMs ends it with
 * "Aborted: Timeout".
 * Runs on the calling thread (the walk itself on library threads); no
 * callback. Returns {"ok": {"entries": [{"path", "fileType", "mtime"?,
 * "size"?}], "agentsMdFiles": [string], "truncated": bool}} (entries and
 * agentsMdFiles sorted by path, UTF-8; mtime in ms with a fractional part,
 * as glob's, absent before the epoch)
 * or an error envelope (a missing or non-directory path reads
 * "Native directory scan failed for <path>: ..."); the caller owns the
 * string and frees it with fscache_free().
 */
char *fscache_list_workspace(const char *options_json, const volatile int32_t *cancel);

/*
 * Brings scan-cache entries up to date with a path. path_or_null: a UTF-8
 * path (borrowed), relative paths resolve against the current working
 * directory; in every cached scan whose root contains the path, the
 * directory holding the path is listed again (the whole subtree when the
 * path is a directory), instead of the scan being dropped (the path need
 * not exist any more). NULL drops everything; "" is the working directory.
 * Watched scans (see fscache_cache_stats) are current without this call;
 * for them it only applies the pending change events.
 * Runs on the calling thread; never fails.
 */
void fscache_invalidate(const char *path_or_null);

/*
 * The read cache (fscache's own; not in pi-natives): answers a coding
 * agent's read tool call for the file options.path names as pi's read tool
 * (@mariozechner/pi-coding-agent) would, or, when the caller trusts that
 * the model has seen that scope of the file (options.bases: scope key ->
 * sha256 of the content seen, for the file options.pathKey), with a marker
 * ("[readcache: unchanged, <n> lines]", "[readcache: unchanged in lines
 * <a>-<b> of <n>]") or a unified diff ("[readcache: <k> lines changed of
 * <n>]" and the diff). It keeps the content in a content-addressed object
 * store (options.storeDir, default <cwd>/.pi/readcache; directory 0700;
 * bounded by storeMaxBytes and storeMaxAgeSeconds) to diff against later.
 * It keeps no session state: what the model has seen is the caller's to
 * say, from the meta of earlier results.
 * options_json: ReadCacheOptions as JSON (borrowed; see "Options"): path
 * as the model gave it (a leading "@", "~", unicode spaces and a
 * "path:start-end" suffix are handled as pi does), cwd (absolute; default
 * the process's), offset and limit (pi's; any integer is passed on and
 * validated here).
 * cancel: optional flag (borrowed; read from other threads while the call
 * runs, so it must stay valid until the call returns); a non-zero value
 * ends the call with the "cancelled" error and nothing written. timeoutMs
 * ends it with "timeout" ("Aborted: Timeout").
 * Runs on the calling thread (the read on a library thread); no callback.
 * Returns {"ok": ReadCacheResult} (see "Result layout"): mode is "full",
 * "unchanged", "unchanged_range", "diff", "full_fallback" or "baseline"
 * (the caller's own read tool must answer: an image, a binary, invalid
 * UTF-8, excluded, not found, a directory; text is then "" and reason
 * says why; reason also says why a full_fallback was served, and is
 * "streamed" for a full read of a file over maxFileBytes, streamed in one
 * pass and served without meta or store);
 * pathKey, absPath, path, offset and limit are the read's after the path's
 * normalisation; text is the tool's text (UTF-8 in the JSON string);
 * truncation is pi's details.truncation where pi's read sets it (truncatedBy
 * is "lines", "bytes" or null); meta is the details.readcache record to keep
 * (every mode but baseline); storeError says why the store was not used
 * (the read was served without it). Or an error envelope: invalid_options,
 * invalid_range, offset_beyond_eof, not_regular, cancelled, timeout,
 * internal; with objectHash also object_missing and store. The caller owns the string and frees it with fscache_free().
 */
char *fscache_read_cache(const char *options_json, const volatile int32_t *cancel);

/*
 * Resolves a read's path and range as fscache_read_cache does, without
 * reading the file (for a refresh command that must name the same scope).
 * options_json: ReadCacheResolveOptions as JSON (borrowed): path, cwd,
 * offset, limit as for fscache_read_cache. Runs on the calling thread; no
 * cancellation (it does not read files, only resolves the path's links).
 * Returns {"ok": ReadCacheResolved}: pathKey (the real path when the file
 * exists, else absPath), absPath, path (without a parsed ":start-end"
 * suffix), offset and limit (after the suffix was parsed; absent when
 * none), UTF-8; or an error envelope (invalid_options, invalid_range,
 * internal). The caller owns the string and frees it with fscache_free().
 */
char *fscache_read_cache_resolve(const char *options_json);

/*
 * Describes the read cache's object store in options.dir (the directory
 * fscache_read_cache's storeDir names). options_json:
 * ReadCacheStoreOptions as JSON (borrowed). Runs on the calling thread.
 * Returns {"ok": ReadCacheStoreInfo}: dir, objects (their number), bytes
 * (their total size); or an error envelope: "store" when the directory is
 * refused (a symlink, foreign-owned, group/other-writable; the message
 * names it), invalid_options, internal. The caller owns the string and
 * frees it with fscache_free().
 */
char *fscache_read_cache_store(const char *options_json);

/*
 * Statistics of the process-wide scan cache (an fscache addition; not in
 * pi-natives). Returns {"ok": {...}} as UTF-8 JSON, owned by the caller,
 * freed with fscache_free(); NULL only when out of memory. Fields:
 * entries, watchedEntries (kept current by change notifications),
 * rootsWatched, watches (directory watches held), watching (bool) and
 * watchOff ("disabled" by FS_SCAN_CACHE_WATCH=0 or a TTL of 0,
 * "unsupported" on systems without a watcher), fallbacks ({reason: count},
 * reasons "overflow", "watch_limit", "unsupported", "root_gone",
 * "symlinks_followed", "remote_fs" (a network or FUSE file system),
 * "error"), fallbackRoots ({root: reason} for roots
 * kept on the TTL policy), hits, eventsApplied, refreshes, refreshEntries,
 * refreshMs (targeted refreshes: count, entries read, time), fullScans,
 * fullScanEntries, fullScanMs (scans of a whole root), and grepIndex,
 * grep's content indexes: enabled (FS_GREP_INDEX), roots, building, files,
 * bytes (text indexed), indexBytes, capBytes (FS_GREP_INDEX_MB), builds,
 * buildFailures, buildMs, lastBuildMs, queries (greps served), candidates,
 * candidatesPerQuery (files those searched), skipped (files ruled out),
 * reindexed, restored, fallbacks ({reason: count}: "no_trigram",
 * "not_watched", "too_large", "evicted", "error", "disk_error", "locked",
 * "many_candidates", "panic" or a watcher's reason), fallbackRoots and persisted, the indexes on disk: dir
 * ("" when off), queries and untrusted (greps served from a published index
 * validated by metadata, and the files they searched unconfirmed),
 * published, adopted, merged (indexes published that reused the entries of
 * the one they replaced for the unchanged files) and lastError; and uncached, the calls made without the cache: served
 * (answered from a watched scan, current as of the call) and walks
 * ({reason: count}: "first_call", "watch_started", "not_watched",
 * "disabled", "unsupported" or a root's fallback reason); and dropped, the
 * background work a panic dropped ({kind: {count, reason}}, kinds
 * "indexBuild", "watchedFill", "globJSON", "heapRelease", "watchClose",
 * "finalizer"; {} when none: a panic in work a call waits for is that
 * call's internal error instead). Runs on the calling thread; it takes the
 * cache's lock briefly.
 */
char *fscache_cache_stats(void);

/*
 * Releases a string returned by fscache_glob, fscache_fuzzy_find,
 * fscache_grep, fscache_list_workspace, fscache_read_cache,
 * fscache_read_cache_resolve, fscache_read_cache_store, fscache_cache_stats
 * or fscache_debug_goroutine_stacks. NULL is a no-op. Freeing any other
 * pointer, or the same one twice, is undefined behaviour; so is passing
 * one of these strings to free(): it is not the start of a block of the C
 * allocator. Any thread may call it, and most results are freed without
 * entering the Go runtime. On Linux a large result (256 KiB or more) is a
 * mapping of its own, and the library keeps up to 8 freed ones (32 MiB at
 * most) to reuse for later results, already faulted in.
 */
void fscache_free(char *p);

/*
 * The library version, e.g. "0.1.0". A static string owned by the library:
 * do not free or modify it. Valid for the life of the process.
 */
const char *fscache_version(void);

/*
 * Diagnostics, for tests and troubleshooting (fscache's additions; their
 * numbers are not a stable interface). Callable from any thread at any
 * time, including while calls run; they never fail. Only
 * fscache_debug_goroutine_stacks allocates (the caller frees its result).
 *
 * fscache_debug_goroutines: the number of goroutines in the library's Go
 *   runtime that run or wait for work now: with no call running it returns
 *   to a small baseline; a count that keeps growing across calls is a leak.
 *   Not counted: the one goroutine Go keeps parked for each C thread that
 *   has called into the library, until that thread exits.
 * fscache_debug_goroutines_total: every goroutine, those included.
 * fscache_debug_cache_entries: the number of scans the scan cache holds now.
 * fscache_debug_cache_max_entries: its bound (FS_SCAN_CACHE_MAX_ENTRIES).
 * fscache_debug_goroutine_stacks: the stacks of every goroutine, as Go's
 *   runtime.Stack prints them (UTF-8 text, NUL-terminated); the caller owns
 *   it and frees it with fscache_free(). For finding what a leak holds.
 */
int64_t fscache_debug_goroutines(void);
int64_t fscache_debug_goroutines_total(void);
int64_t fscache_debug_cache_entries(void);
int64_t fscache_debug_cache_max_entries(void);
char *fscache_debug_goroutine_stacks(void);

#ifdef __cplusplus
}
#endif

#endif /* FSCACHE_H */
