/* example.c - the smallest fscache C program, built by `make test-dist` with
 * nothing but `cc example.c $(pkg-config --cflags --libs fscache)`:
 * globs DIR for *.c and prints the result document. */
#include <fscache.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
	char opts[4096];
	snprintf(opts, sizeof opts, "{\"pattern\":\"*.c\",\"path\":\"%s\"}", argc > 1 ? argv[1] : ".");
	char *res = fscache_glob(opts, NULL, NULL, NULL);
	int ok = strncmp(res, "{\"ok\":", 6) == 0;
	printf("fscache %s: %s\n", fscache_version(), res);
	fscache_free(res);
	return ok ? 0 : 1;
}
