/*
 * win32_threads.h - the POSIX thread and clock calls fscache_node.c makes,
 * on Win32's own primitives, for the Windows builds of the addon.
 *
 * Why not winpthreads: mingw-w64's gcc has it, but it would be one more DLL
 * to ship (libwinpthread-1.dll) or link statically, its timed waits count
 * against the system clock whatever the condition's clock attribute says,
 * and zig's mingw (the win32-arm64 build) does not ship it at all. This is
 * the subset the addon uses, nothing more:
 *
 *   mutex      SRWLOCK (exclusive), statically initialisable
 *   cond       CONDITION_VARIABLE; timed waits take an absolute deadline on
 *              CLOCK_MONOTONIC, as on Linux, and wait the time left to it
 *   once       INIT_ONCE
 *   threads    _beginthreadex; detached threads only have their handle closed
 *   clocks     CLOCK_MONOTONIC (QueryPerformanceCounter), CLOCK_REALTIME
 */
#ifndef FSCACHE_WIN32_THREADS_H
#define FSCACHE_WIN32_THREADS_H

#include <windows.h>
#include <errno.h>
#include <process.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#ifndef ETIMEDOUT
#define ETIMEDOUT 138
#endif

/* ------------------------------------------------------------- clocks */

/* mingw's <time.h> may declare its own (winpthreads') clock_gettime: ours
 * takes the name in this file only. */
#undef CLOCK_REALTIME
#undef CLOCK_MONOTONIC
#define CLOCK_REALTIME 0
#define CLOCK_MONOTONIC 1
#define clock_gettime fscache_w32_clock_gettime

static inline int fscache_w32_clock_gettime(int clock, struct timespec *ts) {
  if (clock == CLOCK_MONOTONIC) {
    LARGE_INTEGER f, c;
    QueryPerformanceFrequency(&f);
    QueryPerformanceCounter(&c);
    ts->tv_sec = (time_t)(c.QuadPart / f.QuadPart);
    ts->tv_nsec = (long)((c.QuadPart % f.QuadPart) * 1000000000LL / f.QuadPart);
    return 0;
  }
  FILETIME ft; /* 100 ns units since 1601 */
  GetSystemTimePreciseAsFileTime(&ft);
  uint64_t t = ((uint64_t)ft.dwHighDateTime << 32 | ft.dwLowDateTime) - 116444736000000000ULL;
  ts->tv_sec = (time_t)(t / 10000000ULL);
  ts->tv_nsec = (long)(t % 10000000ULL) * 100;
  return 0;
}

/* -------------------------------------------------------------- mutex */

typedef SRWLOCK pthread_mutex_t;
#define PTHREAD_MUTEX_INITIALIZER SRWLOCK_INIT

static inline int pthread_mutex_init(pthread_mutex_t *m, const void *attr) {
  (void)attr;
  InitializeSRWLock(m);
  return 0;
}
static inline int pthread_mutex_destroy(pthread_mutex_t *m) {
  (void)m;
  return 0;
}
static inline int pthread_mutex_lock(pthread_mutex_t *m) {
  AcquireSRWLockExclusive(m);
  return 0;
}
static inline int pthread_mutex_trylock(pthread_mutex_t *m) { return TryAcquireSRWLockExclusive(m) ? 0 : EBUSY; }
static inline int pthread_mutex_unlock(pthread_mutex_t *m) {
  ReleaseSRWLockExclusive(m);
  return 0;
}

/* --------------------------------------------------------------- cond */

typedef CONDITION_VARIABLE pthread_cond_t;
typedef struct {
  int clock;
} pthread_condattr_t;

static inline int pthread_condattr_init(pthread_condattr_t *a) {
  a->clock = CLOCK_REALTIME;
  return 0;
}
static inline int pthread_condattr_setclock(pthread_condattr_t *a, int clock) {
  a->clock = clock;
  return clock == CLOCK_MONOTONIC ? 0 : EINVAL; /* timed waits below are on CLOCK_MONOTONIC only */
}
static inline int pthread_condattr_destroy(pthread_condattr_t *a) {
  (void)a;
  return 0;
}
static inline int pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *a) {
  (void)a;
  InitializeConditionVariable(c);
  return 0;
}
static inline int pthread_cond_destroy(pthread_cond_t *c) {
  (void)c;
  return 0;
}
static inline int pthread_cond_signal(pthread_cond_t *c) {
  WakeConditionVariable(c);
  return 0;
}
static inline int pthread_cond_broadcast(pthread_cond_t *c) {
  WakeAllConditionVariable(c);
  return 0;
}
static inline int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m) {
  return SleepConditionVariableSRW(c, m, INFINITE, 0) ? 0 : EINVAL;
}
/* `deadline` is on CLOCK_MONOTONIC (see pthread_condattr_setclock). */
static inline int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *deadline) {
  struct timespec now;
  fscache_w32_clock_gettime(CLOCK_MONOTONIC, &now);
  int64_t ns = (int64_t)(deadline->tv_sec - now.tv_sec) * 1000000000LL + (deadline->tv_nsec - now.tv_nsec);
  if (ns <= 0) return ETIMEDOUT;
  DWORD ms = ns >= (int64_t)0xFFFFFFF0 * 1000000LL ? 0xFFFFFFF0 : (DWORD)((ns + 999999) / 1000000);
  if (SleepConditionVariableSRW(c, m, ms, 0)) return 0;
  return GetLastError() == ERROR_TIMEOUT ? ETIMEDOUT : EINVAL;
}

/* --------------------------------------------------------------- once */

typedef INIT_ONCE pthread_once_t;
#define PTHREAD_ONCE_INIT INIT_ONCE_STATIC_INIT

typedef struct {
  void (*fn)(void);
} fscache_w32_once_fn;

static BOOL CALLBACK fscache_w32_once_run(PINIT_ONCE once, PVOID param, PVOID *ctx) {
  (void)once;
  (void)ctx;
  ((fscache_w32_once_fn *)param)->fn();
  return TRUE;
}
static inline int pthread_once(pthread_once_t *o, void (*fn)(void)) {
  fscache_w32_once_fn f = {fn};
  return InitOnceExecuteOnce(o, fscache_w32_once_run, &f, NULL) ? 0 : EINVAL;
}

/* ------------------------------------------------------------ threads */

typedef HANDLE pthread_t;
typedef struct {
  int detached;
  size_t stack;
} pthread_attr_t;
#define PTHREAD_CREATE_JOINABLE 0
#define PTHREAD_CREATE_DETACHED 1

static inline int pthread_attr_init(pthread_attr_t *a) {
  a->detached = 0;
  a->stack = 0;
  return 0;
}
static inline int pthread_attr_destroy(pthread_attr_t *a) {
  (void)a;
  return 0;
}
static inline int pthread_attr_setdetachstate(pthread_attr_t *a, int state) {
  a->detached = state == PTHREAD_CREATE_DETACHED;
  return 0;
}
static inline int pthread_attr_setstacksize(pthread_attr_t *a, size_t size) {
  a->stack = size;
  return 0;
}

typedef struct {
  void *(*fn)(void *);
  void *arg;
} fscache_w32_start;

static unsigned __stdcall fscache_w32_thread_main(void *p) {
  fscache_w32_start s = *(fscache_w32_start *)p;
  free(p);
  s.fn(s.arg);
  return 0;
}
static inline int pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *), void *arg) {
  fscache_w32_start *s = malloc(sizeof *s);
  if (s == NULL) return EAGAIN;
  s->fn = fn;
  s->arg = arg;
  uintptr_t h = _beginthreadex(NULL, a ? (unsigned)a->stack : 0, fscache_w32_thread_main, s,
                               STACK_SIZE_PARAM_IS_A_RESERVATION, NULL);
  if (h == 0) {
    free(s);
    return EAGAIN;
  }
  *t = (HANDLE)h;
  if (a && a->detached) CloseHandle((HANDLE)h);
  return 0;
}

#endif /* FSCACHE_WIN32_THREADS_H */
