/* Stress test of the fscache C ABI from many POSIX threads.
 *
 * THREADS threads make mixed calls (glob with and without the cache,
 * fuzzy find, grep with a callback, invalidations of one path and of
 * everything, calls cancelled by another thread mid-flight, calls with a
 * pre-set flag or a short timeout) over a fixture tree with more roots than
 * the cache holds, until both FSCACHE_STRESS_SECONDS (default 20) have
 * passed and FSCACHE_STRESS_CALLS (default 100000) calls were made, or
 * four times those seconds at most. A monitor thread checks that the scan
 * cache stays within its entry bound. At the end it checks (no rate is
 * asserted: a loaded machine makes fewer calls, which is only reported):
 *   - every thread made progress (calls were made and answered);
 *   - every result was a well-formed envelope with the expected answer (or
 *     the expected "aborted"/"timeout" error for cancelled calls);
 *   - goroutines return to the baseline measured before the run once calls
 *     settle (fscache_debug_goroutines; a minute of grace, a leak after);
 *   - resident memory is flat: the growth between the first 10% of calls
 *     (or of the seconds, if that comes first) and the end stays under
 *     FSCACHE_STRESS_RSS_MB (default 64 MB).
 * Figures are printed. Exits non-zero on a failed check. Built by
 * build/mk/sanitize.mk as build/out/fscache_stress and, under AddressSanitizer and
 * UndefinedBehaviorSanitizer, build/out/fscache_stress_asan. */
#define _GNU_SOURCE
#include "fscache.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef THREADS
#define THREADS 8
#endif
#define ROOTS 12     /* x2 keys (sorted or not): more than the bound of 16 */
#define DIRS 6       /* per root */
#define FILES 10     /* per directory */

static char base[256];
static atomic_long calls, failures, cancelled_ok, cache_over;
static atomic_long thread_calls[THREADS]; /* operations each thread finished */
static atomic_int stop_flag;
static long max_cache_seen;
static atomic_long op_count[16], op_ns[16];

#define FAIL(...)                                                     \
	do {                                                          \
		if (atomic_fetch_add(&failures, 1) < 20) {            \
			fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
			fprintf(stderr, __VA_ARGS__);                 \
			fprintf(stderr, "\n");                        \
		}                                                     \
	} while (0)

static double now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static long rss_kb(void) {
	long pages = 0, resident = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
		resident = -1;
	fclose(f);
	return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

static void make_tree(void) {
	char p[512];
	for (int r = 0; r < ROOTS; r++) {
		snprintf(p, sizeof p, "%s/r%02d", base, r);
		mkdir(p, 0755);
		for (int d = 0; d < DIRS; d++) {
			snprintf(p, sizeof p, "%s/r%02d/d%d", base, r, d);
			mkdir(p, 0755);
			for (int f = 0; f < FILES; f++) {
				snprintf(p, sizeof p, "%s/r%02d/d%d/file%d.txt", base, r, d, f);
				FILE *fp = fopen(p, "w");
				if (!fp) {
					perror(p);
					exit(2);
				}
				fprintf(fp, "line one\nneedle %d %d\nline three\n", d, f);
				fclose(fp);
			}
		}
	}
}

struct sink {
	long calls;
	long bad;
};

static void on_match(void *ctx, const char *json, size_t len) {
	struct sink *s = ctx;
	s->calls++;
	if (json == NULL || strlen(json) != len || json[0] != '{' || json[len - 1] != '}')
		s->bad++;
}

/* Checks an envelope: ok containing want (if not NULL), or one of the
 * allowed error codes (allowed may be NULL). Frees it. */
static void check(char *res, const char *want, const char *allowed, const char *what) {
	atomic_fetch_add(&calls, 1);
	if (res == NULL) {
		FAIL("%s: NULL result", what);
		return;
	}
	if (strncmp(res, "{\"ok\":", 6) == 0) {
		if (want == NULL)
			FAIL("%s: an answer where an error was due: %.200s", what, res);
		else if (!strstr(res, want))
			FAIL("%s: %s not in %.200s", what, want, res);
	} else if (allowed && strstr(res, allowed)) {
		atomic_fetch_add(&cancelled_ok, 1);
	} else {
		FAIL("%s: unexpected %.300s", what, res);
	}
	fscache_free(res);
}

struct canceller {
	volatile int32_t *flag;
	unsigned delay_us;
};

static void *cancel_later(void *arg) {
	struct canceller *c = arg;
	usleep(c->delay_us);
	__atomic_store_n(c->flag, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static void *worker(void *arg) {
	unsigned seed = (unsigned)(size_t)arg * 7919u + 1;
	char opts[1024], want[64], path[512];
	while (!atomic_load(&stop_flag)) {
		int r = rand_r(&seed) % ROOTS;
		/* Cheap calls (cache hits) dominate, as in an agent's session. */
		int op = rand_r(&seed) % 32;
		if (op >= 16)
			op = op < 26 ? 0 : 5;
		struct sink s = {0, 0};
		double t0 = now();
		switch (op) {
		case 0: case 1: case 2: case 3: /* cached glob: a hit most of the time */
			snprintf(opts, sizeof opts, "{\"pattern\":\"**/*.txt\",\"path\":\"%s/r%02d\",\"cache\":true}", base, r);
			snprintf(want, sizeof want, "\"totalMatches\":%d", DIRS * FILES);
			check(fscache_glob(opts, NULL, NULL, NULL), want, NULL, "cached glob");
			break;
		case 4: /* uncached glob with a callback */
			snprintf(opts, sizeof opts, "{\"pattern\":\"d1/*\",\"path\":\"%s/r%02d\"}", base, r);
			snprintf(want, sizeof want, "\"totalMatches\":%d", FILES);
			check(fscache_glob(opts, on_match, &s, NULL), want, NULL, "glob");
			if (s.calls != FILES || s.bad)
				FAIL("glob callback: %ld calls, %ld bad", s.calls, s.bad);
			break;
		case 5: case 6: /* fuzzy find, cached */
			snprintf(opts, sizeof opts, "{\"query\":\"file7\",\"path\":\"%s/r%02d\",\"cache\":true}", base, r);
			check(fscache_fuzzy_find(opts, NULL), "\"totalMatches\":6", NULL, "fuzzy");
			break;
		case 7: case 8: /* grep with a callback */
			snprintf(opts, sizeof opts, "{\"pattern\":\"needle 3\",\"path\":\"%s/r%02d\",\"cache\":%s}", base, r,
				 op == 7 ? "true" : "false");
			snprintf(want, sizeof want, "\"totalMatches\":%d", FILES);
			check(fscache_grep(opts, on_match, &s, NULL), want, NULL, "grep");
			if (s.calls != FILES || s.bad)
				FAIL("grep callback: %ld calls, %ld bad", s.calls, s.bad);
			break;
		case 9: /* invalidate one path, or everything */
			snprintf(path, sizeof path, "%s/r%02d/d%d/file1.txt", base, r, r % DIRS);
			fscache_invalidate(rand_r(&seed) % 32 ? path : NULL);
			atomic_fetch_add(&calls, 1);
			break;
		case 10: { /* pre-set cancel flag */
			volatile int32_t flag = 1;
			snprintf(opts, sizeof opts, "{\"pattern\":\"*\",\"path\":\"%s/r%02d\"}", base, r);
			check(fscache_glob(opts, NULL, NULL, &flag), NULL, "\"aborted\"", "pre-cancelled glob");
			break;
		}
		case 11: /* a short timeout: may finish first */
			snprintf(opts, sizeof opts, "{\"pattern\":\"line\",\"path\":\"%s/r%02d\",\"timeoutMs\":1}", base, r);
			check(fscache_grep(opts, NULL, NULL, NULL), "\"totalMatches\":", "\"timeout\"", "grep with timeout");
			break;
		case 12: { /* cancelled by another thread mid-call */
			volatile int32_t flag = 0;
			struct canceller c = {&flag, (unsigned)(rand_r(&seed) % 500)};
			pthread_t t;
			snprintf(opts, sizeof opts, "{\"pattern\":\"needle\",\"path\":\"%s/r%02d\"}", base, r);
			if (pthread_create(&t, NULL, cancel_later, &c) != 0) {
				FAIL("pthread_create");
				break;
			}
			check(fscache_grep(opts, on_match, &s, &flag), "\"totalMatches\":", "\"aborted\"", "grep cancelled mid-call");
			pthread_join(t, NULL);
			break;
		}
		case 13: /* errors: bad regex, bad glob, bad JSON, missing root */
			snprintf(opts, sizeof opts, "{\"pattern\":\"[\",\"path\":\"%s\"}", base);
			check(fscache_grep(opts, NULL, NULL, NULL), NULL, "\"invalid_regex\"", "bad regex");
			snprintf(opts, sizeof opts, "{\"pattern\":\"[\",\"path\":\"%s\"}", base);
			check(fscache_glob(opts, NULL, NULL, NULL), NULL, "\"invalid_glob\"", "bad glob");
			check(fscache_fuzzy_find("{\"query\":", NULL), NULL, "\"invalid_options\"", "bad JSON");
			check(fscache_glob("{\"pattern\":\"*\",\"path\":\"/nonexistent/x\"}", NULL, NULL, NULL), NULL,
			      "\"path_not_found\"", "missing root");
			break;
		default: /* cached glob with mtime sort (another cache key) */
			snprintf(opts, sizeof opts, "{\"pattern\":\"*.txt\",\"path\":\"%s/r%02d\",\"cache\":true,\"sortByMtime\":true,\"maxResults\":5}",
				 base, r);
			check(fscache_glob(opts, NULL, NULL, NULL), "\"totalMatches\":5", NULL, "sorted glob");
			break;
		}
		atomic_fetch_add(&op_count[op], 1);
		atomic_fetch_add(&op_ns[op], (long)((now() - t0) * 1e9));
		atomic_fetch_add(&thread_calls[(size_t)arg], 1);
	}
	return NULL;
}

static void *monitor(void *arg) {
	(void)arg;
	long bound = (long)fscache_debug_cache_max_entries();
	while (!atomic_load(&stop_flag)) {
		long n = (long)fscache_debug_cache_entries();
		if (n > max_cache_seen)
			max_cache_seen = n;
		if (n > bound)
			atomic_fetch_add(&cache_over, 1);
		usleep(1000);
	}
	return NULL;
}

static long env_long(const char *name, long def) {
	const char *s = getenv(name);
	return s && *s ? atol(s) : def;
}

int main(void) {
	long seconds = env_long("FSCACHE_STRESS_SECONDS", 20);
	long min_calls = env_long("FSCACHE_STRESS_CALLS", 100000);
	long rss_limit_kb = env_long("FSCACHE_STRESS_RSS_MB", 64) * 1024;

	strcpy(base, "/tmp/fscache-stress-XXXXXX");
	if (!mkdtemp(base)) {
		perror("mkdtemp");
		return 2;
	}
	make_tree();

	/* Baseline: after one call of each kind, with nothing running. */
	char opts[600];
	snprintf(opts, sizeof opts, "{\"pattern\":\"needle\",\"path\":\"%s\"}", base);
	fscache_free(fscache_grep(opts, NULL, NULL, NULL));
	snprintf(opts, sizeof opts, "{\"pattern\":\"*\",\"path\":\"%s\",\"cache\":true}", base);
	fscache_free(fscache_glob(opts, NULL, NULL, NULL));
	usleep(200 * 1000);
	long base_g = (long)fscache_debug_goroutines();

	pthread_t th[THREADS], mon;
	double start = now();
	pthread_create(&mon, NULL, monitor, NULL);
	for (long i = 0; i < THREADS; i++)
		pthread_create(&th[i], NULL, worker, (void *)i);
	long rss_early = -1, calls_early = 0;
	double t;
	while ((t = now() - start) < 4 * seconds) {
		long c = atomic_load(&calls);
		if (rss_early < 0 && (c >= min_calls / 10 || t >= seconds / 10.0)) {
			rss_early = rss_kb();
			calls_early = c;
		}
		if (t >= seconds && c >= min_calls)
			break;
		usleep(20 * 1000);
	}
	long peak_g = (long)fscache_debug_goroutines();
	atomic_store(&stop_flag, 1);
	for (int i = 0; i < THREADS; i++)
		pthread_join(th[i], NULL);
	pthread_join(mon, NULL);
	double elapsed = now() - start;
	long total = atomic_load(&calls);
	long rss_end = rss_kb();

	/* Goroutines settle: the library's goroutines end with their calls. */
	long g = 0;
	double settle_start = now();
	for (int i = 0; i < 3000; i++) {
		g = (long)fscache_debug_goroutines();
		if (g <= base_g)
			break;
		usleep(20 * 1000);
	}
	double settle = now() - settle_start;

	printf("stress: %d threads, %.1f s, %ld calls (%.0f/s), %ld cancelled or expected errors\n", THREADS, elapsed,
	       total, total / elapsed, atomic_load(&cancelled_ok));
	printf("stress: goroutines baseline %ld, during %ld, after %ld (settled in %.0f ms)\n", base_g, peak_g, g,
	       settle * 1000);
	printf("stress: RSS %ld kB after %ld calls, %ld kB after %ld calls (growth %ld kB, limit %ld kB)\n", rss_early,
	       calls_early, rss_end, total, rss_end - rss_early, rss_limit_kb);
	printf("stress: mean time per operation kind (us):");
	for (int i = 0; i < 16; i++)
		printf(" %d:%ld", i, atomic_load(&op_count[i]) ? atomic_load(&op_ns[i]) / atomic_load(&op_count[i]) / 1000 : 0);
	printf("\n");
	printf("stress: cache entries at most %ld (bound %ld)\n", max_cache_seen, (long)fscache_debug_cache_max_entries());

	if (total < min_calls)
		printf("stress: note: %ld calls in %.1f s, fewer than %ld (a loaded machine)\n", total, elapsed, min_calls);
	for (int i = 0; i < THREADS; i++)
		if (atomic_load(&thread_calls[i]) == 0)
			FAIL("thread %d made no call in %.1f s", i, elapsed);
	if (g > base_g)
		FAIL("goroutines: %ld after the calls settled, baseline %ld", g, base_g);
	if (rss_early < 0 || rss_end - rss_early > rss_limit_kb)
		FAIL("resident memory grew by %ld kB", rss_end - rss_early);
	if (atomic_load(&cache_over))
		FAIL("cache over its bound %ld times (max seen %ld)", atomic_load(&cache_over), max_cache_seen);

	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
	if (system(cmd) != 0)
		fprintf(stderr, "warning: could not remove %s\n", base);
	long f = atomic_load(&failures);
	printf("stress: %s (%ld failures)\n", f ? "FAILED" : "ok", f);
	return f ? 1 : 0;
}
