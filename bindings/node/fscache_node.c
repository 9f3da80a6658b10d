/*
 * fscache_node.c - the Node-API addon over libfscache (include/fscache.h).
 *
 * Thin by design: it moves JSON strings between JS and the C ABI, runs each
 * call off the JS thread, and hands results back as plain JS values made by
 * JSON.parse. Argument checking, option shaping and AbortSignal wiring live
 * in index.cjs; this file only has to survive whatever it is given.
 *
 * Exports (all low level; the package's JS is the public surface):
 *   glob(optionsJson, onMatch?, token?)   -> Promise<GlobResult>
 *   fuzzyFind(optionsJson, token?)        -> Promise<FuzzyFindResult>
 *   grep(optionsJson, onMatch?, token?)   -> Promise<GrepResult>
 *   listWorkspace(optionsJson, token?)    -> Promise<ListWorkspaceResult>
 *   readCache(optionsJson, token?)        -> Promise<ReadCacheResult>
 *   readCacheResolve(optionsJson)         -> Promise<ReadCacheResolved>
 *   readCacheStore(optionsJson)           -> Promise<ReadCacheStoreInfo>
 *   invalidate(path?)                     -> undefined (synchronous)
 *   cacheStats()                          -> JSON string (synchronous)
 *   createCancelToken()                   -> opaque token
 *   cancel(token)                         -> undefined (sets the token's flag)
 *   closeAll()                            -> undefined (stops this env's calls)
 *   version()                             -> string
 *
 * Life of a call
 *   JS thread: copy the options, create the promise, and, when onMatch is a
 *   function, a thread-safe function (tsfn) that carries match batches to the
 *   JS thread. Queue the async work.
 *   Worker thread (execute): call fscache_*. Its on_match callback (any
 *   thread) appends each match to a per-call buffer that is handed to the
 *   tsfn as one JSON array when it reaches FLUSH_BYTES or when FLUSH_NS has
 *   passed since the last hand-off; a process-wide flusher thread hands off
 *   buffers that sat idle for FLUSH_NS, so sparse matches still stream. At
 *   most TSFN_QUEUE batches are in flight; a producer that finds the queue
 *   full waits (its Go thread with it) until the JS thread takes one, which
 *   bounds memory when onMatch is slow. After fscache_* returns: hand off the
 *   rest, then queue an end-of-call marker and release the tsfn.
 *   JS thread: each batch is JSON.parse'd once and onMatch(null, match) is
 *   called for every element, in order. A throw stops delivery, sets the
 *   call's cancel flag and becomes the rejection. The promise settles only
 *   when both the async work completed and the end marker went through the
 *   tsfn queue, so every match is delivered before the promise settles.
 *
 * Teardown: the tsfn is only called non-blocking (see queue_locked), and
 * every running call is on a list so that an environment going away (a
 * worker ending, process.exit()) can stop its calls at once (close_calls).
 * The addon is linked with -z nodelete: a worker's exit must not unmap code
 * that the flusher thread or a running call still executes.
 *
 * Cancellation: a token is an external wrapping a refcounted int32 cell. The
 * cell, not JS memory, is what fscache polls, so nothing a script does to a
 * JS object (detaching a buffer, dropping the token) can leave the library
 * reading freed memory. Calls without a token get a private cell, which is
 * still needed to stop a call whose onMatch threw.
 */
#define NAPI_VERSION 8
#include <node_api.h>

#ifdef _WIN32
#include "win32_threads.h" /* the pthread calls below, on Win32's primitives */
#else
#include <pthread.h>
#endif
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fscache.h"

#define FLUSH_BYTES (64u * 1024u)         /* hand a batch off at this size */
#define FLUSH_NS (8ull * 1000ull * 1000ull) /* ... or when it is this old */
#define TSFN_QUEUE 8                       /* batches in flight per call */

/* ------------------------------------------------------------------------ */
/* Small helpers                                                             */

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Throws a TypeError unless an exception is already pending. */
static napi_value throw_type(napi_env env, const char *code, const char *msg) {
  bool pending = false;
  napi_is_exception_pending(env, &pending);
  if (!pending) napi_throw_type_error(env, code, msg);
  return NULL;
}

/* Makes a best effort to leave no exception pending and report failure. */
static napi_value fail(napi_env env, const char *msg) {
  bool pending = false;
  napi_is_exception_pending(env, &pending);
  if (!pending) napi_throw_error(env, "internal", msg);
  return NULL;
}

#define CHECK(env, call, msg)                                                  \
  do {                                                                         \
    if ((call) != napi_ok) return fail((env), (msg));                          \
  } while (0)

/* Copies a JS string into a new NUL-terminated malloc'd buffer. */
static char *dup_js_string(napi_env env, napi_value v, size_t *out_len) {
  size_t len = 0;
  if (napi_get_value_string_utf8(env, v, NULL, 0, &len) != napi_ok) return NULL;
  char *s = malloc(len + 1);
  if (s == NULL) return NULL;
  if (napi_get_value_string_utf8(env, v, s, len + 1, &len) != napi_ok) {
    free(s);
    return NULL;
  }
  s[len] = '\0';
  if (out_len) *out_len = len;
  return s;
}

static bool is_nullish(napi_env env, napi_value v) {
  napi_valuetype t = napi_undefined;
  if (v == NULL || napi_typeof(env, v, &t) != napi_ok) return true;
  return t == napi_undefined || t == napi_null;
}

/* ------------------------------------------------------------------------ */
/* Per-environment data: JSON.parse, captured once at load.                  */

typedef struct {
  napi_ref json_parse;
  napi_ref array_concat; /* Array.prototype.concat */
} addon_data;

static void addon_data_finalize(napi_env env, void *data, void *hint) {
  (void)hint;
  addon_data *d = data;
  if (d->json_parse) napi_delete_reference(env, d->json_parse);
  if (d->array_concat) napi_delete_reference(env, d->array_concat);
  free(d);
}

/* JSON.parse(str) -> value; returns NULL with an exception pending on error. */
static napi_value json_parse_string(napi_env env, napi_value str) {
  addon_data *d = NULL;
  napi_value fn, global, out = NULL;
  if (napi_get_instance_data(env, (void **)&d) != napi_ok || d == NULL ||
      napi_get_reference_value(env, d->json_parse, &fn) != napi_ok || fn == NULL) {
    fail(env, "fscache: JSON.parse is unavailable");
    return NULL;
  }
  if (napi_get_global(env, &global) != napi_ok) {
    fail(env, "fscache: cannot reach the global object");
    return NULL;
  }
  if (napi_call_function(env, global, fn, 1, &str, &out) != napi_ok) {
    fail(env, "fscache: JSON.parse failed");
    return NULL;
  }
  return out;
}

/* JSON.parse of text[0:len), read as UTF-8, or as a one-byte string when
 * latin1; returns NULL with an exception pending on error. */
static napi_value json_parse_text(napi_env env, const char *text, size_t len, int latin1) {
  napi_value str;
  napi_status st = latin1 ? napi_create_string_latin1(env, text, len, &str)
                          : napi_create_string_utf8(env, text, len, &str);
  if (st != napi_ok) {
    fail(env, "fscache: cannot create a string for JSON.parse");
    return NULL;
  }
  return json_parse_string(env, str);
}

/* JSON.parse(text) -> value; returns NULL with an exception pending on error. */
static napi_value json_parse(napi_env env, const char *text, size_t len) {
  return json_parse_text(env, text, len, 0);
}

/*
 * Results are turned into JS values by JSON.parse, on strings copied into
 * V8's heap. libfscache writes its JSON in ASCII (non-ASCII characters as
 * \u escapes), so a result is a valid one-byte (Latin-1) string as it is
 * and needs no decoding. A large result ({"ok":{"matches":[...], ...}}
 * with thousands of matches) is parsed as chunks of its matches array, each
 * small enough to be an ordinary young-generation string, and the arrays
 * are joined with Array.prototype.concat. Nothing of it is left to V8: the
 * library's buffer is freed (and reused by the library, already faulted
 * in) as soon as the call settles. A 0.5 MB string would otherwise be a
 * large-object page of its own, and an external string over the library's
 * buffer lives in V8's old generation until a full collection: either way
 * every call touched fresh memory, whose page faults cost more than
 * JSON.parse itself.
 *
 * From CHUNK_MAX up the result is one string again: there the chunks, all
 * garbage once parsed, fill the young generation several times over during
 * one call, and every scavenge copies the matches parsed so far. Medians
 * of four alternations, ms per call, chunked / with this limit / one string
 * always: 165,600-match glob (15 MB) 137 / 79 / 78; 36k-line grep (5 MB)
 * 152 / 146 / 146; 7.7k-match glob (0.46 MB) 3.2 / 3.1 / 5.6.
 */
#define CHUNK_MIN (96u * 1024u)   /* results from this size are parsed in chunks */
#define CHUNK_MAX (1024u * 1024u) /* ... up to this size */
#define CHUNK_BYTES (48u * 1024u) /* ... of about this many bytes of matches */

/* How a glob, fuzzyFind or grep result begins: fixed by the header's "Result
 * layout"; capi's TestResultLayout reads this definition and checks it. */
static const char MATCHES_PREFIX[] = "{\"ok\":{\"matches\":[";

static int is_ascii(const char *s, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, s + i, 8);
    if (w & 0x8080808080808080ull) return 0;
  }
  for (; i < n; i++)
    if ((unsigned char)s[i] & 0x80) return 0;
  return 1;
}

/* JSON.parse of text[0:len), a one-byte string. */
static napi_value json_parse_latin1(napi_env env, const char *text, size_t len) {
  return json_parse_text(env, text, len, 1);
}

/* Index of the '"' closing the JSON string whose opening quote is at
 * text[i], or len when there is none. */
static size_t string_end(const char *text, size_t len, size_t i) {
  for (size_t j = i + 1; j < len;) {
    const char *q = memchr(text + j, '"', len - j);
    if (q == NULL) return len;
    size_t k = (size_t)(q - text), b = k;
    while (b > i + 1 && text[b - 1] == '\\') b--;
    if ((k - b) % 2 == 0) return k; /* not escaped */
    j = k + 1;
  }
  return len;
}

/* Parses a large {"ok":{"matches":[...]...}} result in chunks (see above).
 * text is the library's buffer, which this overwrites in places. Returns
 * NULL with an exception pending on error. */
static napi_value json_parse_chunked(napi_env env, char *text, size_t len) {
  addon_data *d = NULL;
  napi_value concat;
  if (napi_get_instance_data(env, (void **)&d) != napi_ok || d == NULL ||
      napi_get_reference_value(env, d->array_concat, &concat) != napi_ok || concat == NULL)
    return fail(env, "fscache: Array.prototype.concat is unavailable");
  size_t cap = len / CHUNK_BYTES + 2, n = 0;
  napi_value *chunks = malloc(cap * sizeof *chunks);
  if (chunks == NULL) return fail(env, "fscache: out of memory");
  napi_value out = NULL;
  size_t a = sizeof MATCHES_PREFIX - 1, start = a, i = a, end = 0;
  int depth = 0;
  for (; i < len; i++) {
    char c = text[i];
    if (c == '"') {
      i = string_end(text, len, i);
    } else if (c == '{' || c == '[') {
      depth++;
    } else if (c == '}') {
      depth--;
    } else if (c == ']') {
      if (depth == 0) {
        end = i;
        break;
      }
      depth--;
    } else if (c == ',' && depth == 0 && i - start >= CHUNK_BYTES) {
      text[start - 1] = '[';
      text[i] = ']';
      if (n == cap || (chunks[n] = json_parse_latin1(env, text + start - 1, i - start + 2)) == NULL) goto done;
      n++;
      start = i + 1;
    }
  }
  if (end == 0) {
    fail(env, "fscache: malformed result from the library");
    goto done;
  }
  if (end > start) {
    text[start - 1] = '[';
    if (n == cap || (chunks[n] = json_parse_latin1(env, text + start - 1, end - start + 2)) == NULL) goto done;
    n++;
  }
  /* The envelope, with an empty matches array: the prefix, "]", the tail. */
  size_t tail = len - end, elen = a + tail;
  char *e = malloc(elen);
  if (e == NULL) {
    fail(env, "fscache: out of memory");
    goto done;
  }
  memcpy(e, text, a);
  memcpy(e + a, text + end, tail);
  napi_value envelope = json_parse_latin1(env, e, elen);
  free(e);
  if (envelope == NULL || n == 0) {
    out = envelope;
    goto done;
  }
  napi_value ok, matches;
  if (napi_get_named_property(env, envelope, "ok", &ok) != napi_ok ||
      napi_call_function(env, chunks[0], concat, n - 1, chunks + 1, &matches) != napi_ok ||
      napi_set_named_property(env, ok, "matches", matches) != napi_ok) {
    fail(env, "fscache: cannot assemble the result");
    goto done;
  }
  out = envelope;
done:
  free(chunks);
  return out;
}

/* JSON.parse of a result from fscache_*. It stays the caller's to free. */
static napi_value json_parse_result(napi_env env, char *text) {
  size_t len = strlen(text);
  if (!is_ascii(text, len)) return json_parse(env, text, len);
  if (len >= CHUNK_MIN && len < CHUNK_MAX && strncmp(text, MATCHES_PREFIX, sizeof MATCHES_PREFIX - 1) == 0)
    return json_parse_chunked(env, text, len);
  return json_parse_latin1(env, text, len);
}

/* ------------------------------------------------------------------------ */
/* Cancel cells and tokens                                                   */

typedef struct {
  int32_t flag; /* read by fscache as const volatile int32_t*; written atomically */
  int refs;     /* atomic */
} cancel_cell;

static cancel_cell *cell_new(void) {
  cancel_cell *c = calloc(1, sizeof *c);
  if (c) c->refs = 1;
  return c;
}
static void cell_ref(cancel_cell *c) { __atomic_add_fetch(&c->refs, 1, __ATOMIC_ACQ_REL); }
static void cell_unref(cancel_cell *c) {
  if (c && __atomic_sub_fetch(&c->refs, 1, __ATOMIC_ACQ_REL) == 0) free(c);
}
static void cell_set(cancel_cell *c) { __atomic_store_n(&c->flag, 1, __ATOMIC_SEQ_CST); }

/* Tags our externals so a foreign external is never mistaken for a token. */
static const napi_type_tag TOKEN_TAG = {0x6673636163686531ull, 0x63616e63656c746bull};

static void token_finalize(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  cell_unref(data);
}

/* Returns the cell of a token, or NULL (with a TypeError thrown) when `v`
 * is not one. */
static cancel_cell *token_cell(napi_env env, napi_value v) {
  napi_valuetype t;
  bool tagged = false;
  void *p = NULL;
  if (napi_typeof(env, v, &t) != napi_ok || t != napi_external ||
      napi_check_object_type_tag(env, v, &TOKEN_TAG, &tagged) != napi_ok || !tagged ||
      napi_get_value_external(env, v, &p) != napi_ok || p == NULL) {
    throw_type(env, "InvalidArg", "fscache: expected a cancel token from createCancelToken()");
    return NULL;
  }
  return p;
}

static napi_value js_create_cancel_token(napi_env env, napi_callback_info info) {
  (void)info;
  cancel_cell *c = cell_new();
  napi_value ext;
  if (c == NULL) return fail(env, "fscache: out of memory");
  if (napi_create_external(env, c, token_finalize, NULL, &ext) != napi_ok) {
    cell_unref(c);
    return fail(env, "fscache: cannot create a cancel token");
  }
  if (napi_type_tag_object(env, ext, &TOKEN_TAG) != napi_ok)
    return fail(env, "fscache: cannot tag a cancel token");
  return ext;
}

static napi_value js_cancel(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1] = {NULL};
  CHECK(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL), "fscache: bad call");
  if (argc < 1) return throw_type(env, "InvalidArg", "fscache: cancel(token) needs a token");
  cancel_cell *c = token_cell(env, argv[0]);
  if (c == NULL) return NULL;
  cell_set(c);
  return NULL;
}

/* ------------------------------------------------------------------------ */
/* Calls                                                                     */

typedef enum { OP_GLOB, OP_FUZZY, OP_GREP, OP_LIST, OP_READ, OP_RESOLVE, OP_STORE } op_kind;

typedef struct call call;

typedef struct {
  call *c;
  char *json; /* "[m1,m2,...]"; NULL marks the end of the call */
  size_t len;
} batch;

struct call {
  op_kind op;
  napi_env env;
  char *options;
  cancel_cell *cancel;
  napi_deferred deferred;
  napi_async_work work;
  napi_threadsafe_function tsfn; /* NULL without onMatch */
  char *result;                  /* from fscache_*, released with fscache_free */

  /* Guarded by mu: the match buffer, and every use of the tsfn by a worker
   * thread (always non-blocking, so mu is never held while waiting on the
   * JS thread except inside pthread_cond_timedwait, which releases it). */
  pthread_mutex_t mu;
  pthread_cond_t room; /* the JS thread took a batch, or the call is closing */
  char *buf;
  size_t len, cap, count;
  uint64_t last_flush_ns;
  int closing;  /* the environment is going away: never touch the tsfn again */
  int flushing; /* a hand-off is waiting for room (mu released meanwhile) */
  int oom;     /* a buffer could not grow: the call is cancelled */

  /* Active-call list links, guarded by g_mu. */
  call *prev, *next;
  int listed;

  int stop_delivery; /* atomic: onMatch threw, drop further matches */

  /* JS-thread state. */
  napi_ref exception; /* what onMatch threw (in a holder object) */
  int work_done;      /* complete callback ran */
  int stream_done;    /* end marker went through the tsfn (or no tsfn) */
  int settled;        /* the promise is settled (or will never be) */
  int refs;           /* one for the promise, one for the tsfn */
};

/*
 * Every call between start and the end of its work is on g_active. The
 * flusher thread walks it to hand off idle match buffers; close_calls()
 * walks it when an environment goes away (env cleanup hook, process exit)
 * to stop that environment's calls. Lock order: g_mu, then a call's mu.
 */
static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_cv;
static call *g_active;
static int g_flusher_started;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

static int flush_locked(call *c, int wait);

/* The clock of the timed waits' deadlines. macOS has no
 * pthread_condattr_setclock: there, deadlines are on CLOCK_REALTIME (a clock
 * step only makes one flush early or late). */
#ifdef __APPLE__
#define COND_CLOCK CLOCK_REALTIME
#else
#define COND_CLOCK CLOCK_MONOTONIC
#endif

static void deadline_after(struct timespec *ts, uint64_t ns) {
  clock_gettime(COND_CLOCK, ts);
  ts->tv_sec += (time_t)(ns / 1000000000ull);
  ts->tv_nsec += (long)(ns % 1000000000ull);
  if (ts->tv_nsec >= 1000000000L) {
    ts->tv_sec++;
    ts->tv_nsec -= 1000000000L;
  }
}

/* Condition variables on COND_CLOCK, for timed waits. */
static void cond_init_monotonic(pthread_cond_t *cv) {
#ifdef __APPLE__
  pthread_cond_init(cv, NULL);
#else
  pthread_condattr_t attr;
  pthread_condattr_init(&attr);
  pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
  pthread_cond_init(cv, &attr);
  pthread_condattr_destroy(&attr);
#endif
}

static void globals_init_once(void) { cond_init_monotonic(&g_cv); }

static void *flusher_main(void *arg) {
  (void)arg;
  pthread_mutex_lock(&g_mu);
  for (;;) {
    while (g_active == NULL) pthread_cond_wait(&g_cv, &g_mu);
    struct timespec ts;
    deadline_after(&ts, FLUSH_NS);
    pthread_cond_timedwait(&g_cv, &g_mu, &ts);
    uint64_t now = now_ns();
    for (call *c = g_active; c != NULL; c = c->next) {
      if (c->tsfn == NULL || pthread_mutex_trylock(&c->mu) != 0) continue; /* producer busy */
      if (c->count > 0 && !c->flushing && now - c->last_flush_ns >= FLUSH_NS) flush_locked(c, 0);
      pthread_mutex_unlock(&c->mu);
    }
  }
  return NULL;
}

static void list_add(call *c) {
  pthread_once(&g_once, globals_init_once);
  pthread_mutex_lock(&g_mu);
  if (!g_flusher_started && c->tsfn != NULL) {
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attr, 64 * 1024);
    if (pthread_create(&t, &attr, flusher_main, NULL) == 0) g_flusher_started = 1;
    pthread_attr_destroy(&attr);
  }
  c->prev = NULL;
  c->next = g_active;
  if (g_active) g_active->prev = c;
  g_active = c;
  c->listed = 1;
  if (c->tsfn != NULL) pthread_cond_signal(&g_cv);
  pthread_mutex_unlock(&g_mu);
}

static void list_remove(call *c) {
  pthread_mutex_lock(&g_mu);
  if (c->listed) {
    if (c->prev) c->prev->next = c->next;
    else g_active = c->next;
    if (c->next) c->next->prev = c->prev;
    c->listed = 0;
  }
  pthread_mutex_unlock(&g_mu);
}

/* Stops every running call of `env`: no more deliveries, cancel flag set,
 * producers waiting for room woken. For environment teardown and exit. */
static void close_calls(napi_env env) {
  pthread_once(&g_once, globals_init_once);
  pthread_mutex_lock(&g_mu);
  for (call *c = g_active; c != NULL; c = c->next) {
    if (c->env != env) continue;
    cell_set(c->cancel);
    if (c->tsfn == NULL) continue;
    pthread_mutex_lock(&c->mu);
    c->closing = 1;
    pthread_cond_broadcast(&c->room);
    pthread_mutex_unlock(&c->mu);
  }
  pthread_mutex_unlock(&g_mu);
}

/* Queues `b` on the tsfn. Caller holds c->mu. Returns 0 when queued, 1 when
 * the queue is full and `wait` is 0, -1 when the call is closing. With
 * `wait`, waits for room (the JS thread signals c->room after each batch;
 * the timeout only guards against a missed wake-up). The tsfn is only ever
 * called non-blocking: a thread blocked inside it could not be woken by
 * process.exit() (the process would hang joining the thread pool), and Bun
 * may free a tsfn at worker teardown while a thread is blocked in it. */
static int queue_locked(call *c, batch *b, int wait) {
  for (;;) {
    if (c->closing) return -1;
    napi_status st = napi_call_threadsafe_function(c->tsfn, b, napi_tsfn_nonblocking);
    if (st == napi_ok) return 0;
    if (st != napi_queue_full) { /* napi_closing: the environment is going away */
      c->closing = 1;
      cell_set(c->cancel);
      return -1;
    }
    if (!wait) return 1;
    struct timespec ts;
    deadline_after(&ts, 50ull * 1000 * 1000);
    pthread_cond_timedwait(&c->room, &c->mu, &ts);
  }
}

/* Hands the buffered matches to the JS thread as one JSON array. Caller holds
 * c->mu. Returns 0 when handed off or nothing was buffered, 1 when the queue
 * was full (no `wait`; the buffer is kept), -1 when the call is closing (the
 * buffer is dropped). */
static int flush_locked(call *c, int wait) {
  if (c->count == 0) return 0;
  batch *b = c->closing ? NULL : malloc(sizeof *b);
  int r = -1;
  if (b != NULL) {
    c->buf[c->len] = ']'; /* room reserved by append_locked */
    b->c = c;
    b->json = c->buf;
    b->len = c->len + 1;
    /* queue_locked may wait, releasing mu: the flusher must not hand the
     * same buffer off meanwhile. */
    c->flushing = 1;
    r = queue_locked(c, b, wait);
    c->flushing = 0;
    if (r == 1) {
      free(b);
      return 1;
    }
    if (r != 0) free(b);
  }
  if (r != 0) free(c->buf); /* dropped */
  c->buf = NULL;            /* handed off or dropped */
  c->len = c->cap = c->count = 0;
  c->last_flush_ns = now_ns();
  return r;
}

/* Appends one match to the buffer. Caller holds c->mu. Keeps room for ']'. */
static int append_locked(call *c, const char *json, size_t len) {
  size_t need = c->len + len + 2; /* separator + match + ']' */
  if (need > c->cap) {
    size_t cap = c->cap ? c->cap : 4096;
    while (cap < need) cap *= 2;
    char *nb = realloc(c->buf, cap);
    if (nb == NULL) return -1;
    c->buf = nb;
    c->cap = cap;
  }
  c->buf[c->len++] = c->count == 0 ? '[' : ',';
  memcpy(c->buf + c->len, json, len);
  c->len += len;
  c->count++;
  return 0;
}

/* fscache_match_fn: runs on any thread, never concurrently for one call. */
static void on_match(void *ctx, const char *match_json, size_t len) {
  call *c = ctx;
  if (match_json == NULL || __atomic_load_n(&c->stop_delivery, __ATOMIC_ACQUIRE)) return;
  pthread_mutex_lock(&c->mu);
  if (!c->closing && !c->oom) {
    if (append_locked(c, match_json, len) != 0) {
      c->oom = 1;
      cell_set(c->cancel);
    } else if (c->len >= FLUSH_BYTES || now_ns() - c->last_flush_ns >= FLUSH_NS) {
      flush_locked(c, 1);
    }
  }
  pthread_mutex_unlock(&c->mu);
}

static void execute(napi_env env, void *data) {
  (void)env;
  call *c = data;
  const int streaming = c->tsfn != NULL; /* set before the work was queued */
  fscache_match_fn cb = streaming ? on_match : NULL;
  const volatile int32_t *cancel = &c->cancel->flag;
  if (streaming) {
    pthread_mutex_lock(&c->mu);
    c->last_flush_ns = now_ns();
    pthread_mutex_unlock(&c->mu);
  }
  switch (c->op) {
    case OP_GLOB: c->result = fscache_glob(c->options, cb, c, cancel); break;
    case OP_FUZZY: c->result = fscache_fuzzy_find(c->options, cancel); break;
    case OP_GREP: c->result = fscache_grep(c->options, cb, c, cancel); break;
    case OP_LIST: c->result = fscache_list_workspace(c->options, cancel); break;
    case OP_READ: c->result = fscache_read_cache(c->options, cancel); break;
    case OP_RESOLVE: c->result = fscache_read_cache_resolve(c->options); break;
    case OP_STORE: c->result = fscache_read_cache_store(c->options); break;
  }
  list_remove(c);
  if (streaming) {
    pthread_mutex_lock(&c->mu);
    flush_locked(c, 1);
    /* The end marker: queued after every batch, so when the JS thread sees
     * it every match has been delivered. If it cannot be queued (the
     * environment is closing), the tsfn finalizer settles instead. */
    batch *end = c->closing ? NULL : calloc(1, sizeof *end);
    if (end != NULL) {
      end->c = c;
      if (queue_locked(c, end, 1) != 0) free(end);
    }
    int closing = c->closing;
    pthread_mutex_unlock(&c->mu);
    /* After a teardown the tsfn is left alone (Bun may already have freed
     * it; Node reclaims it with the environment). */
    if (!closing) napi_release_threadsafe_function(c->tsfn, napi_tsfn_release);
  }
}

static void call_free(napi_env env, call *c) {
  if (c->exception && env) napi_delete_reference(env, c->exception);
  if (c->work && env) napi_delete_async_work(env, c->work);
  if (c->result) fscache_free(c->result);
  free(c->options);
  free(c->buf);
  cell_unref(c->cancel);
  pthread_mutex_destroy(&c->mu);
  pthread_cond_destroy(&c->room);
  free(c);
}

/* Drops one reference (JS thread only); the last one frees the call. */
static void call_release(napi_env env, call *c) {
  if (--c->refs == 0) call_free(env, c);
}

/* Builds the rejection or the resolved value and settles the promise. */
static void settle(napi_env env, call *c) {
  c->settled = 1;
  napi_value value = NULL, err = NULL;
  bool ok = false;
  napi_handle_scope scope;
  if (napi_open_handle_scope(env, &scope) != napi_ok) scope = NULL;

  napi_value holder = NULL;
  if (c->exception && napi_get_reference_value(env, c->exception, &holder) == napi_ok && holder) {
    if (napi_get_named_property(env, holder, "value", &err) != napi_ok) err = NULL;
  }
  if (err != NULL) {
    /* onMatch threw: that is the rejection */
  } else if (c->oom) {
    napi_value msg, code;
    napi_create_string_utf8(env, "fscache: out of memory while buffering matches", NAPI_AUTO_LENGTH, &msg);
    napi_create_string_utf8(env, "internal", NAPI_AUTO_LENGTH, &code);
    napi_create_error(env, code, msg, &err);
  } else if (c->result == NULL) {
    napi_value msg, code;
    napi_create_string_utf8(env, "fscache: the call did not run", NAPI_AUTO_LENGTH, &msg);
    napi_create_string_utf8(env, "internal", NAPI_AUTO_LENGTH, &code);
    napi_create_error(env, code, msg, &err);
  } else {
    napi_value env_obj = json_parse_result(env, c->result);
    bool has = false;
    if (env_obj == NULL) {
      napi_get_and_clear_last_exception(env, &err);
    } else if (napi_has_named_property(env, env_obj, "ok", &has) == napi_ok && has &&
               napi_get_named_property(env, env_obj, "ok", &value) == napi_ok) {
      ok = true;
    } else {
      napi_value e = NULL, msg = NULL, code = NULL;
      napi_valuetype t = napi_undefined;
      if (napi_get_named_property(env, env_obj, "error", &e) == napi_ok &&
          napi_typeof(env, e, &t) == napi_ok && t == napi_object) {
        napi_get_named_property(env, e, "message", &msg);
        napi_get_named_property(env, e, "code", &code);
        if (msg == NULL || napi_typeof(env, msg, &t) != napi_ok || t != napi_string) msg = NULL;
        if (code == NULL || napi_typeof(env, code, &t) != napi_ok || t != napi_string) code = NULL;
      }
      if (msg == NULL)
        napi_create_string_utf8(env, "fscache: malformed result from the library", NAPI_AUTO_LENGTH, &msg);
      napi_create_error(env, code, msg, &err);
    }
  }

  bool pending = false;
  napi_is_exception_pending(env, &pending);
  if (pending) {
    napi_value stray;
    napi_get_and_clear_last_exception(env, &stray);
    if (!ok && err == NULL) err = stray;
  }
  if (ok) {
    napi_resolve_deferred(env, c->deferred, value);
  } else {
    if (err == NULL) napi_get_undefined(env, &err);
    napi_reject_deferred(env, c->deferred, err);
  }
  if (scope) napi_close_handle_scope(env, scope);
  call_release(env, c);
}

static void maybe_settle(napi_env env, call *c) {
  if (!c->settled && c->work_done && c->stream_done) settle(env, c);
}

static void complete(napi_env env, napi_status status, void *data) {
  (void)status; /* a cancelled work has no result; settle() reports that */
  call *c = data;
  napi_delete_async_work(env, c->work);
  c->work = NULL;
  c->work_done = 1;
  maybe_settle(env, c);
}

/* Records what onMatch threw, stops delivery and cancels the call. The value
 * is kept in a holder object: before Node-API 10, references can only be made
 * to objects, and a script may throw a string. */
static void capture_exception(napi_env env, call *c) {
  napi_value exc = NULL, holder;
  __atomic_store_n(&c->stop_delivery, 1, __ATOMIC_RELEASE);
  cell_set(c->cancel);
  if (napi_get_and_clear_last_exception(env, &exc) != napi_ok || exc == NULL) return;
  if (c->exception == NULL && napi_create_object(env, &holder) == napi_ok &&
      napi_set_named_property(env, holder, "value", exc) == napi_ok)
    napi_create_reference(env, holder, 1, &c->exception);
}

/* Delivers one batch on the JS thread; js_cb is onMatch. */
static void call_js(napi_env env, napi_value js_cb, void *context, void *data) {
  (void)context;
  batch *b = data;
  call *c = b->c;
  if (b->json != NULL) { /* a producer may be waiting for room */
    pthread_mutex_lock(&c->mu);
    pthread_cond_broadcast(&c->room);
    pthread_mutex_unlock(&c->mu);
  }
  if (env == NULL) { /* the environment is being torn down */
    free(b->json);
    free(b);
    return;
  }
  if (b->json == NULL) { /* end of call */
    free(b);
    c->stream_done = 1;
    maybe_settle(env, c);
    return;
  }
  if (!__atomic_load_n(&c->stop_delivery, __ATOMIC_ACQUIRE) && js_cb != NULL) {
    napi_handle_scope outer;
    if (napi_open_handle_scope(env, &outer) == napi_ok) {
      napi_value arr = json_parse(env, b->json, b->len);
      uint32_t n = 0;
      napi_value recv, null_v;
      napi_get_undefined(env, &recv);
      napi_get_null(env, &null_v);
      if (arr == NULL || napi_get_array_length(env, arr, &n) != napi_ok) {
        capture_exception(env, c);
        n = 0;
      }
      for (uint32_t i = 0; i < n; i++) {
        napi_handle_scope inner;
        if (napi_open_handle_scope(env, &inner) != napi_ok) break;
        napi_value argv[2] = {null_v, NULL};
        napi_status st = napi_get_element(env, arr, i, &argv[1]);
        if (st == napi_ok) st = napi_call_function(env, recv, js_cb, 2, argv, NULL);
        bool pending = false;
        napi_is_exception_pending(env, &pending);
        if (st != napi_ok || pending) {
          if (pending) capture_exception(env, c);
          else { /* no exception but the call failed: stop as well */
            __atomic_store_n(&c->stop_delivery, 1, __ATOMIC_RELEASE);
            cell_set(c->cancel);
          }
          napi_close_handle_scope(env, inner);
          break;
        }
        napi_close_handle_scope(env, inner);
      }
      napi_close_handle_scope(env, outer);
    }
  }
  free(b->json);
  free(b);
}

/* The tsfn is gone; if its end marker never made it through (the
 * environment is closing), settle here. Then drop the tsfn's reference. */
static void tsfn_finalize(napi_env env, void *data, void *hint) {
  (void)hint;
  call *c = data;
  /* Bun may finalize the tsfn at worker teardown while the call is still
   * running; from here on nothing may be handed to it. c->tsfn itself is
   * left alone: execute() reads it to know the call streams. */
  pthread_mutex_lock(&c->mu);
  c->closing = 1;
  pthread_cond_broadcast(&c->room);
  pthread_mutex_unlock(&c->mu);
  if (!c->stream_done) { /* early: the environment is going away */
    cell_set(c->cancel);
    c->stream_done = 1;
    if (env) maybe_settle(env, c);
  }
  call_release(env, c);
}

/* glob/grep(optionsJson, onMatch?, token?), fuzzyFind/listWorkspace/readCache(optionsJson, token?),
 * readCacheResolve/readCacheStore(optionsJson) (no cancellation: a token is ignored) */
static napi_value start_call(napi_env env, napi_callback_info info, op_kind op) {
  size_t argc = 3;
  napi_value argv[3] = {NULL, NULL, NULL};
  CHECK(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL), "fscache: bad call");
  napi_value opts = argv[0];
  const int no_cb = op != OP_GLOB && op != OP_GREP; /* (optionsJson, token?) */
  napi_value fn = no_cb ? NULL : argv[1];
  napi_value tok = no_cb ? argv[1] : argv[2];

  napi_valuetype t = napi_undefined;
  if (argc < 1 || napi_typeof(env, opts, &t) != napi_ok || t != napi_string)
    return throw_type(env, "StringExpected", "fscache: options must be a JSON string");
  if (!is_nullish(env, fn)) {
    if (napi_typeof(env, fn, &t) != napi_ok || t != napi_function)
      return throw_type(env, "FunctionExpected", "fscache: onMatch must be a function");
  } else {
    fn = NULL;
  }
  cancel_cell *cell = NULL;
  if (!is_nullish(env, tok)) {
    cell = token_cell(env, tok);
    if (cell == NULL) return NULL;
    cell_ref(cell);
  } else {
    cell = cell_new();
    if (cell == NULL) return fail(env, "fscache: out of memory");
  }

  call *c = calloc(1, sizeof *c);
  if (c == NULL) {
    cell_unref(cell);
    return fail(env, "fscache: out of memory");
  }
  c->op = op;
  c->env = env;
  c->cancel = cell;
  pthread_mutex_init(&c->mu, NULL);
  cond_init_monotonic(&c->room);
  c->options = dup_js_string(env, opts, NULL);
  if (c->options == NULL) {
    call_free(env, c);
    return fail(env, "fscache: cannot read the options");
  }

  static const char *names[] = {"fscache.glob",      "fscache.fuzzyFind",        "fscache.grep",          "fscache.listWorkspace",
                                "fscache.readCache", "fscache.readCacheResolve", "fscache.readCacheStore"};
  napi_value name, promise;
  c->refs = 1; /* the promise's */
  if (napi_create_string_utf8(env, names[op], NAPI_AUTO_LENGTH, &name) != napi_ok ||
      napi_create_async_work(env, NULL, name, execute, complete, c, &c->work) != napi_ok) {
    call_free(env, c);
    return fail(env, "fscache: cannot create the async work");
  }
  if (fn != NULL) {
    if (napi_create_threadsafe_function(env, fn, NULL, name, TSFN_QUEUE, 1, c, tsfn_finalize, c,
                                        call_js, &c->tsfn) != napi_ok) {
      c->tsfn = NULL;
      call_free(env, c);
      return fail(env, "fscache: cannot create the onMatch channel");
    }
    c->refs++; /* the tsfn's, dropped by tsfn_finalize */
  } else {
    c->stream_done = 1;
  }
  list_add(c);
  if (napi_create_promise(env, &c->deferred, &promise) != napi_ok ||
      napi_queue_async_work(env, c->work) != napi_ok) {
    /* Nothing will run: free the call once the channel (if any) is gone. */
    list_remove(c);
    c->settled = 1;
    if (c->tsfn) napi_release_threadsafe_function(c->tsfn, napi_tsfn_abort);
    call_release(env, c);
    return fail(env, "fscache: cannot queue the call");
  }
  return promise;
}

static napi_value js_glob(napi_env env, napi_callback_info info) {
  return start_call(env, info, OP_GLOB);
}
static napi_value js_fuzzy_find(napi_env env, napi_callback_info info) {
  return start_call(env, info, OP_FUZZY);
}
static napi_value js_grep(napi_env env, napi_callback_info info) {
  return start_call(env, info, OP_GREP);
}
static napi_value js_list_workspace(napi_env env, napi_callback_info info) {
  return start_call(env, info, OP_LIST);
}
static napi_value js_read_cache(napi_env env, napi_callback_info info) {
  return start_call(env, info, OP_READ);
}
static napi_value js_read_cache_resolve(napi_env env, napi_callback_info info) {
  return start_call(env, info, OP_RESOLVE);
}
static napi_value js_read_cache_store(napi_env env, napi_callback_info info) {
  return start_call(env, info, OP_STORE);
}

/* invalidate(path?) -- synchronous. */
static napi_value js_invalidate(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1] = {NULL};
  CHECK(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL), "fscache: bad call");
  if (argc < 1 || is_nullish(env, argv[0])) {
    fscache_invalidate(NULL);
    return NULL;
  }
  napi_valuetype t;
  if (napi_typeof(env, argv[0], &t) != napi_ok || t != napi_string)
    return throw_type(env, "StringExpected", "fscache: invalidate(path) needs a string path");
  char *p = dup_js_string(env, argv[0], NULL);
  if (p == NULL) return fail(env, "fscache: cannot read the path");
  fscache_invalidate(p);
  free(p);
  return NULL;
}

#ifdef FSCACHE_FAULTINJECT
/* faultInject(kind, skip) -> boolean, synchronous: only in the addon built
 * against the fault-injection library (build/mk/faults.mk), which exports
 * these two. Arms the injection point of a goroutine kind; false for an
 * unknown kind. faultInject() disarms and returns whether a point was
 * still armed. */
int32_t fscache_faultinject_arm(const char *kind, int32_t skip);
int32_t fscache_faultinject_armed(int32_t disarm);
static napi_value js_fault_inject(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2] = {NULL, NULL};
  CHECK(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL), "fscache: bad call");
  bool ok;
  if (argc < 1 || is_nullish(env, argv[0])) {
    ok = fscache_faultinject_armed(1) != 0;
  } else {
    int32_t skip = 0;
    char *kind = dup_js_string(env, argv[0], NULL);
    if (kind == NULL) return fail(env, "fscache: faultInject(kind, skip) needs a string kind");
    if (argc > 1) napi_get_value_int32(env, argv[1], &skip);
    ok = fscache_faultinject_arm(kind, skip) == 0;
    free(kind);
  }
  napi_value out;
  CHECK(env, napi_get_boolean(env, ok, &out), "fscache: cannot return");
  return out;
}
#endif

/* cacheStats() -- synchronous: the JSON envelope of fscache_cache_stats. */
static napi_value js_cache_stats(napi_env env, napi_callback_info info) {
  (void)info;
  char *json = fscache_cache_stats();
  if (json == NULL) return fail(env, "fscache: out of memory");
  napi_value out;
  napi_status st = napi_create_string_utf8(env, json, NAPI_AUTO_LENGTH, &out);
  fscache_free(json);
  CHECK(env, st, "fscache: cannot return the statistics");
  return out;
}

/* closeAll() -- stops every running call of this environment (the package
 * calls it from process.on("exit"): a call still streaming matches when
 * process.exit() runs must not keep a thread-pool thread busy). */
static napi_value js_close_all(napi_env env, napi_callback_info info) {
  (void)info;
  close_calls(env);
  return NULL;
}

/* Environment teardown (a worker thread ending): stop its calls. */
static void env_cleanup(void *arg) { close_calls((napi_env)arg); }

static napi_value js_version(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value v;
  const char *s = fscache_version();
  CHECK(env, napi_create_string_utf8(env, s ? s : "", NAPI_AUTO_LENGTH, &v), "fscache: version");
  return v;
}

/* debugStats() -> {goroutines, goroutinesTotal, cacheEntries, cacheMaxEntries}: the C ABI's
 * diagnostics, for the stress tests (not part of the package's API). */
static napi_value js_debug_stats(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value o, v;
  CHECK(env, napi_create_object(env, &o), "fscache: debugStats");
  CHECK(env, napi_create_int64(env, fscache_debug_goroutines(), &v), "fscache: debugStats");
  CHECK(env, napi_set_named_property(env, o, "goroutines", v), "fscache: debugStats");
  CHECK(env, napi_create_int64(env, fscache_debug_goroutines_total(), &v), "fscache: debugStats");
  CHECK(env, napi_set_named_property(env, o, "goroutinesTotal", v), "fscache: debugStats");
  CHECK(env, napi_create_int64(env, fscache_debug_cache_entries(), &v), "fscache: debugStats");
  CHECK(env, napi_set_named_property(env, o, "cacheEntries", v), "fscache: debugStats");
  CHECK(env, napi_create_int64(env, fscache_debug_cache_max_entries(), &v), "fscache: debugStats");
  CHECK(env, napi_set_named_property(env, o, "cacheMaxEntries", v), "fscache: debugStats");
  return o;
}

/* debugGoroutineStacks() -> string: every goroutine's stack (diagnostics). */
static napi_value js_debug_goroutine_stacks(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value v;
  char *s = fscache_debug_goroutine_stacks();
  napi_status st = napi_create_string_utf8(env, s ? s : "", NAPI_AUTO_LENGTH, &v);
  fscache_free(s);
  CHECK(env, st, "fscache: debugGoroutineStacks");
  return v;
}

NAPI_MODULE_INIT(/* napi_env env, napi_value exports */) {
  addon_data *d = calloc(1, sizeof *d);
  napi_value global, json, parse, array, proto, concat;
  if (d == NULL) return fail(env, "fscache: out of memory");
  if (napi_get_global(env, &global) != napi_ok ||
      napi_get_named_property(env, global, "JSON", &json) != napi_ok ||
      napi_get_named_property(env, json, "parse", &parse) != napi_ok ||
      napi_create_reference(env, parse, 1, &d->json_parse) != napi_ok ||
      napi_get_named_property(env, global, "Array", &array) != napi_ok ||
      napi_get_named_property(env, array, "prototype", &proto) != napi_ok ||
      napi_get_named_property(env, proto, "concat", &concat) != napi_ok ||
      napi_create_reference(env, concat, 1, &d->array_concat) != napi_ok ||
      napi_set_instance_data(env, d, addon_data_finalize, NULL) != napi_ok) {
    free(d);
    return fail(env, "fscache: cannot initialise the addon");
  }
  napi_add_env_cleanup_hook(env, env_cleanup, env); /* best effort */
  /* An enumerable function property of exports. */
#define EXPORT_FN(name, fn) {name, NULL, fn, NULL, NULL, NULL, napi_enumerable, NULL}
  napi_property_descriptor props[] = {
      EXPORT_FN("glob", js_glob),
      EXPORT_FN("fuzzyFind", js_fuzzy_find),
      EXPORT_FN("grep", js_grep),
      EXPORT_FN("listWorkspace", js_list_workspace),
      EXPORT_FN("readCache", js_read_cache),
      EXPORT_FN("readCacheResolve", js_read_cache_resolve),
      EXPORT_FN("readCacheStore", js_read_cache_store),
      EXPORT_FN("invalidate", js_invalidate),
      EXPORT_FN("cacheStats", js_cache_stats),
      EXPORT_FN("createCancelToken", js_create_cancel_token),
      EXPORT_FN("cancel", js_cancel),
      EXPORT_FN("closeAll", js_close_all),
      EXPORT_FN("version", js_version),
      EXPORT_FN("debugStats", js_debug_stats),
      EXPORT_FN("debugGoroutineStacks", js_debug_goroutine_stacks),
#ifdef FSCACHE_FAULTINJECT
      EXPORT_FN("faultInject", js_fault_inject),
#endif
  };
#undef EXPORT_FN
  CHECK(env, napi_define_properties(env, exports, sizeof props / sizeof props[0], props),
        "fscache: cannot define exports");
  return exports;
}
