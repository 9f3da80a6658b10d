/* Two (three) copies of libfscache in one process (issue 27, item 4): a
 * host whose own libfscache is in the global scope loads the copies that
 * other components bring along, each with its own Go runtime, and calls
 * all of them. Linux (glibc) only. Built with -std=c11 -Wall -Wextra
 * -Werror by build/mk/copies.mk and run as
 *
 *     fscache_two_copies /path/to/libfscache.so
 *
 * It copies the library into a temporary directory three times:
 *   a/libfscache.so.0   dlopen'ed RTLD_NOW | RTLD_GLOBAL: the host's own, as
 *                       if linked to the program;
 *   b/libfscache.so.0   RTLD_NOW | RTLD_LOCAL, the same soname at another
 *                       path (two packages bundling the same major);
 *   c/libfscache.so.1   RTLD_NOW | RTLD_LOCAL, its DT_SONAME rewritten in
 *                       place to libfscache.so.1 (another major).
 * and checks that
 *   1. the three are distinct objects, each function found through a
 *      handle lives in that copy (dladdr) and each copy's fscache_version()
 *      returns its own string (the copy's runtime made it): no copy's call
 *      lands in another's code, which a symbol exported beyond
 *      include/fscache.h could cause (the library's internal symbols bound
 *      across copies);
 *   2. each exports exactly its C ABI's functions among the ones asked for
 *      (fscache_go_glob, crosscall2, x_cgo_init: not found);
 *   3. a real glob and grep answer right through each, with on_match;
 *   4. each copy has its own scan cache: a cached glob through one leaves
 *      the others' caches empty;
 *   5. the copies answer right while called at the same time from one
 *      thread each;
 *   6. after all that the goroutine counts of every copy are back to
 *      their baseline.
 * Exits non-zero on any failed check; prints what it checked. */
#define _GNU_SOURCE
#include "fscache.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "dlsym.h"

#define NCOPIES 3
#define ROUNDS 100 /* calls per thread in check 5 */

typedef char *(*search_fn)(const char *, fscache_match_fn, void *, const volatile int32_t *);
typedef int64_t (*count_fn)(void);

struct copy {
	const char *name;    /* a, b, c */
	const char *soname;  /* what its DT_SONAME says */
	int flags;           /* dlopen's */
	char path[512];
	void *h;
	search_fn glob, grep;
	char *(*stats)(void);
	void (*release)(char *);
	const char *(*version)(void);
	count_fn goroutines, cache_entries;
	int64_t baseline;
	int failed_rounds;
};

static struct copy copies[NCOPIES] = {
    {.name = "a", .soname = "libfscache.so.0", .flags = RTLD_NOW | RTLD_GLOBAL},
    {.name = "b", .soname = "libfscache.so.0", .flags = RTLD_NOW | RTLD_LOCAL},
    {.name = "c", .soname = "libfscache.so.1", .flags = RTLD_NOW | RTLD_LOCAL},
};

static char tmp[] = "/tmp/fscache-copies-XXXXXX";
static char tree[sizeof tmp + 8];

static void die(const char *what) {
	perror(what);
	exit(2);
}

static void write_file(const char *path, const char *content) {
	FILE *f = fopen(path, "w");
	if (f == NULL)
		die(path);
	fputs(content, f);
	if (fclose(f) != 0)
		die(path);
}

static void copy_file(const char *from, const char *to) {
	int in = open(from, O_RDONLY), out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (in < 0)
		die(from);
	if (out < 0)
		die(to);
	char buf[1 << 16];
	ssize_t n;
	while ((n = read(in, buf, sizeof buf)) > 0)
		if (write(out, buf, (size_t)n) != n)
			die(to);
	if (n < 0)
		die(from);
	close(in);
	if (close(out) != 0)
		die(to);
}

/* The file offset of virtual address vaddr, through the PT_LOAD holding it. */
static size_t file_offset(const unsigned char *base, const Elf64_Ehdr *eh, uint64_t vaddr) {
	const Elf64_Phdr *ph = (const Elf64_Phdr *)(base + eh->e_phoff);
	for (int i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && vaddr >= ph[i].p_vaddr && vaddr < ph[i].p_vaddr + ph[i].p_filesz)
			return (size_t)(vaddr - ph[i].p_vaddr + ph[i].p_offset);
	fprintf(stderr, "address 0x%llx is in no PT_LOAD\n", (unsigned long long)vaddr);
	exit(2);
}

/* soname_at(path, set): the DT_SONAME string of the ELF file at path; with
 * set (as long as the current one), rewrites it in place first. */
static void soname_at(const char *path, const char *set, char *out, size_t outlen) {
	int fd = open(path, set ? O_RDWR : O_RDONLY);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0)
		die(path);
	unsigned char *base = mmap(NULL, (size_t)st.st_size, PROT_READ | (set ? PROT_WRITE : 0), MAP_SHARED, fd, 0);
	if (base == MAP_FAILED)
		die(path);
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)base;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64) {
		fprintf(stderr, "%s: not a 64-bit ELF file\n", path);
		exit(2);
	}
	const Elf64_Phdr *ph = (const Elf64_Phdr *)(base + eh->e_phoff);
	const Elf64_Dyn *dyn = NULL;
	for (int i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_DYNAMIC)
			dyn = (const Elf64_Dyn *)(base + ph[i].p_offset);
	uint64_t strtab = 0, soname = UINT64_MAX;
	for (const Elf64_Dyn *d = dyn; d != NULL && d->d_tag != DT_NULL; d++) {
		if (d->d_tag == DT_STRTAB)
			strtab = d->d_un.d_ptr;
		else if (d->d_tag == DT_SONAME)
			soname = d->d_un.d_val;
	}
	if (dyn == NULL || strtab == 0 || soname == UINT64_MAX) {
		fprintf(stderr, "%s: no DT_SONAME\n", path);
		exit(2);
	}
	char *s = (char *)base + file_offset(base, eh, strtab) + soname;
	if (set) {
		if (strlen(set) != strlen(s)) {
			fprintf(stderr, "%s: soname %s, cannot be rewritten in place as %s\n", path, s, set);
			exit(2);
		}
		memcpy(s, set, strlen(set));
		if (msync(base, (size_t)st.st_size, MS_SYNC) != 0)
			die(path);
	}
	snprintf(out, outlen, "%s", s);
	munmap(base, (size_t)st.st_size);
	close(fd);
}

/* The file of the object holding address p. */
static const char *object_of(const void *p) {
	Dl_info info;
	return dladdr(p, &info) != 0 && info.dli_fname != NULL ? info.dli_fname : "(none)";
}

struct matches {
	int calls, bad;
};

static void on_match(void *ctx, const char *json, size_t len) {
	struct matches *m = ctx;
	m->calls++;
	if (json == NULL || strlen(json) != len || json[0] != '{' || json[len - 1] != '}')
		m->bad++;
}

/* One glob and one grep through c, checked; returns the number of failed
 * checks (quiet: for the threads of check 5). */
static int search(struct copy *c, int quiet) {
	int bad = 0;
	char opts[1024];
	struct matches m = {0, 0};
	snprintf(opts, sizeof opts, "{\"pattern\":\"**/*.txt\",\"path\":\"%s\"}", tree);
	char *r = c->glob(opts, on_match, &m, NULL);
	if (r == NULL || strstr(r, "\"totalMatches\":3") == NULL || strstr(r, "\"path\":\"sub/two.txt\"") == NULL ||
	    m.calls != 3 || m.bad != 0) {
		bad++;
		if (!quiet)
			fprintf(stderr, "copy %s: glob: %s (%d callbacks, %d bad)\n", c->name, r ? r : "NULL", m.calls, m.bad);
	}
	c->release(r);
	m.calls = m.bad = 0;
	snprintf(opts, sizeof opts, "{\"pattern\":\"needle [0-9]+\",\"path\":\"%s\"}", tree);
	r = c->grep(opts, on_match, &m, NULL);
	if (r == NULL || strstr(r, "\"path\":\"sub/two.txt\",\"lineNumber\":2,\"line\":\"a needle 42\"") == NULL ||
	    strstr(r, "\"totalMatches\":1") == NULL || m.calls != 1 || m.bad != 0) {
		bad++;
		if (!quiet)
			fprintf(stderr, "copy %s: grep: %s (%d callbacks, %d bad)\n", c->name, r ? r : "NULL", m.calls, m.bad);
	}
	c->release(r);
	return bad;
}

static void *hammer(void *arg) {
	struct copy *c = arg;
	for (int i = 0; i < ROUNDS; i++)
		if (search(c, 1) != 0)
			c->failed_rounds++;
	return NULL;
}

/* Waits (up to 5 s) for the copy's goroutines to come back to its baseline. */
static int64_t settled_goroutines(struct copy *c) {
	int64_t n = c->goroutines();
	for (int i = 0; i < 100 && n > c->baseline; i++) {
		struct timespec ts = {0, 50 * 1000 * 1000};
		nanosleep(&ts, NULL);
		n = c->goroutines();
	}
	return n;
}

int main(int argc, char **argv) {
	if (argc != 2) {
		fprintf(stderr, "usage: %s /path/to/libfscache.so\n", argv[0]);
		return 2;
	}
	if (mkdtemp(tmp) == NULL)
		die("mkdtemp");
	char p[600], name[64];
	snprintf(tree, sizeof tree, "%s/tree", tmp);
	snprintf(p, sizeof p, "%s/sub", tree);
	if (mkdir(tree, 0755) != 0 || mkdir(p, 0755) != 0)
		die(p);
	snprintf(p, sizeof p, "%s/one.txt", tree);
	write_file(p, "no match here\n");
	snprintf(p, sizeof p, "%s/sub/two.txt", tree);
	write_file(p, "first line\na needle 42\n");
	snprintf(p, sizeof p, "%s/sub/three.txt", tree);
	write_file(p, "needle without a number\n");

	/* The copies, loaded. */
	for (int i = 0; i < NCOPIES; i++) {
		struct copy *c = &copies[i];
		snprintf(p, sizeof p, "%s/%s", tmp, c->name);
		if (mkdir(p, 0755) != 0)
			die(p);
		snprintf(c->path, sizeof c->path, "%s/%s/%s", tmp, c->name, c->soname);
		copy_file(argv[1], c->path);
		soname_at(c->path, NULL, name, sizeof name);
		if (strcmp(name, c->soname) != 0)
			soname_at(c->path, c->soname, name, sizeof name);
		CHECK(strcmp(name, c->soname) == 0, "copy %s: soname %s, want %s", c->name, name, c->soname);
		c->h = dlopen(c->path, c->flags);
		if (c->h == NULL) {
			fprintf(stderr, "dlopen %s: %s\n", c->path, dlerror());
			return 2;
		}
		c->glob = (search_fn)sym(c->h, "fscache_glob");
		c->grep = (search_fn)sym(c->h, "fscache_grep");
		c->stats = (char *(*)(void))sym(c->h, "fscache_cache_stats");
		c->release = (void (*)(char *))sym(c->h, "fscache_free");
		c->version = (const char *(*)(void))sym(c->h, "fscache_version");
		c->goroutines = (count_fn)sym(c->h, "fscache_debug_goroutines");
		c->cache_entries = (count_fn)sym(c->h, "fscache_debug_cache_entries");
	}

	/* 1. Distinct objects, each call in its own copy. */
	for (int i = 0; i < NCOPIES; i++) {
		struct copy *c = &copies[i];
		for (int j = 0; j < i; j++) {
			CHECK(c->h != copies[j].h, "copies %s and %s: one handle", copies[j].name, c->name);
			CHECK((void *)c->glob != (void *)copies[j].glob, "copies %s and %s: one fscache_glob", copies[j].name, c->name);
		}
		const void *fns[] = {(void *)c->glob, (void *)c->grep, (void *)c->stats, (void *)c->release,
		                     (void *)c->version, (void *)c->goroutines, (void *)c->cache_entries};
		for (size_t k = 0; k < sizeof fns / sizeof fns[0]; k++)
			CHECK(strcmp(object_of(fns[k]), c->path) == 0, "copy %s: function %zu in %s", c->name, k, object_of(fns[k]));
		const char *v = c->version();
		CHECK(v != NULL && strlen(v) > 0, "copy %s: no version", c->name);
		CHECK(v != NULL && strcmp(v, copies[0].version()) == 0, "copy %s: version %s, copy a %s", c->name, v, copies[0].version());
		for (int j = 0; j < i; j++)
			CHECK(v != copies[j].version(), "copies %s and %s: one fscache_version() string", copies[j].name, c->name);
	}

	/* 2. Only the C ABI among these. */
	const char *internal[] = {"fscache_go_glob", "fscache_go_version", "crosscall2", "x_cgo_init", "_cgo_panic", "fatalf"};
	for (int i = 0; i < NCOPIES; i++)
		for (size_t k = 0; k < sizeof internal / sizeof internal[0]; k++)
			CHECK(dlsym(copies[i].h, internal[k]) == NULL, "copy %s exports %s", copies[i].name, internal[k]);

	/* 3. A glob and a grep through each. */
	for (int i = 0; i < NCOPIES; i++) {
		copies[i].baseline = copies[i].goroutines();
		int bad = search(&copies[i], 0);
		CHECK(bad == 0, "copy %s: %d searches failed", copies[i].name, bad);
	}

	/* 4. One scan cache each. */
	char opts[1024];
	snprintf(opts, sizeof opts, "{\"pattern\":\"*.txt\",\"path\":\"%s\",\"cache\":true}", tree);
	for (int i = 0; i < NCOPIES; i++) {
		char *r = copies[i].glob(opts, NULL, NULL, NULL);
		CHECK(r != NULL && strstr(r, "\"path\":\"one.txt\"") != NULL, "copy %s: cached glob: %s", copies[i].name, r ? r : "NULL");
		copies[i].release(r);
		for (int j = 0; j < NCOPIES; j++) {
			int64_t n = copies[j].cache_entries();
			if (j <= i)
				CHECK(n == 1, "after a cached glob through copies a..%s: copy %s caches %lld scans, want 1", copies[i].name,
				      copies[j].name, (long long)n);
			else
				CHECK(n == 0, "after a cached glob through copies a..%s: copy %s caches %lld scans, want 0", copies[i].name,
				      copies[j].name, (long long)n);
		}
	}

	/* 5. At the same time, one thread a copy. */
	pthread_t t[NCOPIES];
	for (int i = 0; i < NCOPIES; i++)
		if (pthread_create(&t[i], NULL, hammer, &copies[i]) != 0)
			die("pthread_create");
	for (int i = 0; i < NCOPIES; i++) {
		pthread_join(t[i], NULL);
		CHECK(copies[i].failed_rounds == 0, "copy %s: %d of %d concurrent rounds failed", copies[i].name,
		      copies[i].failed_rounds, ROUNDS);
	}

	/* 6. Goroutines back to the baseline. */
	for (int i = 0; i < NCOPIES; i++) {
		int64_t n = settled_goroutines(&copies[i]);
		CHECK(n <= copies[i].baseline, "copy %s: %lld goroutines, baseline %lld", copies[i].name, (long long)n,
		      (long long)copies[i].baseline);
	}

	for (int i = 0; i < NCOPIES; i++)
		printf("copy %s: %s (soname %s, %s), version %s\n", copies[i].name, copies[i].path, copies[i].soname,
		       copies[i].flags & RTLD_GLOBAL ? "RTLD_GLOBAL" : "RTLD_LOCAL", copies[i].version());
	/* The copies stay loaded (the Go runtime cannot be unloaded; the
	 * library is linked -z nodelete): their files can go. */
	for (int i = 0; i < NCOPIES; i++) {
		unlink(copies[i].path);
		snprintf(p, sizeof p, "%s/%s", tmp, copies[i].name);
		rmdir(p);
	}
	const char *files[] = {"tree/one.txt", "tree/sub/two.txt", "tree/sub/three.txt", "tree/sub", "tree"};
	for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
		snprintf(p, sizeof p, "%s/%s", tmp, files[k]);
		if (remove(p) != 0 && errno != ENOENT)
			perror(p);
	}
	rmdir(tmp);
	printf("%d checks, %d failures\n", checks, failures);
	return failures == 0 ? 0 : 1;
}
