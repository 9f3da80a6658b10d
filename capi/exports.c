/*
 * exports.c - the C ABI of include/fscache.h. Each function is a thin
 * wrapper around the Go function that implements it (fscache_go_*, in the
 * Go files of this package; not part of the ABI): it blocks, on the calling
 * thread, the signals that must not reach a handler while the thread runs
 * Go code on a goroutine stack, calls Go, and restores the caller's mask
 * (signals.c explains why). On Windows it is a plain call. fscache_free
 * frees a malloc'd result without calling Go at all (resultmem.h).
 */
#include "signals.h"
#include "resultmem.h"

#include <stdlib.h>

#include "_cgo_export.h"

/* CALL(T, expr): evaluates expr, of type T, between enter and leave. */
#define CALL(T, expr)                          \
	do {                                   \
		fscache_sigctx sig_;           \
		T ret_;                        \
		fscache_signals_enter(&sig_);  \
		ret_ = (expr);                 \
		fscache_signals_leave(&sig_);  \
		return ret_;                   \
	} while (0)

#define CALL_VOID(expr)                        \
	do {                                   \
		fscache_sigctx sig_;           \
		fscache_signals_enter(&sig_);  \
		expr;                          \
		fscache_signals_leave(&sig_);  \
	} while (0)

/* The Go side takes plain pointers: it only reads options and path, and
 * reads cancel atomically. */
#define OPT(p) ((char *)(p))
#define FLAG(p) ((int32_t *)(p))

FSCACHE_EXPORT char *fscache_glob(const char *options_json, fscache_match_fn on_match, void *ctx,
                   const volatile int32_t *cancel) {
	CALL(char *, fscache_go_glob(OPT(options_json), on_match, ctx, FLAG(cancel)));
}

FSCACHE_EXPORT char *fscache_fuzzy_find(const char *options_json, const volatile int32_t *cancel) {
	CALL(char *, fscache_go_fuzzy_find(OPT(options_json), FLAG(cancel)));
}

FSCACHE_EXPORT char *fscache_grep(const char *options_json, fscache_match_fn on_match, void *ctx,
                   const volatile int32_t *cancel) {
	CALL(char *, fscache_go_grep(OPT(options_json), on_match, ctx, FLAG(cancel)));
}

FSCACHE_EXPORT char *fscache_list_workspace(const char *options_json, const volatile int32_t *cancel) {
	CALL(char *, fscache_go_list_workspace(OPT(options_json), FLAG(cancel)));
}

FSCACHE_EXPORT char *fscache_read_cache(const char *options_json, const volatile int32_t *cancel) {
	CALL(char *, fscache_go_read_cache(OPT(options_json), FLAG(cancel)));
}

FSCACHE_EXPORT char *fscache_read_cache_resolve(const char *options_json) {
	CALL(char *, fscache_go_read_cache_resolve(OPT(options_json)));
}

FSCACHE_EXPORT char *fscache_read_cache_store(const char *options_json) {
	CALL(char *, fscache_go_read_cache_store(OPT(options_json)));
}

FSCACHE_EXPORT void fscache_invalidate(const char *path_or_null) { CALL_VOID(fscache_go_invalidate(OPT(path_or_null))); }

FSCACHE_EXPORT char *fscache_cache_stats(void) { CALL(char *, fscache_go_cache_stats()); }

/* A malloc'd result is freed here, in C: the calling thread does not enter
 * Go (resultmem.h says why). A pooled region goes back to Go's pool. */
FSCACHE_EXPORT void fscache_free(char *p) {
	if (p == NULL) {
		return;
	}
	if (fscache_result_tag(p) == FSCACHE_RESULT_MALLOC) {
		free(p - FSCACHE_RESULT_HDR);
		return;
	}
	CALL_VOID(fscache_go_free(p));
}

FSCACHE_EXPORT const char *fscache_version(void) { CALL(const char *, fscache_go_version()); }

FSCACHE_EXPORT int64_t fscache_debug_goroutines(void) { CALL(int64_t, fscache_go_debug_goroutines()); }
FSCACHE_EXPORT int64_t fscache_debug_goroutines_total(void) { CALL(int64_t, fscache_go_debug_goroutines_total()); }
FSCACHE_EXPORT int64_t fscache_debug_cache_entries(void) { CALL(int64_t, fscache_go_debug_cache_entries()); }
FSCACHE_EXPORT int64_t fscache_debug_cache_max_entries(void) { CALL(int64_t, fscache_go_debug_cache_max_entries()); }
FSCACHE_EXPORT char *fscache_debug_goroutine_stacks(void) { CALL(char *, fscache_go_debug_goroutine_stacks()); }
