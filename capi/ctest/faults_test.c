/* C test of the library built for fault injection (-tags
 * fscache_faultinject: build/out/faults/libfscache.so, make test-faults).
 * For each kind of goroutine a call runs, a panic is injected there: the
 * call returns {"error":{"code":"internal",...}} naming it, the process
 * lives, the same call then answers as before, and at the end the process
 * holds no more descriptors and the library no more goroutines than before
 * the panics. A panic after a call (the glob JSON built in the background)
 * is counted in fscache_cache_stats' "dropped". Exits non-zero on the first
 * failed check. */
#define _POSIX_C_SOURCE 200809L
#include "fscache.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

/* Only in the fault-injection build (capi/faultinject.go). */
int32_t fscache_faultinject_arm(const char *kind, int32_t skip);
int32_t fscache_faultinject_armed(int32_t disarm);

static char root[256];

static void sleep_ms(long ms) {
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

/* The tree: dirs directories of files files each. */
static void make_tree(int dirs, int files) {
	char p[512];
	for (int d = 0; d < dirs; d++) {
		snprintf(p, sizeof p, "%s/d%03d", root, d);
		if (mkdir(p, 0755) != 0) {
			perror(p);
			exit(2);
		}
		for (int f = 0; f < files; f++) {
			snprintf(p, sizeof p, "%s/d%03d/f%04d.ts", root, d, f);
			FILE *fp = fopen(p, "w");
			if (!fp) {
				perror(p);
				exit(2);
			}
			fputs("alpha\nbeta\n", fp);
			fclose(fp);
		}
	}
}

static int fd_count(void) {
	DIR *d = opendir("/proc/self/fd");
	int n = 0;
	if (!d)
		return -1;
	while (readdir(d))
		n++;
	closedir(d);
	return n - 1; /* the listing's own descriptor */
}

enum op { GLOB, FUZZY, GREP };

static char *call(enum op op, const char *js) {
	switch (op) {
	case GLOB:
		return fscache_glob(js, NULL, NULL, NULL);
	case FUZZY:
		return fscache_fuzzy_find(js, NULL);
	default:
		return fscache_grep(js, NULL, NULL, NULL);
	}
}

/* Waits until the library's goroutines are back to at most g and the
 * process's descriptors to at most fds; 0 when they are within a minute. */
static int settle(int64_t g, int fds) {
	for (int i = 0; i < 60000; i++) {
		if (fscache_debug_goroutines() <= g && fd_count() <= fds)
			return 0;
		sleep_ms(1);
	}
	return -1;
}

int main(void) {
	snprintf(root, sizeof root, "/tmp/fscache-faults-XXXXXX");
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 2;
	}
	make_tree(70, 3);
	struct {
		const char *kind;
		int skip;
		enum op op;
		const char *fmt;
	} cases[] = {
		{"call", 0, GLOB, "{\"pattern\":\"**/*.ts\",\"path\":\"%s\"}"},
		{"call", 0, FUZZY, "{\"query\":\"f0001\",\"path\":\"%s\"}"},
		{"walkList", 5, GLOB, "{\"pattern\":\"**/*.ts\",\"path\":\"%s\"}"},
		{"walkList", 9, GREP, "{\"pattern\":\"beta\",\"path\":\"%s\",\"maxCount\":150}"},
		{"walkFinish", 2, GLOB, "{\"pattern\":\"**/*.ts\",\"path\":\"%s\"}"},
		{"grepSearch", 3, GREP, "{\"pattern\":\"alpha\",\"path\":\"%s\"}"},
		{"grepFed", 3, GREP, "{\"pattern\":\"beta\",\"path\":\"%s\",\"maxCount\":150}"},
		{"matcher", 4, GREP, "{\"pattern\":\"alp(?=ha)\",\"path\":\"%s\",\"outputMode\":\"count\"}"},
	};
	/* The first calls start what lives for the process (the GC pacer,
	 * threads): the baseline is taken after them. */
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char js[512];
		snprintf(js, sizeof js, cases[i].fmt, root);
		fscache_free(call(cases[i].op, js));
	}
	fscache_invalidate(NULL);
	CHECK(settle(1 << 20, 1 << 20) == 0, "settle");
	sleep_ms(100);
	int64_t g0 = fscache_debug_goroutines();
	int fd0 = fd_count();
	CHECK(fscache_faultinject_arm("nope", 0) == -1, "an unknown kind is refused");
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char js[512], want_err[256];
		snprintf(js, sizeof js, cases[i].fmt, root);
		char *want = call(cases[i].op, js);
		CHECK(want && strncmp(want, "{\"ok\":", 6) == 0, "%s: before: %.200s", cases[i].kind, want);
		fscache_invalidate(NULL);
		CHECK(fscache_faultinject_arm(cases[i].kind, cases[i].skip) == 0, "arm %s", cases[i].kind);
		char *got = call(cases[i].op, js);
		CHECK(fscache_faultinject_armed(1) == 0, "%s: the point was not reached", cases[i].kind);
		snprintf(want_err, sizeof want_err,
		         "{\"error\":{\"code\":\"internal\",\"message\":\"internal error: panic in fscache's %s "
		         "goroutine: fault injected in %s",
		         cases[i].kind, cases[i].kind);
		CHECK(got && strncmp(got, want_err, strlen(want_err)) == 0, "%s: with the panic: %.300s", cases[i].kind,
		      got);
		fscache_free(got);
		char *again = call(cases[i].op, js);
		CHECK(want && again && strcmp(want, again) == 0, "%s: after: %.200s", cases[i].kind, again);
		fscache_free(want);
		fscache_free(again);
		printf("ok: a panic in %s is the call's internal error, the next call answers as before\n",
		       cases[i].kind);
	}

	/* After a call: a glob hit's blocks' JSON, built in the background. */
	char js[512];
	snprintf(js, sizeof js, "{\"pattern\":\"d004/f0001.ts\",\"path\":\"%s\",\"cache\":true}", root);
	fscache_free(call(GLOB, js));
	CHECK(fscache_faultinject_arm("globJSON", 0) == 0, "arm globJSON");
	char *hit = call(GLOB, js);
	CHECK(hit && strstr(hit, "\"totalMatches\":1}") != NULL, "glob hit: %.200s", hit);
	fscache_free(hit);
	int dropped = 0;
	for (int i = 0; i < 60000 && !dropped; i++) {
		char *st = fscache_cache_stats();
		dropped = st && strstr(st, "\"globJSON\":{\"count\":") != NULL;
		fscache_free(st);
		if (!dropped)
			sleep_ms(1);
	}
	CHECK(dropped, "the background glob JSON's panic is not in cache_stats' dropped");
	hit = call(GLOB, js);
	CHECK(hit && strstr(hit, "\"totalMatches\":1}") != NULL, "glob after: %.200s", hit);
	fscache_free(hit);
	printf("ok: a panic in the background glob JSON is dropped and counted\n");

	fscache_invalidate(NULL);
	CHECK(settle(g0, fd0) == 0, "goroutines %lld (before %lld), descriptors %d (before %d)",
	      (long long)fscache_debug_goroutines(), (long long)g0, fd_count(), fd0);
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf %s", root);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", root);
	printf("%d checks, %d failures\n", checks, failures);
	return failures ? 1 : 0;
}
