/* What keeping the host's signals off goroutine stacks costs (issue 16,
 * capi/signals.c): each call of the C ABI blocks signals and restores the
 * caller's mask (two rt_sigprocmask system calls), and so does each
 * on_match callback. Compares, in one process, the exported wrappers with
 * the Go functions they wrap (fscache_go_*: not part of the ABI and not
 * exported by the shipped library; make bench-signals builds one that
 * exports them, build/out/bench-signals/), alternated round by round, and
 * prints the median of the rounds:
 *   - a trivial call (fscache_debug_cache_max_entries);
 *   - a cached glob of 2000 files with an on_match callback, per callback.
 * Run by `make bench-signals` (part of `make bench`):
 *
 *     fscache_signals_bench /path/to/libfscache.so
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "dlsym.h"

typedef void (*match_fn)(void *, const char *, size_t);
typedef char *(*glob_fn)(const char *, match_fn, void *, const volatile int32_t *);
typedef int64_t (*trivial_fn)(void);

#define ROUNDS 15
#define CALLS 100000
#define GLOBS 200
#define FILES 2000

static double now(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static long matches;

static void on_match(void *ctx, const char *json, size_t len) {
	(void)ctx;
	(void)json;
	(void)len;
	matches++;
}

static int cmp(const void *a, const void *b) {
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v) {
	qsort(v, ROUNDS, sizeof v[0], cmp);
	return v[ROUNDS / 2];
}

int main(int argc, char **argv) {
	if (argc != 2) {
		fprintf(stderr, "usage: %s /path/to/libfscache.so\n", argv[0]);
		return 2;
	}
	void *lib = dlopen(argv[1], RTLD_NOW);
	if (lib == NULL) {
		fprintf(stderr, "dlopen: %s\n", dlerror());
		return 2;
	}
	trivial_fn wrapped = (trivial_fn)sym(lib, "fscache_debug_cache_max_entries");
	trivial_fn direct = (trivial_fn)sym(lib, "fscache_go_debug_cache_max_entries");
	glob_fn glob_wrapped = (glob_fn)sym(lib, "fscache_glob");
	glob_fn glob_direct = (glob_fn)sym(lib, "fscache_go_glob");
	void (*free_result)(char *) = (void (*)(char *))sym(lib, "fscache_free");

	char root[] = "/tmp/fscache-signals-bench-XXXXXX", path[256], opt[256];
	if (mkdtemp(root) == NULL) {
		perror("mkdtemp");
		return 2;
	}
	for (int i = 0; i < FILES; i++) {
		snprintf(path, sizeof path, "%s/f%d.txt", root, i);
		FILE *f = fopen(path, "w");
		if (f == NULL) {
			perror(path);
			return 2;
		}
		fclose(f);
	}
	snprintf(opt, sizeof opt, "{\"pattern\":\"*.txt\",\"path\":\"%s\"}", root);
	free_result(glob_wrapped(opt, on_match, NULL, NULL)); /* fills the cache */

	double call_w[ROUNDS], call_d[ROUNDS], mask[ROUNDS], glob_w[ROUNDS], glob_d[ROUNDS];
	sigset_t all, old;
	sigfillset(&all);
	for (int r = 0; r < ROUNDS; r++) {
		double t = now();
		for (int i = 0; i < CALLS; i++) {
			wrapped();
		}
		call_w[r] = (now() - t) / CALLS;
		t = now();
		for (int i = 0; i < CALLS; i++) {
			direct();
		}
		call_d[r] = (now() - t) / CALLS;
		t = now();
		for (int i = 0; i < CALLS; i++) {
			pthread_sigmask(SIG_BLOCK, &all, &old);
			pthread_sigmask(SIG_SETMASK, &old, NULL);
		}
		mask[r] = (now() - t) / CALLS;
		matches = 0;
		t = now();
		for (int i = 0; i < GLOBS; i++) {
			free_result(glob_wrapped(opt, on_match, NULL, NULL));
		}
		glob_w[r] = (now() - t) / GLOBS;
		t = now();
		for (int i = 0; i < GLOBS; i++) {
			free_result(glob_direct(opt, on_match, NULL, NULL));
		}
		glob_d[r] = (now() - t) / GLOBS;
	}
	long per_glob = matches / (2 * GLOBS);
	double cw = median(call_w), cd = median(call_d), m = median(mask), gw = median(glob_w), gd = median(glob_d);
	printf("trivial call: %.0f ns through the C ABI, %.0f ns straight to Go: %.0f ns per call "
	       "(two sigprocmask calls alone: %.0f ns)\n",
	       cw * 1e9, cd * 1e9, (cw - cd) * 1e9, m * 1e9);
	printf("cached glob, %ld matches with on_match: %.0f us through the C ABI, %.0f us straight to Go: "
	       "%.0f ns per callback (the call's own cost taken out)\n",
	       per_glob, gw * 1e6, gd * 1e6, (gw - gd - (cw - cd)) / (double)per_glob * 1e9);

	for (int i = 0; i < FILES; i++) {
		snprintf(path, sizeof path, "%s/f%d.txt", root, i);
		unlink(path);
	}
	rmdir(root);
	return 0;
}
