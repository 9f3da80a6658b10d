/* dlsym.h: sym, dlsym or exit, for the C programs that load libfscache
 * with dlopen. Include after <dlfcn.h>, <stdio.h> and <stdlib.h>. */
#ifndef FSCACHE_CTEST_DLSYM_H
#define FSCACHE_CTEST_DLSYM_H

/* sym returns the symbol name of lib, or reports it missing and exits 2. */
static inline void *sym(void *lib, const char *name) {
	void *p = dlsym(lib, name);
	if (p == NULL) {
		fprintf(stderr, "dlsym %s: %s\n", name, dlerror());
		exit(2);
	}
	return p;
}

#endif
