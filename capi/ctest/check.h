/* check.h: the counters and the CHECK macro of the C tests. CHECK(cond,
 * fmt, ...) counts a check and, when cond is false, a failure, printed
 * with its place and the message. Include after <stdio.h>. */
#ifndef FSCACHE_CTEST_CHECK_H
#define FSCACHE_CTEST_CHECK_H

static int failures;
static int checks;

#define CHECK(cond, ...)                                                     \
	do {                                                                 \
		checks++;                                                    \
		if (!(cond)) {                                               \
			failures++;                                          \
			fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
			fprintf(stderr, __VA_ARGS__);                        \
			fprintf(stderr, "\n");                               \
		}                                                            \
	} while (0)

#endif
