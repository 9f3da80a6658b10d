# build/mk/stress.mk - the C stress test (capi/ctest/stress.c), part of `make test`.
#
#   make stress-c [FSCACHE_STRESS_SECONDS=20 FSCACHE_STRESS_CALLS=100000]
#
# Eight POSIX threads make mixed calls through the C ABI until both limits
# are reached: every answer is checked, then goroutines must be back to the
# baseline, resident memory flat and the scan cache within its bound (see
# the file's header). The Node/Bun counterpart is
# bindings/node/test/stress.test.mjs, run by test-node and test-bun.

STRESS := build/out/fscache_stress

.PHONY: stress-c

$(STRESS): capi/ctest/stress.c include/fscache.h $(LIB)
	$(CC) -std=c11 -O2 -Wall -Wextra -Werror -Iinclude -o $@ $< -Lbuild/out -lfscache -Wl,-rpath,'$$ORIGIN' -lpthread

stress-c: $(STRESS) ## the C stress test: eight threads of mixed calls, then goroutines, memory and cache bounds
	./$(STRESS)

TEST_EXTRA += stress-c
