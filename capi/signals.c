/*
 * signals.c - the library leaves the host's signal handlers alone (issue 16).
 *
 * The problem
 * -----------
 * When a Go c-shared library is loaded, its constructor (_rt0_amd64_lib,
 * runtime/asm_amd64.s; arm64 alike) calls runtime.libpreinit synchronously
 * on the loading thread, which calls initsig(true) (runtime/signal_unix.go).
 * For every signal it does not take over, initsig calls setsigstack, which
 * adds SA_ONSTACK to the handler the host already installed. In c-shared mode
 * sigInstallGoHandler takes over only the synchronous signals that become
 * panics (sigtable's _SigPanic: SIGSEGV, SIGBUS, SIGFPE), SIGPIPE and the
 * preemption signal SIGURG, saving the host's handler to forward to. Every
 * other host handler (SIGPWR, SIGUSR1, SIGUSR2, SIGPROF, real-time signals,
 * ...) kept its function but gained SA_ONSTACK. JavaScriptCore's thread
 * suspension handler (SIGPWR in Bun) refuses to run on an alternate stack,
 * so Thread::suspend() retried forever: Bun 1.3.13/1.3.14 hung
 * (oven-sh/bun#31158, WebKit PR 65562).
 *
 * Why Go adds SA_ONSTACK: a host handler must never run on a goroutine
 * stack. Those are small (from 8 KB), grow only at function prologues and
 * have no guard page, and a kernel signal frame with xsave state takes
 * several KB. SA_ONSTACK sends the handler to the thread's alternate stack
 * (Go installs its gsignal stack as one on every thread that runs Go code,
 * minitSignalStack). A handler can land on a goroutine stack only when its
 * signal is delivered to a thread that is running Go code on a goroutine
 * stack: Go's own threads, and a host thread inside a call into the library
 * (cgo runs the exported function on a goroutine stack; C code called from
 * Go, such as on_match, runs on the thread's own stack, g0).
 *
 * What this file does instead
 * ---------------------------
 * It keeps those signals away from goroutine stacks with signal masks, and
 * puts the handlers back as the host gave them.
 *
 * 1. Go's threads block them. A thread Go creates takes its mask from
 *    initSigmask (newm: mp.sigmask = initSigmask), which schedinit captures
 *    with sigsave on the thread that initializes the runtime. In c-shared
 *    mode that thread is created by the library constructor through
 *    _cgo_sys_thread_create = x_cgo_sys_thread_create (runtime/cgo/
 *    gcc_libinit.c), a plain pthread_create, so it starts with the loading
 *    thread's mask. fscache_signals_before_go, a constructor with priority
 *    101, runs before Go's (the linker sorts prioritized .init_array entries
 *    first; Go's entry is unprioritized): it records every sigaction and
 *    blocks, on the loading thread, every signal the library may block (see
 *    may_block). Go's constructor then runs libpreinit and creates the init
 *    thread with that mask. fscache_signals_after_go, an unprioritized
 *    constructor in an object that comes after go.o (the Go linker passes
 *    go.o first to the host linker), restores the handlers and the loading
 *    thread's mask. The built library's .init_array (Go 1.26, GNU ld) reads:
 *    fscache_signals_before_go, frame_dummy (crtbeginS.o),
 *    _rt0_amd64_linux_lib (go.o), fscache_signals_after_go. minitSignalMask still unblocks on every Go thread what
 *    Go needs (SIGURG for preemption, and the signals blockableSig refuses:
 *    sigtable's _SigUnblock), so Go loses nothing. Blocking every blockable
 *    asynchronous signal, not only those with a handler at load time, also
 *    keeps handlers the host installs later off Go's threads (Go never adds
 *    SA_ONSTACK to those).
 *
 * 2. A host thread inside a call blocks them: every exported function is a
 *    C wrapper (exports.c) that blocks the same set around the Go call and
 *    restores the caller's mask after. A signal sent to the thread meanwhile
 *    stays pending and is delivered when the call returns; a
 *    process-directed one goes to a thread that does not block it. The
 *    caller's mask is kept in a thread-local, and the trampoline that calls
 *    on_match restores it around the callback (which runs on the thread's
 *    own stack): a callback may need its signals, as when JavaScriptCore
 *    code run by a Bun JSCallback collects and must suspend, or be
 *    suspended by, another thread. On a thread's first call Go binds an M
 *    to it (needm, minit) and minitSignalMask unblocks the _SigUnblock
 *    signals for that call; later calls keep the wrapper's mask, since Go
 *    does not run minit again for a bound M.
 *
 * 3. The handlers are put back: for every signal whose handler is still the
 *    one recorded, and whose only change is the SA_ONSTACK that setsigstack
 *    added, the recorded sigaction is installed again, byte for byte (on
 *    Linux through the rt_sigaction system call, as Go's runtime does, so
 *    that the restorer is kept too). Handlers Go replaced with its own are
 *    left to Go; they forward what is not Go's to the saved host handler.
 *    The restore is idempotent and also runs from a Go init function
 *    (signals.go) in case the constructors ran in another order.
 *
 * The exception: signals Go never lets its threads block
 * -------------------------------------------------------
 * blockableSig refuses to block sigtable's _SigUnblock signals on any
 * thread running Go: besides the synchronous ones, SIGCHLD, SIGPROF,
 * SIGSTKFLT and 32-34 on Linux (glibc's SIGCANCEL and SIGSETXID, musl's
 * SIGSYNCCALL; glibc's SIGRTMIN is 34), SIGCHLD and SIGPROF on macOS.
 * Those can be delivered to Go's threads whatever the mask says (an
 * ITIMER_PROF SIGPROF even prefers the thread that was running, often a
 * library worker), so for them SA_ONSTACK is the only thing that keeps a
 * host handler off a goroutine stack, and the library leaves it as Go set
 * it (handler and mask unchanged). glibc's sigaction() refuses 32 and 33
 * anyway, and glibc 2.34 on installs its handlers for them lazily, after
 * the library is loaded (Go's issues 3871 and 9400 were about them).
 * Synchronous signals (SIGILL, SIGTRAP, SIGSYS, ...) are raised by the
 * faulting instruction itself: their handlers are restored exactly (Go code
 * raises them only when it is about to crash).
 *
 * On Windows there are no signals: every function here is empty and the
 * wrappers are plain calls.
 */
#include "signals.h"

#ifndef _WIN32

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>
#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
#include <sys/syscall.h>
#include <unistd.h>
#define FSCACHE_RAW_SIGACTION 1
#endif

/* The number of signals: 1 .. FSCACHE_NSIG-1. */
#if defined(_NSIG)
#define FSCACHE_NSIG _NSIG
#elif defined(NSIG)
#define FSCACHE_NSIG NSIG
#else
#define FSCACHE_NSIG 65
#endif

/* may_block reports whether the library blocks sig on its threads and
 * during calls: every signal but those that cannot be blocked, the
 * synchronous ones (blocking one the kernel raises kills the process) and
 * the two Go installs its own handler for and needs on its threads, SIGURG
 * (preemption) and SIGPIPE (raised by a write). glibc's pthread_sigmask
 * itself leaves its internal signals 32 and 33 unblocked. */
static int may_block(int sig) {
	switch (sig) {
	case SIGKILL:
	case SIGSTOP:
	case SIGSEGV:
	case SIGBUS:
	case SIGFPE:
	case SIGILL:
	case SIGTRAP:
	case SIGSYS:
	case SIGURG:
	case SIGPIPE:
		return 0;
	}
	return 1;
}

/* go_keeps_onstack reports whether sig is an asynchronous signal that Go
 * unblocks on every thread it runs (sigtable's _SigUnblock, see the
 * exception above): its SA_ONSTACK is left as Go set it. */
static int go_keeps_onstack(int sig) {
	switch (sig) {
	case SIGCHLD:
	case SIGPROF:
#ifdef SIGSTKFLT
	case SIGSTKFLT:
#endif
		return 1;
	}
#ifdef __linux__
	if (sig >= 32 && sig <= 34) {
		return 1;
	}
#endif
	return 0;
}

/* A disposition, as the kernel keeps it on Linux (the layout of struct
 * sigaction for rt_sigaction on x86-64 and arm64, Go's sigactiont), or
 * libc's struct sigaction elsewhere. */
#ifdef FSCACHE_RAW_SIGACTION
typedef struct {
	void *handler;
	unsigned long flags;
	void *restorer;
	unsigned long mask;
} action;

static int get_action(int sig, action *a) {
	memset(a, 0, sizeof *a);
	return (int)syscall(SYS_rt_sigaction, sig, NULL, a, sizeof a->mask);
}

static int set_action(int sig, const action *a) {
	return (int)syscall(SYS_rt_sigaction, sig, a, NULL, sizeof a->mask);
}

static void *action_handler(const action *a) { return a->handler; }
static unsigned long action_flags(const action *a) { return (unsigned long)a->flags; }
static int same_mask(const action *a, const action *b) { return a->mask == b->mask; }
/* The restorer matters only with SA_RESTORER (x86-64, where libc sets it);
 * arm64 returns through the vDSO and ignores the field. */
#define FSCACHE_SA_RESTORER 0x04000000UL
static int same_restorer(const action *a, const action *b) {
	return (a->flags & FSCACHE_SA_RESTORER) == 0 || a->restorer == b->restorer;
}
#else
typedef struct sigaction action;

static int get_action(int sig, action *a) {
	memset(a, 0, sizeof *a);
	return sigaction(sig, NULL, a);
}

static int set_action(int sig, const action *a) { return sigaction(sig, a, NULL); }

static void *action_handler(const action *a) {
	void *h;
	memcpy(&h, &a->sa_handler, sizeof h); /* a function pointer, compared as an address */
	return h;
}
static unsigned long action_flags(const action *a) { return (unsigned long)a->sa_flags; }

static int same_mask(const action *a, const action *b) {
	for (int s = 1; s < FSCACHE_NSIG; s++) {
		if (sigismember(&a->sa_mask, s) != sigismember(&b->sa_mask, s)) {
			return 0;
		}
	}
	return 1;
}
static int same_restorer(const action *a, const action *b) {
	(void)a;
	(void)b;
	return 1;
}
#endif

/* What the host had installed when the library started loading. Written
 * once by fscache_signals_before_go, before any other thread of the
 * library exists; read-only after. */
static action recorded[FSCACHE_NSIG];
static unsigned char recorded_ok[FSCACHE_NSIG];

/* The signals blocked on Go's threads and during calls (may_block). */
static sigset_t library_block;
static int library_block_ready;

/* The loading thread's mask, restored by fscache_signals_after_go. */
static sigset_t loading_mask;
static int loading_mask_saved;

static void init_block_set(void) {
	if (library_block_ready) {
		return;
	}
	sigemptyset(&library_block);
	for (int s = 1; s < FSCACHE_NSIG; s++) {
		if (may_block(s)) {
			sigaddset(&library_block, s); /* fails harmlessly for 32, 33 on glibc */
		}
	}
	library_block_ready = 1;
}

#if defined(__APPLE__)
/* Mach-O has no initializer priorities (and zig 0.11's linker, which
 * builds the darwin packages, has no -init): this runs after Go's
 * initializer (go.o comes first in the link; build/darwin/
 * check-macho.sh checks the order), when Go's init thread already has the
 * loading thread's mask and setsigstack has already run. So Go's threads
 * do not block the host's signals, and the handlers recorded here already
 * carry Go's SA_ONSTACK, which the restore therefore leaves: macOS keeps
 * Go's default, as fscache.h says. */
#define FSCACHE_BEFORE_GO __attribute__((constructor))
#else
#define FSCACHE_BEFORE_GO __attribute__((constructor(101)))
#endif

FSCACHE_BEFORE_GO static void fscache_signals_before_go(void) {
	for (int s = 1; s < FSCACHE_NSIG; s++) {
		recorded_ok[s] = get_action(s, &recorded[s]) == 0;
	}
	init_block_set();
	loading_mask_saved = pthread_sigmask(SIG_BLOCK, &library_block, &loading_mask) == 0;
}

int fscache_signals_restore(void) {
	int restored = 0;
	for (int s = 1; s < FSCACHE_NSIG; s++) {
		const action *r = &recorded[s];
		action cur;
		void *h = action_handler(r);
		if (!recorded_ok[s] || h == (void *)SIG_DFL || h == (void *)SIG_IGN || go_keeps_onstack(s)) {
			continue;
		}
		if ((action_flags(r) & SA_ONSTACK) != 0 || get_action(s, &cur) != 0) {
			continue;
		}
		/* Exactly setsigstack's change and nothing else: a handler Go
		 * replaced, or one the host has changed since, is not touched. */
		if (action_handler(&cur) != h || action_flags(&cur) != (action_flags(r) | SA_ONSTACK) ||
		    !same_mask(&cur, r) || !same_restorer(&cur, r)) {
			continue;
		}
		if (set_action(s, r) == 0) {
			restored++;
		}
	}
	return restored;
}

__attribute__((constructor)) static void fscache_signals_after_go(void) {
	fscache_signals_restore();
	if (loading_mask_saved) {
		loading_mask_saved = 0;
		pthread_sigmask(SIG_SETMASK, &loading_mask, NULL);
	}
}

/* The caller's mask while the thread is inside a call: set by
 * fscache_signals_enter, read by the on_match trampoline. Calls may nest
 * (a callback calling the library), so each enter keeps the previous
 * pointer and leave puts it back. */
static __thread const sigset_t *caller_mask;

void fscache_signals_enter(fscache_sigctx *c) {
	if (!library_block_ready) {
		init_block_set(); /* only when the constructor did not run */
	}
	pthread_sigmask(SIG_BLOCK, &library_block, &c->old);
	c->prev = caller_mask;
	caller_mask = &c->old;
}

void fscache_signals_leave(fscache_sigctx *c) {
	caller_mask = c->prev;
	pthread_sigmask(SIG_SETMASK, &c->old, NULL);
}

void fscache_signals_call_match(fscache_match_fn fn, void *ctx, const char *json, size_t len) {
	const sigset_t *m = caller_mask;
	sigset_t in_go;
	if (m == NULL) { /* not through a wrapper (Go's own tests) */
		fn(ctx, json, len);
		return;
	}
	pthread_sigmask(SIG_SETMASK, m, &in_go);
	fn(ctx, json, len);
	pthread_sigmask(SIG_SETMASK, &in_go, NULL);
}

#else /* _WIN32 */

int fscache_signals_restore(void) { return 0; }

void fscache_signals_call_match(fscache_match_fn fn, void *ctx, const char *json, size_t len) {
	fn(ctx, json, len);
}

#endif
