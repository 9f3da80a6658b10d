/*
 * signals.h - internal to the library: the signal mask around calls into Go
 * (signals.c has the argument). Not part of the C ABI (include/fscache.h).
 */
#ifndef FSCACHE_CAPI_SIGNALS_H
#define FSCACHE_CAPI_SIGNALS_H

#include "fscache.h"

/* FSCACHE_INTERNAL: internal to the library, not exported from the shared
 * object. FSCACHE_EXPORT: a function of the C ABI (on Windows the DLL
 * exports only what is marked, as it does cgo's exports). */
#ifdef _WIN32
#define FSCACHE_INTERNAL
#define FSCACHE_EXPORT __declspec(dllexport)
#else
#define FSCACHE_INTERNAL __attribute__((visibility("hidden")))
#define FSCACHE_EXPORT
#endif

#ifndef _WIN32
#include <signal.h>

/* What fscache_signals_enter saves for fscache_signals_leave. */
typedef struct fscache_sigctx {
	sigset_t old;              /* the caller's mask */
	const sigset_t *prev;      /* the enclosing call's, when calls nest */
} fscache_sigctx;

/* Blocks the signals the library keeps off goroutine stacks on the calling
 * thread, saving its mask in *c; fscache_signals_leave restores it. */
FSCACHE_INTERNAL void fscache_signals_enter(fscache_sigctx *c);
FSCACHE_INTERNAL void fscache_signals_leave(fscache_sigctx *c);
#else
/* Windows has no signals: the wrappers are plain calls. */
typedef struct fscache_sigctx {
	char unused;
} fscache_sigctx;
static inline void fscache_signals_enter(fscache_sigctx *c) { (void)c; }
static inline void fscache_signals_leave(fscache_sigctx *c) { (void)c; }
#endif

/* Puts back the host's handlers that the Go runtime changed at load time
 * (idempotent); returns how many it restored. */
FSCACHE_INTERNAL int fscache_signals_restore(void);

/* Calls on_match with the caller's signal mask in force. */
FSCACHE_INTERNAL void fscache_signals_call_match(fscache_match_fn fn, void *ctx, const char *json, size_t len);

#endif
