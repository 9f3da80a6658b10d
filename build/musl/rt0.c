/*
 * rt0.c - starts the Go runtime of libfscache built for musl.
 *
 * A Go library (-buildmode=c-shared or c-archive) starts its runtime from an
 * ELF constructor (DT_INIT_ARRAY) that takes argc, argv and envp in the first
 * argument registers, as glibc's loader passes them to constructors. musl's
 * loader calls constructors with no arguments, so the runtime reads garbage
 * and crashes at load (Go issue 13492). build/mk/platforms.mk therefore builds the
 * musl library from Go's c-archive with that constructor taken out of the
 * archive's go.o (objcopy), and links this file in: its constructor calls the
 * runtime's entry with an argv of one name, the process's environment (which
 * Go copies at start-up for os.Getenv: FS_SCAN_CACHE_TTL_MS and the rest)
 * and an empty auxiliary vector (the runtime then reads /proc/self/auxv).
 */
#include <stdlib.h>

#if defined(__x86_64__)
#define GO_RT0 _rt0_amd64_linux_lib
#elif defined(__aarch64__)
#define GO_RT0 _rt0_arm64_linux_lib
#else
#error "rt0.c: unknown architecture"
#endif

extern void GO_RT0(int argc, char **argv, char **envp);
extern char **environ;

__attribute__((constructor)) static void fscache_go_rt0(void) {
	size_t n = 0;
	while (environ != NULL && environ[n] != NULL)
		n++;
	/* argv[0], NULL, envp[0..n-1], NULL, auxv: AT_NULL, 0 */
	char **v = calloc(n + 5, sizeof *v);
	if (v == NULL)
		abort();
	v[0] = "libfscache";
	for (size_t i = 0; i < n; i++)
		v[2 + i] = environ[i];
	GO_RT0(1, v, v + 2); /* the runtime keeps v: never freed */
}
