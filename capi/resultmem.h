/*
 * resultmem.h - internal to the library: the header in front of every result
 * it hands out (resultmem.go allocates them, exports.c's fscache_free releases
 * them). Not part of the C ABI (include/fscache.h).
 *
 * A result is FSCACHE_RESULT_HDR bytes of header, then the NUL-terminated
 * text the caller gets a pointer to. The header's first 8 bytes say how the
 * block was allocated:
 *   FSCACHE_RESULT_MALLOC  malloc'd: fscache_free frees it in C, without
 *                          entering Go (a thread's first entry into the Go
 *                          runtime costs 0.1-0.2 ms, and 0.25-0.4 on a
 *                          process's main thread, where it reads
 *                          /proc/self/maps: Node's JS thread frees results);
 *   FSCACHE_RESULT_REGION  a mapped region of resultmem.go's pool: freed in Go.
 * The header keeps the text 16-byte aligned, as malloc's own blocks are.
 */
#ifndef FSCACHE_CAPI_RESULTMEM_H
#define FSCACHE_CAPI_RESULTMEM_H

#include <stdint.h>
#include <string.h>

#define FSCACHE_RESULT_HDR 16
#define FSCACHE_RESULT_MALLOC 0x6366736d616c6c63ULL /* "cllamsfc" */
#define FSCACHE_RESULT_REGION 0x6366737265676e63ULL /* "cngersfc" */

/* The tag of the result whose text starts at p. */
static inline uint64_t fscache_result_tag(const char *p) {
	uint64_t tag;
	memcpy(&tag, p - FSCACHE_RESULT_HDR, sizeof tag);
	return tag;
}

#endif
