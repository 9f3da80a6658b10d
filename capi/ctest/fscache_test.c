/* C test of the fscache ABI: compiled with -std=c99 -Wall -Wextra -Werror
 * against include/fscache.h and linked to build/out/libfscache.so. Every
 * function is called, with good, malformed and NULL input, a callback and a
 * pre-set cancel flag. Exits non-zero on the first failed check. */
#define _POSIX_C_SOURCE 200809L
#include "fscache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#ifdef _WIN32
/* mingw-w64 (make windows): the test's root is made in the working directory. */
#include <direct.h>
#include <io.h>
#define mkdir(path, mode) _mkdir(path)
static char *mkdtemp(char *tmpl) { return _mktemp(tmpl) && _mkdir(tmpl) == 0 ? tmpl : NULL; }
#define CTEST_ROOT "fscache-ctest-XXXXXX"
#else
#include <unistd.h>
#define CTEST_ROOT "/tmp/fscache-ctest-XXXXXX"
#endif

static char root[256];

static void write_file(const char *rel, const char *content) {
	char p[512];
	snprintf(p, sizeof p, "%s/%s", root, rel);
	FILE *f = fopen(p, "w");
	if (!f) {
		perror(p);
		exit(2);
	}
	fputs(content, f);
	fclose(f);
}

static void make_dir(const char *rel) {
	char p[512];
	snprintf(p, sizeof p, "%s/%s", root, rel);
	if (mkdir(p, 0755) != 0) {
		perror(p);
		exit(2);
	}
}

/* Checks that a result is a success envelope containing `needle`, frees it. */
static void expect_ok(char *res, const char *needle, const char *what) {
	CHECK(res != NULL, "%s: NULL result", what);
	if (!res)
		return;
	CHECK(strncmp(res, "{\"ok\":", 6) == 0, "%s: not ok: %s", what, res);
	if (needle)
		CHECK(strstr(res, needle) != NULL, "%s: %s not in %s", what, needle, res);
	fscache_free(res);
}

/* Checks that a result is an error envelope with the code and message start. */
static void expect_error(char *res, const char *code, const char *msg_start, const char *what) {
	CHECK(res != NULL, "%s: NULL result", what);
	if (!res)
		return;
	char want[256];
	snprintf(want, sizeof want, "{\"error\":{\"code\":\"%s\",\"message\":\"%s", code, msg_start);
	CHECK(strncmp(res, want, strlen(want)) == 0, "%s: want %s..., got %s", what, want, res);
	fscache_free(res);
}

struct collected {
	int calls;
	size_t bytes;
	int bad;
};

static void on_match(void *ctx, const char *json, size_t len) {
	struct collected *c = ctx;
	c->calls++;
	c->bytes += len;
	if (json == NULL || strlen(json) != len || json[0] != '{' || json[len - 1] != '}')
		c->bad++;
}

int main(void) {
	char opts[1024];
	strcpy(root, CTEST_ROOT);
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 2;
	}
	make_dir("src");
	make_dir("src/deep");
	write_file("src/main.c", "int main(void) { return 0; }\n");
	write_file("src/util.c", "static int helper;\nint main2;\n");
	write_file("src/deep/notes.md", "# notes\nmain idea\n");
	write_file("README.md", "hello\n");

	/* version */
	const char *v = fscache_version();
	CHECK(v != NULL && strlen(v) > 0, "version empty");

	/* glob: results, callback, NULL callback */
	struct collected col = {0, 0, 0};
	snprintf(opts, sizeof opts, "{\"pattern\":\"*.c\",\"path\":\"%s\"}", root);
	char *res = fscache_glob(opts, on_match, &col, NULL);
	CHECK(res && strstr(res, "\"totalMatches\":2") != NULL, "glob total: %s", res);
	expect_ok(res, "\"path\":\"src/main.c\",\"fileType\":1", "glob");
	CHECK(col.calls == 2 && col.bad == 0, "glob callback calls=%d bad=%d", col.calls, col.bad);
	expect_ok(fscache_glob(opts, NULL, NULL, NULL), "src/util.c", "glob without callback");

	/* glob with the cache, then invalidation */
	snprintf(opts, sizeof opts, "{\"pattern\":\"**/*.md\",\"path\":\"%s\",\"cache\":true}", root);
	expect_ok(fscache_glob(opts, NULL, NULL, NULL), "src/deep/notes.md", "cached glob");
	write_file("NEW.md", "x\n");
#ifdef __linux__
	/* watched (FS_SCAN_CACHE_WATCH defaults on): current without invalidation */
	expect_ok(fscache_glob(opts, NULL, NULL, NULL), "\"totalMatches\":3", "cached glob hit (watched)");
	expect_ok(fscache_cache_stats(), "\"watchedEntries\":1", "cache stats");
	expect_ok(fscache_cache_stats(), "\"grepIndex\":{\"enabled\":", "cache stats: grep index");
#else
	expect_ok(fscache_glob(opts, NULL, NULL, NULL), "\"totalMatches\":2", "cached glob hit (stale within TTL)");
#endif
	{
		char p[512];
		snprintf(p, sizeof p, "%s/NEW.md", root);
		fscache_invalidate(p);
	}
	expect_ok(fscache_glob(opts, NULL, NULL, NULL), "\"totalMatches\":3", "glob after invalidate");
	fscache_invalidate(NULL);
	fscache_invalidate("");
	fscache_invalidate("relative/path/that/does/not/exist");

	/* fuzzy find */
	snprintf(opts, sizeof opts, "{\"query\":\"main\",\"path\":\"%s\"}", root);
	expect_ok(fscache_fuzzy_find(opts, NULL), "\"path\":\"src/main.c\",\"isDirectory\":false,\"score\":100", "fuzzy");

	/* grep: matches, callback, bad regex, cancel */
	struct collected gcol = {0, 0, 0};
	snprintf(opts, sizeof opts, "{\"pattern\":\"main\",\"path\":\"%s\"}", root);
	res = fscache_grep(opts, on_match, &gcol, NULL);
	CHECK(res && strstr(res, "\"totalMatches\":3") != NULL, "grep total: %s", res);
	expect_ok(res, "\"path\":\"src/main.c\",\"lineNumber\":1", "grep");
	CHECK(gcol.calls == 3 && gcol.bad == 0, "grep callback calls=%d bad=%d", gcol.calls, gcol.bad);
	snprintf(opts, sizeof opts, "{\"pattern\":\"x{2,1}\",\"path\":\"%s\"}", root);
	expect_error(fscache_grep(opts, NULL, NULL, NULL), "invalid_regex", "Regex error:", "grep bad regex");
	/* look-around runs on the backtracking engine */
	snprintf(opts, sizeof opts, "{\"pattern\":\"ma(?=in)\",\"path\":\"%s\"}", root);
	res = fscache_grep(opts, NULL, NULL, NULL);
	CHECK(res && strstr(res, "\"totalMatches\":3") != NULL, "grep look-ahead: %s", res);
	expect_ok(res, "\"path\":\"src/main.c\"", "grep look-ahead");

	/* pre-set cancel flag */
	volatile int32_t flag = 1;
	snprintf(opts, sizeof opts, "{\"pattern\":\"*\",\"path\":\"%s\"}", root);
	expect_error(fscache_glob(opts, NULL, NULL, &flag), "aborted", "Aborted: Signal", "glob cancelled");
	snprintf(opts, sizeof opts, "{\"query\":\"x\",\"path\":\"%s\"}", root);
	expect_error(fscache_fuzzy_find(opts, &flag), "aborted", "Aborted: Signal", "fuzzy cancelled");
	snprintf(opts, sizeof opts, "{\"pattern\":\"x\",\"path\":\"%s\"}", root);
	expect_error(fscache_grep(opts, NULL, NULL, &flag), "aborted", "Aborted: Signal", "grep cancelled");
	flag = 0;
	snprintf(opts, sizeof opts, "{\"pattern\":\"*\",\"path\":\"%s\"}", root);
	expect_ok(fscache_glob(opts, NULL, NULL, &flag), "README.md", "glob with a clear flag");

	/* bad input */
	expect_error(fscache_glob(NULL, NULL, NULL, NULL), "invalid_options", "options_json is NULL", "glob NULL");
	expect_error(fscache_fuzzy_find(NULL, NULL), "invalid_options", "options_json is NULL", "fuzzy NULL");
	expect_error(fscache_grep(NULL, NULL, NULL, NULL), "invalid_options", "options_json is NULL", "grep NULL");
	expect_error(fscache_glob("{\"pattern\":", NULL, NULL, NULL), "invalid_options", "GlobOptions: malformed JSON", "malformed");
	expect_error(fscache_glob("[1,2]", NULL, NULL, NULL), "invalid_options", "GlobOptions: expected a JSON object", "array");
	expect_error(fscache_glob("{\"pattern\":5,\"path\":\".\"}", NULL, NULL, NULL), "invalid_options", "GlobOptions.pattern: expected a string", "wrong type");
	expect_error(fscache_glob("{\"path\":\".\"}", NULL, NULL, NULL), "invalid_options", "GlobOptions.pattern: missing", "missing pattern");
	expect_error(fscache_fuzzy_find("{\"query\":\"a\"}", NULL), "invalid_options", "FuzzyFindOptions.path: missing", "missing path");
	expect_error(fscache_grep("{\"pattern\":\"a\",\"path\":\".\",\"maxCount\":-1}", NULL, NULL, NULL), "invalid_options", "GrepOptions.maxCount:", "negative");
	expect_error(fscache_grep("{\"pattern\":\"a\",\"path\":\".\",\"mode\":\"lines\"}", NULL, NULL, NULL), "invalid_options", "GrepOptions.mode:", "bad mode");
	expect_error(fscache_glob("{\"pattern\":\"a\\u0000b\",\"path\":\".\"}", NULL, NULL, NULL), "invalid_options", "GlobOptions.pattern: string contains a NUL byte", "NUL byte");
	expect_error(fscache_glob("{\"pattern\":\"*\",\"path\":\"/definitely/not/here\"}", NULL, NULL, NULL), "path_not_found", "Path not found:", "missing root");
	snprintf(opts, sizeof opts, "{\"pattern\":\"*\",\"path\":\"%s/README.md\"}", root);
	expect_error(fscache_glob(opts, NULL, NULL, NULL), "not_a_directory", "Search path must be a directory", "file root");
	snprintf(opts, sizeof opts, "{\"pattern\":\"[a\",\"path\":\"%s\"}", root);
	expect_error(fscache_glob(opts, NULL, NULL, NULL), "invalid_glob", "Invalid glob pattern:", "bad glob");
	snprintf(opts, sizeof opts, "{\"pattern\":\"*\",\"path\":\"%s\",\"fileType\":7}", root);
	expect_error(fscache_glob(opts, NULL, NULL, NULL), "invalid_options", "GlobOptions.fileType:", "bad fileType");

	/* list workspace (pi-natives 18.2): entries to maxDepth, AGENTS.md files,
	 * errors, cancel flag, bad input */
	make_dir("docs");
	write_file("docs/AGENTS.md", "agents\n");
	write_file(".gitignore", "docs/AGENTS.md\n");
	snprintf(opts, sizeof opts, "{\"path\":\"%s\",\"maxDepth\":1}", root);
	res = fscache_list_workspace(opts, NULL);
	CHECK(res && strstr(res, "\"path\":\"src/main.c\"") == NULL, "list workspace depth 1: %s", res);
	CHECK(res && strstr(res, "\"agentsMdFiles\":[],\"truncated\":false}") != NULL, "list workspace tail: %s", res);
	expect_ok(res, "{\"ok\":{\"entries\":[{\"path\":\"NEW.md\",\"fileType\":1,\"mtime\":", "list workspace");
	snprintf(opts, sizeof opts, "{\"path\":\"%s\",\"maxDepth\":2,\"collectAgentsMd\":true}", root);
	res = fscache_list_workspace(opts, NULL);
	CHECK(res && strstr(res, "\"path\":\"src/deep/notes.md\"") == NULL, "list workspace depth 2: %s", res);
	CHECK(res && strstr(res, "\"path\":\"docs/AGENTS.md\",\"fileType\":1") != NULL, "gitignored AGENTS.md entry: %s", res);
	expect_ok(res, "\"agentsMdFiles\":[\"docs/AGENTS.md\"]", "list workspace agents");
	flag = 1;
	snprintf(opts, sizeof opts, "{\"path\":\"%s\",\"maxDepth\":3}", root);
	expect_error(fscache_list_workspace(opts, &flag), "aborted", "Aborted: Signal", "list workspace cancelled");
	flag = 0;
#ifdef _WIN32
	/* Windows makes the path absolute on the current drive, and says so
	   with its own error (os error 3, ERROR_PATH_NOT_FOUND). */
	{
		char *res = fscache_list_workspace("{\"path\":\"/definitely/not/here\",\"maxDepth\":1}", NULL);
		CHECK(res && strstr(res, "\"code\":\"path_not_found\"") && strstr(res, "Native directory scan failed for ") &&
			      strstr(res, "definitely\\\\not\\\\here: Path not found: ") && strstr(res, "(os error 3)"),
		      "list workspace missing root: got %s", res ? res : "NULL");
		fscache_free(res);
	}
#else
	expect_error(fscache_list_workspace("{\"path\":\"/definitely/not/here\",\"maxDepth\":1}", NULL), "path_not_found",
		     "Native directory scan failed for /definitely/not/here: Path not found: No such file or directory (os error 2)",
		     "list workspace missing root");
#endif
	snprintf(opts, sizeof opts, "{\"path\":\"%s/README.md\",\"maxDepth\":1}", root);
	expect_error(fscache_list_workspace(opts, NULL), "not_a_directory", "Native directory scan failed for ", "list workspace file root");
	expect_error(fscache_list_workspace(NULL, NULL), "invalid_options", "options_json is NULL", "list workspace NULL");
	expect_error(fscache_list_workspace("{\"path\":\".\"}", NULL), "invalid_options", "ListWorkspaceOptions.maxDepth: missing", "missing maxDepth");
	expect_error(fscache_list_workspace("{\"path\":\".\",\"maxDepth\":true}", NULL), "invalid_options", "ListWorkspaceOptions.maxDepth: expected a number", "bad maxDepth");

	/* grep maxCountPerFile (pi-natives 18.2): one match per file, each
	 * counted up to one past the cap */
	write_file("two.c", "main one\nmain two\nmain three\n");
	snprintf(opts, sizeof opts, "{\"pattern\":\"main\",\"path\":\"%s\",\"maxCountPerFile\":1}", root);
	res = fscache_grep(opts, NULL, NULL, NULL);
	CHECK(res && strstr(res, "\"path\":\"two.c\",\"lineNumber\":1,") != NULL, "maxCountPerFile first match: %s", res);
	CHECK(res && strstr(res, "\"path\":\"two.c\",\"lineNumber\":2,") == NULL, "maxCountPerFile kept a second match: %s", res);
	expect_ok(res, "\"totalMatches\":5,\"filesWithMatches\":4,\"filesSearched\":", "grep maxCountPerFile");
	expect_error(fscache_grep("{\"pattern\":\"a\",\"path\":\".\",\"maxCountPerFile\":\"1\"}", NULL, NULL, NULL), "invalid_options",
		     "GrepOptions.maxCountPerFile: expected a number", "bad maxCountPerFile");

#ifndef _WIN32
	/* read cache (fscache's own): a first read is pi's text, a reread
	 * against its hash is the marker, a range, the engine's error codes, a
	 * FIFO, the cancel flag (nothing stored), resolve and the store's
	 * statistics. (Not on Windows, whose test root is a relative path; the
	 * read cache wants an absolute cwd.) */
	{
		static const char hash[] = "4fdbc441ea7b546100e086ac1e4fc5ae6749b7314311c99db05be450eca12996";
		char ropts[2048], store[320], cancelled_store[320], fifo[320], key[400] = "";
		struct stat st;
		snprintf(store, sizeof store, "%s/rc-store", root);
		snprintf(cancelled_store, sizeof cancelled_store, "%s/rc-cancelled", root);
		write_file("rc.txt", "alpha\nbeta\ngamma\n");
		snprintf(ropts, sizeof ropts, "{\"path\":\"rc.txt\",\"cwd\":\"%s\",\"storeDir\":\"%s\"}", root, store);
		res = fscache_read_cache(ropts, NULL);
		CHECK(res && strncmp(res, "{\"ok\":{\"mode\":\"full\",\"pathKey\":\"", 32) == 0, "read cache first: %s", res);
		CHECK(res && strstr(res, "\"text\":\"alpha\\nbeta\\ngamma\\n\"") != NULL, "read cache first text: %s", res);
		CHECK(res && strstr(res, "\"meta\":{\"v\":1,") != NULL && strstr(res, hash) != NULL, "read cache first meta: %s", res);
		if (res) {
			const char *k = strstr(res, "\"pathKey\":\"");
			const char *e = k ? strchr(k + 11, '"') : NULL;
			if (e && (size_t)(e - (k + 11)) < sizeof key)
				memcpy(key, k + 11, (size_t)(e - (k + 11)));
		}
		expect_ok(res, "\"scopeKey\":\"full\"", "read cache first");
		snprintf(ropts, sizeof ropts,
			 "{\"path\":\"rc.txt\",\"cwd\":\"%s\",\"storeDir\":\"%s\",\"pathKey\":\"%s\",\"bases\":{\"full\":\"%s\"}}", root,
			 store, key, hash);
		res = fscache_read_cache(ropts, NULL);
		CHECK(res && strstr(res, "\"baseHash\":\"4fdbc441") != NULL, "read cache reread base: %s", res);
		expect_ok(res, "{\"ok\":{\"mode\":\"unchanged\",", "read cache reread");
		snprintf(ropts, sizeof ropts,
			 "{\"path\":\"rc.txt\",\"cwd\":\"%s\",\"storeDir\":\"%s\",\"pathKey\":\"%s\",\"bases\":{\"full\":\"%s\"}}", root,
			 store, key, hash);
		expect_ok(fscache_read_cache(ropts, NULL), "\"text\":\"[readcache: unchanged, 4 lines]\"", "read cache marker");
		snprintf(ropts, sizeof ropts, "{\"path\":\"rc.txt:2-2\",\"cwd\":\"%s\",\"noStore\":true}", root);
		res = fscache_read_cache(ropts, NULL);
		CHECK(res && strstr(res, "\"path\":\"rc.txt\",\"offset\":2,\"limit\":1,\"text\":\"beta\\n\\n[2 more lines in file. Use offset=3 to continue.]\"") != NULL,
		      "read cache range: %s", res);
		expect_ok(res, "\"scopeKey\":\"r:2:2\"", "read cache range");

		/* objectHash: the text of the content a marker stood for, from the
		 * store, after the file changed. */
		write_file("rc.txt", "changed\n");
		snprintf(ropts, sizeof ropts, "{\"path\":\"rc.txt:2-3\",\"cwd\":\"%s\",\"storeDir\":\"%s\",\"objectHash\":\"%s\"}", root,
			 store, hash);
		res = fscache_read_cache(ropts, NULL);
		CHECK(res && strstr(res, "\"text\":\"beta\\ngamma\\n\\n[1 more lines in file. Use offset=4 to continue.]\"") != NULL &&
			      strstr(res, "\"servedHash\":\"4fdbc441") != NULL,
		      "read cache objectHash: %s", res);
		expect_ok(res, "{\"ok\":{\"mode\":\"full\",", "read cache objectHash");
		snprintf(ropts, sizeof ropts,
			 "{\"path\":\"rc.txt\",\"cwd\":\"%s\",\"storeDir\":\"%s\",\"objectHash\":\"%064d\"}", root, store, 0);
		expect_error(fscache_read_cache(ropts, NULL), "object_missing", "readcache: object sha256-0000", "read cache objectHash missing");
		write_file("rc.txt", "alpha\nbeta\ngamma\n");

		snprintf(ropts, sizeof ropts, "{\"path\":\"rc.txt:3-1\",\"cwd\":\"%s\"}", root);
		expect_error(fscache_read_cache(ropts, NULL), "invalid_range", "", "read cache bad range");
		snprintf(ropts, sizeof ropts, "{\"path\":\"rc.txt\",\"cwd\":\"%s\",\"offset\":9}", root);
		expect_error(fscache_read_cache(ropts, NULL), "offset_beyond_eof", "Offset 9 is beyond end of file (4 lines total)",
			     "read cache offset past the end");
		snprintf(fifo, sizeof fifo, "%s/rc.fifo", root);
		CHECK(mkfifo(fifo, 0644) == 0, "mkfifo %s", fifo);
		snprintf(ropts, sizeof ropts, "{\"path\":\"rc.fifo\",\"cwd\":\"%s\"}", root);
		expect_error(fscache_read_cache(ropts, NULL), "not_regular", "Not a regular file: ", "read cache FIFO");
		expect_error(fscache_read_cache(NULL, NULL), "invalid_options", "options_json is NULL", "read cache NULL");
		expect_error(fscache_read_cache("{\"path\":\"x\",\"offset\":\"1\"}", NULL), "invalid_options",
			     "ReadCacheOptions.offset: expected a number", "read cache bad offset");
		expect_error(fscache_read_cache("{\"path\":\"x\",\"bases\":[]}", NULL), "invalid_options",
			     "ReadCacheOptions.bases: expected an object", "read cache bad bases");

		flag = 1;
		snprintf(ropts, sizeof ropts, "{\"path\":\"rc.txt\",\"cwd\":\"%s\",\"storeDir\":\"%s\"}", root, cancelled_store);
		expect_error(fscache_read_cache(ropts, &flag), "cancelled", "Operation aborted", "read cache cancelled");
		flag = 0;
		snprintf(ropts, sizeof ropts, "{\"path\":\"rc.txt\",\"cwd\":\"%s\",\"storeDir\":\"%s\",\"timeoutMs\":0}", root, cancelled_store);
		expect_error(fscache_read_cache(ropts, &flag), "timeout", "Aborted: Timeout", "read cache timeout");
		CHECK(stat(cancelled_store, &st) != 0, "a cancelled read made its store %s", cancelled_store);

		snprintf(ropts, sizeof ropts, "{\"path\":\"@rc.txt:1-2\",\"cwd\":\"%s\"}", root);
		expect_ok(fscache_read_cache_resolve(ropts), "\"path\":\"@rc.txt\",\"offset\":1,\"limit\":2}}", "read cache resolve");
		snprintf(ropts, sizeof ropts, "{\"path\":\"rc.txt:0\",\"cwd\":\"%s\"}", root);
		expect_error(fscache_read_cache_resolve(ropts), "invalid_range", "", "resolve bad range");
		expect_error(fscache_read_cache_resolve(NULL), "invalid_options", "options_json is NULL", "resolve NULL");
		snprintf(ropts, sizeof ropts, "{\"dir\":\"%s\"}", store);
		expect_ok(fscache_read_cache_store(ropts), "\",\"objects\":1,\"bytes\":17}}", "read cache store");
		expect_error(fscache_read_cache_store("{}"), "invalid_options", "ReadCacheStoreOptions.dir: missing", "store without dir");
		expect_error(fscache_read_cache_store(NULL), "invalid_options", "options_json is NULL", "store NULL");
	}
#endif

	/* free */
	fscache_free(NULL);

	char cmd[600];
#ifdef _WIN32
	snprintf(cmd, sizeof cmd, "rmdir /s /q \"%s\"", root);
#else
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
#endif
	if (system(cmd) != 0)
		fprintf(stderr, "warning: could not remove %s\n", root);

	printf("%d passed, %d failed\n", checks - failures, failures);
	return failures ? 1 : 0;
}
