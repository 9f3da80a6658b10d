/*
 * ffi_sink.c - a test helper for ffi.bun.test.ts, compiled at test time by
 * bun:ffi's built-in TinyCC (`cc`). It is an fscache_match_fn that can run
 * on any thread: it copies each match into a buffer (one JSON object per
 * line), notes whether it ran on the thread that armed it, and can set a
 * cancel flag after a number of matches. libfscache never runs two
 * callbacks of one call at once and all have returned before the call
 * does, so the JS thread may read the buffer once the call is back.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static char *buf;
static size_t len, cap, count, foreign;
static int armed_tid;
static int32_t *cancel_flag;
static size_t cancel_after;

int sink_tid(void) { return (int)syscall(SYS_gettid); }

/* Clears the buffer and records the calling thread as the expected one. */
void sink_reset(void) {
  free(buf);
  buf = NULL;
  len = cap = count = foreign = 0;
  cancel_flag = NULL;
  cancel_after = 0;
  armed_tid = sink_tid();
}

/* After `after` matches, store 1 into *flag. */
void sink_cancel_after(int32_t *flag, size_t after) {
  cancel_flag = flag;
  cancel_after = after;
}

static void on_match(void *ctx, const char *json, size_t n) {
  (void)ctx;
  if (sink_tid() != armed_tid) foreign++;
  if (len + n + 2 > cap) {
    size_t c = cap ? cap * 2 : 65536;
    while (c < len + n + 2) c *= 2;
    char *nb = realloc(buf, c);
    if (nb == NULL) return;
    buf = nb;
    cap = c;
  }
  memcpy(buf + len, json, n);
  len += n;
  buf[len++] = '\n';
  buf[len] = '\0';
  count++;
  /* TinyCC has no __atomic builtins; an aligned 32-bit volatile store is
   * single-copy atomic on the platforms Bun runs on, and the library reads
   * the flag with an atomic load. */
  if (cancel_flag != NULL && count == cancel_after) *(volatile int32_t *)cancel_flag = 1;
}

void *sink_fn(void) { return (void *)on_match; }
const char *sink_data(void) { return buf ? buf : ""; }
double sink_count(void) { return (double)count; }
double sink_foreign(void) { return (double)foreign; }
