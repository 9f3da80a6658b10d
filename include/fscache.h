/*
 * fscache.h - the C ABI of fscache: cached filesystem discovery and search
 * (glob, fuzzy find, grep, scan-cache invalidation) for coding agents.
 *
 * Conventions shared by every function below
 * -------------------------------------------
 * Encoding: every string crossing this ABI, in either direction, is UTF-8 and
 *   NUL-terminated. File names that are not valid UTF-8 are reported with
 *   U+FFFD replacement characters.
 *
 * Options: the `options_json` argument is a JSON object whose fields are the
 *   camelCase fields of the matching TypeScript options interface of
 *   @oh-my-pi/pi-natives (GlobOptions, FuzzyFindOptions, GrepOptions), e.g.
 *   {"pattern":"*.go","path":"src","maxResults":10}. `signal` is ignored here:
 *   cancellation goes through the `cancel` argument. The library only reads
 *   `options_json` during the call and keeps no pointer to it; the caller
 *   keeps ownership.
 *
 * Results: every function returning `char *` returns a newly allocated
 *   NUL-terminated JSON document that the CALLER OWNS and must release with
 *   fscache_free() (never with free()). It is never NULL. It is one of
 *     {"ok": <result>}
 *     {"error": {"code": "<code>", "message": "<message>"}}
 *   where <result> has the shape of GlobResult / FuzzyFindResult / GrepResult.
 *   Error codes and the start of their messages:
 *     path_not_found   "Path not found: <path>"
 *     not_a_directory  "Search path must be a directory: <path>"
 *     invalid_glob     "Invalid glob pattern: <detail>"
 *     invalid_regex    "Regex error: <detail>"
 *     timeout          "Aborted: Timeout"
 *     aborted          "Aborted: Signal"
 *     invalid_options  names the offending field (malformed JSON, wrong type,
 *                      missing `pattern`/`path`/`query`, NUL byte, ...)
 *     internal         an unexpected failure (a recovered panic, for one);
 *                      the library stays usable
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
 *   which then returns the "aborted" error. It is polled before the walk, at
 *   least every 128 entries, and between files; a flag that is already
 *   non-zero when the call starts aborts at once. `timeoutMs` in the options
 *   gives a deadline, reported as the "timeout" error; `timeoutMs: 0` has
 *   expired before the call starts (as in the reference).
 *
 * Threads: every function may be called from any thread, concurrently. The
 *   only shared state is the process-wide scan cache, which is thread-safe.
 *   Calls block the calling thread until they finish.
 *
 * Environment (read once per process, at the first call):
 *   FS_SCAN_CACHE_TTL_MS (default 1000), FS_SCAN_EMPTY_RECHECK_MS (200),
 *   FS_SCAN_CACHE_MAX_ENTRIES (16).
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
 * cancel: optional flag.
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
 * Drops scan-cache entries. path_or_null: a UTF-8 path (borrowed), relative
 * paths resolve against the current working directory; every cached scan
 * whose root contains the path is dropped (the path need not exist any
 * more). NULL drops everything; "" is the working directory.
 * Never fails.
 */
void fscache_invalidate(const char *path_or_null);

/*
 * Releases a string returned by fscache_glob, fscache_fuzzy_find or
 * fscache_grep. NULL is a no-op. Freeing any other pointer, or the same one
 * twice, is undefined behaviour.
 */
void fscache_free(char *p);

/*
 * The library version, e.g. "0.1.0". A static string owned by the library:
 * do not free or modify it. Valid for the life of the process.
 */
const char *fscache_version(void);

#ifdef __cplusplus
}
#endif

#endif /* FSCACHE_H */
