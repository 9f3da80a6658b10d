/* C host test of issue 16: loading and calling fscache leaves the host's
 * signal handlers and masks alone, and keeps the host's signals off the
 * library's stacks (capi/signals.c has the argument, include/fscache.h's
 * "Signals" the contract). Linux only (it reads /proc/self/task). Built with
 * -std=c11 -Wall -Wextra -Werror by build/mk/signals.mk and run as
 *
 *     fscache_signals_test /path/to/libfscache.so
 *
 * The host installs handlers before it dlopens the library, as a runtime
 * such as Bun does, then checks:
 *   1. every sigaction is unchanged after the load and after calls, except
 *      the handlers Go installs itself (SIGSEGV, SIGBUS, SIGFPE, SIGPIPE,
 *      SIGURG, exactly) and SIGPROF, which keeps the SA_ONSTACK Go adds
 *      (the documented exception); the host thread's mask is unchanged;
 *   2. every thread the host did not create (the library's) blocks every
 *      signal but the documented ones (/proc/self/task/N/status, SigBlk);
 *   3. under a storm of signals sent while the library works on another
 *      thread (pthread_kill to the calling thread, kill() and sigqueue() to
 *      the process), every handler runs on a host thread, on that thread's
 *      own stack and not on its alternate stack, never with the interrupted
 *      program counter in the library's Go code; queued
 *      signals are each handled once; a signal raised inside on_match is
 *      handled at once (the callback runs with the caller's mask).
 * Exits non-zero on any failed check; prints the figures. */
#define _GNU_SOURCE
#include "fscache.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "check.h"
#include "dlsym.h"

#define NSIGS 65 /* signals 1..64 */

/* ------------------------------------------------------------ host threads */

/* A thread the host created, with its own stack's bounds. */
struct host_thread {
	pid_t tid;
	const char *name;
	uintptr_t stack_lo, stack_hi;
	_Atomic int in_callback; /* inside on_match */
	_Atomic long cb_signals; /* SIG_CB handled on this thread */
};

#define MAX_HOST 8
static struct host_thread hosts[MAX_HOST];
static _Atomic int nhosts;
static _Thread_local struct host_thread *self;

static void register_host(const char *name) {
	int i = atomic_fetch_add(&nhosts, 1);
	if (i >= MAX_HOST) {
		fprintf(stderr, "too many host threads\n");
		exit(2);
	}
	struct host_thread *h = &hosts[i];
	pthread_attr_t a;
	void *lo;
	size_t size;
	if (pthread_getattr_np(pthread_self(), &a) != 0 || pthread_attr_getstack(&a, &lo, &size) != 0) {
		fprintf(stderr, "pthread_getattr_np failed\n");
		exit(2);
	}
	pthread_attr_destroy(&a);
	h->tid = (pid_t)syscall(SYS_gettid);
	h->name = name;
	h->stack_lo = (uintptr_t)lo;
	h->stack_hi = (uintptr_t)lo + size;
	self = h;
}

static int is_host_tid(pid_t tid) {
	for (int i = 0; i < atomic_load(&nhosts); i++) {
		if (hosts[i].tid == tid) {
			return 1;
		}
	}
	return 0;
}

/* ----------------------------------------------------------------- handler */

/* The library's Go code, runtime.text to runtime.etext: a program counter
 * there when a signal arrives means the thread was running Go code (the
 * C wrappers and the on_match trampoline, which switch masks, lie
 * outside). */
static uintptr_t go_text_lo, go_text_hi;

#define SIG_CB (SIGRTMIN + 6) /* raised by on_match on its own thread */
#define SIG_Q (SIGRTMIN + 5)  /* queued to the process: counted exactly */

static _Atomic long handled[NSIGS];
static _Atomic long foreign_thread; /* ran on a thread the host did not create */
static _Atomic long off_stack;      /* not on the thread's own stack */
static _Atomic long on_altstack;    /* on the alternate stack (no SA_ONSTACK) */
static _Atomic long in_library;     /* interrupted the library's Go code */
static _Atomic long in_callback[NSIGS];

static uintptr_t context_pc(void *ucv) {
	ucontext_t *uc = ucv;
#if defined(__x86_64__)
	return (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
	return (uintptr_t)uc->uc_mcontext.pc;
#else
	(void)uc;
	return 0;
#endif
}

static void on_signal(int sig, siginfo_t *si, void *uc) {
	(void)si;
	int saved = errno;
	char here;
	uintptr_t sp = (uintptr_t)&here;
	stack_t ss;
	atomic_fetch_add(&handled[sig], 1);
	struct host_thread *h = self;
	/* Only SIGWINCH's handler has SA_ONSTACK, and it blocks the other
	 * signals (a handler nested in it would run on the alternate stack
	 * too, where the kernel found the thread). */
	int alt = sigaltstack(NULL, &ss) == 0 && (ss.ss_flags & SS_ONSTACK);
	if (alt && sig != SIGWINCH) {
		atomic_fetch_add(&on_altstack, 1);
	}
	if (h == NULL) {
		atomic_fetch_add(&foreign_thread, 1);
	} else {
		if (!alt && (sp < h->stack_lo || sp >= h->stack_hi)) {
			atomic_fetch_add(&off_stack, 1);
		}
		if (atomic_load(&h->in_callback)) {
			atomic_fetch_add(&in_callback[sig], 1);
		}
		if (sig == SIG_CB) {
			atomic_fetch_add(&h->cb_signals, 1);
		}
	}
	uintptr_t pc = context_pc(uc);
	if (pc >= go_text_lo && pc < go_text_hi) {
		atomic_fetch_add(&in_library, 1);
	}
	errno = saved;
}

/* The host's handlers: flags and masks of several kinds. SIGWINCH is the
 * one with SA_ONSTACK. */
static void install(int sig, int flags, const sigset_t *mask) {
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO | flags;
	sa.sa_mask = *mask;
	if (sigaction(sig, &sa, NULL) != 0) {
		perror("sigaction");
		exit(2);
	}
}

/* ------------------------------------------------------------- sigactions */

static struct sigaction before[NSIGS];

static int glibc_internal(int s) { return s == 32 || s == 33; } /* sigaction() refuses them */

static void record_all(struct sigaction *out) {
	for (int s = 1; s < NSIGS; s++) {
		memset(&out[s], 0, sizeof out[s]);
		if (!glibc_internal(s) && sigaction(s, NULL, &out[s]) != 0) {
			perror("sigaction");
			exit(2);
		}
	}
}

static int same_mask(const sigset_t *a, const sigset_t *b) {
	for (int s = 1; s < NSIGS; s++) {
		if (sigismember(a, s) != sigismember(b, s)) {
			return 0;
		}
	}
	return 1;
}

static int go_installs(int s) {
	return s == SIGSEGV || s == SIGBUS || s == SIGFPE || s == SIGPIPE || s == SIGURG;
}

static void check_sigactions(const char *when) {
	struct sigaction now[NSIGS];
	record_all(now);
	for (int s = 1; s < NSIGS; s++) {
		const struct sigaction *b = &before[s], *a = &now[s];
		if (glibc_internal(s)) {
			continue;
		}
		if (go_installs(s)) {
			CHECK(a->sa_sigaction != b->sa_sigaction && (a->sa_flags & SA_ONSTACK) && (a->sa_flags & SA_SIGINFO),
			      "%s: signal %d (%s): Go's own handler expected", when, s, strsignal(s));
			continue;
		}
		int flags = b->sa_flags;
		if (s == SIGPROF) { /* the documented exception: Go keeps SA_ONSTACK */
			flags |= SA_ONSTACK;
		}
		/* The restorer counts with SA_RESTORER only (x86-64; arm64 ignores it). */
		int same_restorer = (b->sa_flags & 0x04000000) == 0 || a->sa_restorer == b->sa_restorer;
		CHECK(a->sa_sigaction == b->sa_sigaction && a->sa_flags == flags && same_restorer &&
		          same_mask(&a->sa_mask, &b->sa_mask),
		      "%s: signal %d (%s) changed: flags %#x -> %#x, handler %s", when, s, strsignal(s), b->sa_flags,
		      a->sa_flags, a->sa_sigaction == b->sa_sigaction ? "same" : "replaced");
	}
}

static void check_mask(const sigset_t *want, const char *when) {
	sigset_t cur;
	pthread_sigmask(SIG_SETMASK, NULL, &cur);
	CHECK(same_mask(&cur, want), "%s: the thread's signal mask changed", when);
}

/* ---------------------------------------------------------- library threads */

/* The signals Go's threads may leave unblocked: those that cannot be
 * blocked, the synchronous ones, SIGURG and SIGPIPE (Go's handlers), and
 * those Go never lets its threads block (SIGCHLD, SIGPROF, SIGSTKFLT,
 * 32-34). */
static int may_be_unblocked(int s) {
	switch (s) {
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
	case SIGCHLD:
	case SIGPROF:
	case SIGSTKFLT:
		return 1;
	}
	return s >= 32 && s <= 34;
}

/* Checks every thread the host did not create; returns how many. */
static int check_library_threads(const char *when) {
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int n = 0;
	if (d == NULL) {
		perror("/proc/self/task");
		exit(2);
	}
	while ((e = readdir(d)) != NULL) {
		pid_t tid = (pid_t)atoi(e->d_name);
		char path[64], line[256];
		unsigned long long blk = 0;
		int found = 0;
		if (tid <= 0 || is_host_tid(tid)) {
			continue;
		}
		snprintf(path, sizeof path, "/proc/self/task/%d/status", (int)tid);
		FILE *f = fopen(path, "r");
		if (f == NULL) {
			continue; /* exited meanwhile */
		}
		while (fgets(line, sizeof line, f)) {
			if (sscanf(line, "SigBlk: %llx", &blk) == 1) {
				found = 1;
			}
		}
		fclose(f);
		if (!found) {
			continue;
		}
		n++;
		for (int s = 1; s < NSIGS; s++) {
			if (!may_be_unblocked(s)) {
				CHECK(blk & (1ULL << (s - 1)), "%s: library thread %d does not block signal %d (%s), SigBlk %016llx",
				      when, (int)tid, s, strsignal(s), blk);
			}
		}
	}
	closedir(d);
	return n;
}

/* ------------------------------------------------------------------ library */

typedef char *(*search_fn)(const char *, fscache_match_fn, void *, const volatile int32_t *);
typedef char *(*query_fn)(const char *, const volatile int32_t *);

static search_fn p_glob, p_grep;
static query_fn p_fuzzy, p_list;
static char *(*p_stats)(void);
static void (*p_invalidate)(const char *);
static void (*p_free)(char *);
static const char *(*p_version)(void);
static int64_t (*p_goroutines)(void);

/* Finds runtime.text and runtime.etext in the library's symbol table
 * (the build does not strip it) and relocates them by bias. */
static void find_go_text(const char *path, uintptr_t bias) {
	FILE *f = fopen(path, "rb");
	long size;
	unsigned char *b;
	if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET) != 0 ||
	    (b = malloc((size_t)size)) == NULL || fread(b, 1, (size_t)size, f) != (size_t)size) {
		fprintf(stderr, "cannot read %s\n", path);
		exit(2);
	}
	fclose(f);
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)b;
	const Elf64_Shdr *sh = (const Elf64_Shdr *)(b + eh->e_shoff);
	for (int i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_type != SHT_SYMTAB) {
			continue;
		}
		const Elf64_Sym *sym = (const Elf64_Sym *)(b + sh[i].sh_offset);
		const char *names = (const char *)(b + sh[sh[i].sh_link].sh_offset);
		for (size_t j = 0; j < sh[i].sh_size / sizeof *sym; j++) {
			if (strcmp(names + sym[j].st_name, "runtime.text") == 0) {
				go_text_lo = bias + sym[j].st_value;
			} else if (strcmp(names + sym[j].st_name, "runtime.etext") == 0) {
				go_text_hi = bias + sym[j].st_value;
			}
		}
	}
	free(b);
	if (go_text_lo == 0 || go_text_hi <= go_text_lo) {
		fprintf(stderr, "%s: no runtime.text/runtime.etext in its symbol table (stripped?)\n", path);
		exit(2);
	}
}

static void load(const char *path) {
	void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	struct link_map *lm;
	if (lib == NULL) {
		fprintf(stderr, "dlopen %s: %s\n", path, dlerror());
		exit(2);
	}
	p_glob = (search_fn)sym(lib, "fscache_glob");
	p_grep = (search_fn)sym(lib, "fscache_grep");
	p_fuzzy = (query_fn)sym(lib, "fscache_fuzzy_find");
	p_list = (query_fn)sym(lib, "fscache_list_workspace");
	p_stats = (char *(*)(void))sym(lib, "fscache_cache_stats");
	p_invalidate = (void (*)(const char *))sym(lib, "fscache_invalidate");
	p_free = (void (*)(char *))sym(lib, "fscache_free");
	p_version = (const char *(*)(void))sym(lib, "fscache_version");
	p_goroutines = (int64_t (*)(void))sym(lib, "fscache_debug_goroutines");
	if (dlinfo(lib, RTLD_DI_LINKMAP, &lm) != 0) {
		fprintf(stderr, "dlinfo: %s\n", dlerror());
		exit(2);
	}
	find_go_text(path, (uintptr_t)lm->l_addr);
}

static char root[256];
static char opt_glob[512], opt_grep[512], opt_fuzzy[512], opt_list[512];

static void make_tree(void) {
	char p[512];
	strcpy(root, "/tmp/fscache-signals-XXXXXX");
	if (mkdtemp(root) == NULL) {
		perror("mkdtemp");
		exit(2);
	}
	for (int d = 0; d < 8; d++) {
		snprintf(p, sizeof p, "%s/dir%d", root, d);
		mkdir(p, 0755);
		for (int f = 0; f < 40; f++) {
			snprintf(p, sizeof p, "%s/dir%d/file%d.txt", root, d, f);
			FILE *fp = fopen(p, "w");
			if (fp == NULL) {
				perror(p);
				exit(2);
			}
			for (int l = 0; l < 20; l++) {
				fprintf(fp, "line %d of file %d: needle %d\n", l, f, l * f);
			}
			fclose(fp);
		}
	}
	snprintf(opt_glob, sizeof opt_glob, "{\"pattern\":\"**/*.txt\",\"path\":\"%s\"}", root);
	snprintf(opt_grep, sizeof opt_grep, "{\"pattern\":\"needle 1\",\"path\":\"%s\"}", root);
	snprintf(opt_fuzzy, sizeof opt_fuzzy, "{\"query\":\"file1\",\"path\":\"%s\",\"maxResults\":20}", root);
	snprintf(opt_list, sizeof opt_list, "{\"path\":\"%s\",\"maxDepth\":2}", root);
}

static void remove_tree(void) {
	char p[512];
	for (int d = 0; d < 8; d++) {
		for (int f = 0; f < 40; f++) {
			snprintf(p, sizeof p, "%s/dir%d/file%d.txt", root, d, f);
			unlink(p);
		}
		snprintf(p, sizeof p, "%s/dir%d", root, d);
		rmdir(p);
	}
	rmdir(root);
}

static _Atomic long callbacks;
static _Atomic long cb_sync_failures;

/* on_match: raises SIG_CB on its own thread and checks that it was handled
 * before pthread_kill returned (the caller's mask is in force here), then
 * lingers a little so that signals from the sender land in callbacks too. */
static void on_match(void *ctx, const char *json, size_t len) {
	(void)ctx;
	(void)json;
	(void)len;
	struct host_thread *h = self;
	atomic_fetch_add(&callbacks, 1);
	if (h == NULL) {
		atomic_fetch_add(&cb_sync_failures, 1);
		return;
	}
	atomic_store(&h->in_callback, 1);
	long n = atomic_load(&h->cb_signals);
	pthread_kill(pthread_self(), SIG_CB);
	if (atomic_load(&h->cb_signals) != n + 1) {
		atomic_fetch_add(&cb_sync_failures, 1);
	}
	for (volatile int i = 0; i < 2000; i++) {
	}
	atomic_store(&h->in_callback, 0);
}

static int is_ok(const char *r) { return r != NULL && strncmp(r, "{\"ok\":", 6) == 0; }

/* One round of every call; returns the number of failed calls. */
static int call_all(void) {
	int bad = 0;
	char *r;
	r = p_glob(opt_glob, on_match, NULL, NULL);
	bad += !is_ok(r);
	p_free(r);
	r = p_grep(opt_grep, on_match, NULL, NULL);
	bad += !is_ok(r);
	p_free(r);
	r = p_fuzzy(opt_fuzzy, NULL);
	bad += !is_ok(r);
	p_free(r);
	r = p_list(opt_list, NULL);
	bad += !is_ok(r);
	p_free(r);
	r = p_stats();
	bad += !is_ok(r);
	p_free(r);
	bad += p_goroutines() < 1;
	p_invalidate(root);
	return bad;
}

/* ------------------------------------------------------------------- storm */

#define WORKER_ROUNDS 150

static _Atomic int stop;
static _Atomic int worker_bad_calls, worker_mask_changes;
static pthread_t worker_thread, receiver_thread;
static _Atomic int ready;
static long sent_q;

/* The signals the storm sends. */
static void storm_set(sigset_t *set) {
	sigemptyset(set);
	sigaddset(set, SIGPWR);
	sigaddset(set, SIGUSR1);
	sigaddset(set, SIGUSR2);
	sigaddset(set, SIGWINCH);
	sigaddset(set, SIG_Q);
}

/* Calls the library in a loop, with on_match, checking its own mask after
 * every round. */
static void *worker(void *arg) {
	(void)arg;
	sigset_t mine;
	register_host("worker");
	storm_set(&mine); /* created while the main thread blocks them */
	pthread_sigmask(SIG_UNBLOCK, &mine, NULL);
	pthread_sigmask(SIG_SETMASK, NULL, &mine);
	atomic_fetch_add(&ready, 1);
	for (int i = 0; i < WORKER_ROUNDS; i++) {
		atomic_fetch_add(&worker_bad_calls, call_all());
		sigset_t cur;
		pthread_sigmask(SIG_SETMASK, NULL, &cur);
		if (!same_mask(&cur, &mine)) {
			atomic_fetch_add(&worker_mask_changes, 1);
		}
	}
	atomic_store(&stop, 1);
	return NULL;
}

/* A host thread that only sleeps, with every signal unblocked. */
static void *receiver(void *arg) {
	(void)arg;
	sigset_t set;
	storm_set(&set);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	register_host("receiver");
	atomic_fetch_add(&ready, 1);
	while (!atomic_load(&stop)) {
		struct timespec ts = {0, 1000000};
		nanosleep(&ts, NULL);
	}
	return NULL;
}

/* Sends, until the worker is done: SIGUSR1 to the worker (mostly inside
 * calls), SIGPWR, SIGUSR2 and SIGWINCH to the process, SIG_Q queued to the
 * process. It blocks them itself, as the main thread does meanwhile, so
 * that the kernel must pick another thread for the process's signals. */
static void *sender(void *arg) {
	(void)arg;
	sigset_t set;
	storm_set(&set);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	register_host("sender");
	long rounds = 0;
	while (!atomic_load(&stop)) {
		union sigval v = {0};
		pthread_kill(worker_thread, SIGUSR1);
		kill(getpid(), SIGPWR);
		pthread_kill(worker_thread, SIGUSR1);
		kill(getpid(), SIGUSR2);
		if (rounds % 4 == 0) {
			kill(getpid(), SIGWINCH);
		}
		if (sigqueue(getpid(), SIG_Q, v) == 0) {
			sent_q++;
		}
		struct timespec ts = {0, 100000};
		nanosleep(&ts, NULL);
		rounds++;
	}
	return NULL;
}

int main(int argc, char **argv) {
	sigset_t main_mask, storm;
	pthread_t snd;
	if (argc != 2) {
		fprintf(stderr, "usage: %s /path/to/libfscache.so\n", argv[0]);
		return 2;
	}
	register_host("main");

	/* The host's handlers, installed before the library is loaded. */
	sigset_t none, usr2, winch_mask;
	sigemptyset(&none);
	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	storm_set(&winch_mask);
	sigaddset(&winch_mask, SIGINT);
	sigaddset(&winch_mask, SIGTERM);
	install(SIGPWR, 0, &none);
	install(SIGUSR1, SA_RESTART, &usr2);
	install(SIGUSR2, 0, &none);
	install(SIGPROF, SA_RESTART, &none);
	install(SIGWINCH, SA_ONSTACK | SA_RESTART, &winch_mask);
	install(SIG_Q, SA_RESTART, &none);
	install(SIG_CB, 0, &none);
	/* The main thread's mask: one signal blocked, to see it kept. */
	sigemptyset(&main_mask);
	sigaddset(&main_mask, SIGQUIT);
	pthread_sigmask(SIG_SETMASK, &main_mask, NULL);
	record_all(before);

	load(argv[1]);
	check_sigactions("after dlopen");
	check_mask(&main_mask, "after dlopen");

	make_tree();
	int bad = call_all();
	CHECK(bad == 0, "%d calls on the main thread failed", bad);
	CHECK(atomic_load(&cb_sync_failures) == 0, "a signal raised in on_match was not handled at once");
	check_sigactions("after calls");
	check_mask(&main_mask, "after calls");
	int lib_threads = check_library_threads("after calls");
	CHECK(lib_threads >= 2, "only %d library threads found", lib_threads);
	printf("version %s, %d library threads, each blocking every signal but the documented ones\n", p_version(),
	       lib_threads);

	/* The storm. */
	storm_set(&storm);
	pthread_sigmask(SIG_BLOCK, &storm, NULL);
	pthread_create(&worker_thread, NULL, worker, NULL);
	pthread_create(&receiver_thread, NULL, receiver, NULL);
	while (atomic_load(&ready) < 2) {
		sched_yield();
	}
	pthread_create(&snd, NULL, sender, NULL);
	pthread_join(worker_thread, NULL);
	pthread_join(snd, NULL);
	pthread_join(receiver_thread, NULL);
	/* What is still pending for the process is delivered here. */
	pthread_sigmask(SIG_SETMASK, &main_mask, NULL);

	lib_threads = check_library_threads("after the storm");
	check_sigactions("after the storm");
	check_mask(&main_mask, "after the storm");
	remove_tree();

	long user1 = atomic_load(&handled[SIGUSR1]), pwr = atomic_load(&handled[SIGPWR]);
	long user2 = atomic_load(&handled[SIGUSR2]), winch = atomic_load(&handled[SIGWINCH]);
	long q = atomic_load(&handled[SIG_Q]), cb = atomic_load(&handled[SIG_CB]);
	printf("storm: %d library threads; handled SIGUSR1 %ld (%ld in on_match), SIGPWR %ld, SIGUSR2 %ld, SIGWINCH %ld, "
	       "queued %ld of %ld, raised in on_match %ld of %ld callbacks\n",
	       lib_threads, user1, atomic_load(&in_callback[SIGUSR1]), pwr, user2, winch, q, sent_q, cb,
	       atomic_load(&callbacks));
	printf("handlers on a library thread %ld, off the thread's stack %ld, on the alternate stack %ld, "
	       "interrupting Go code %ld\n",
	       atomic_load(&foreign_thread), atomic_load(&off_stack), atomic_load(&on_altstack),
	       atomic_load(&in_library));

	CHECK(atomic_load(&worker_bad_calls) == 0, "%d calls on the worker failed", atomic_load(&worker_bad_calls));
	CHECK(atomic_load(&worker_mask_changes) == 0, "the worker's mask changed across %d calls",
	      atomic_load(&worker_mask_changes));
	CHECK(atomic_load(&foreign_thread) == 0, "%ld handlers ran on a library thread", atomic_load(&foreign_thread));
	CHECK(atomic_load(&off_stack) == 0, "%ld handlers ran off their thread's stack", atomic_load(&off_stack));
	CHECK(atomic_load(&on_altstack) == 0, "%ld handlers without SA_ONSTACK ran on the alternate stack",
	      atomic_load(&on_altstack));
	CHECK(atomic_load(&in_library) == 0, "%ld handlers interrupted the library's Go code", atomic_load(&in_library));
	CHECK(atomic_load(&cb_sync_failures) == 0, "%ld signals raised in on_match were not handled at once",
	      atomic_load(&cb_sync_failures));
	CHECK(cb == atomic_load(&callbacks) && cb > 0, "raised in on_match: %ld handled, %ld callbacks", cb,
	      atomic_load(&callbacks));
	CHECK(q == sent_q && q > 0, "queued signals: %ld handled, %ld sent", q, sent_q);
	CHECK(user1 > 0 && pwr > 0 && user2 > 0 && winch > 0, "some signal was never handled");

	printf("%d checks, %d failures\n", checks, failures);
	return failures == 0 ? 0 : 1;
}
