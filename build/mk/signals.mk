# build/mk/signals.mk - the host's signal handlers are left alone (issue 16; the
# argument is in capi/signals.c, the contract in include/fscache.h,
# "Signals"). Part of `make test`:
#
#   make test-signals-c    capi/ctest/signals_test.c: a C host installs
#                          handlers, dlopens the library and checks its
#                          handlers, masks and which threads its signals reach
#   make test-signals-js   bindings/node/test/signals-repro.mjs (Bun 1.3.14's
#                          livelock, oven-sh/bun#31158) in Bun 1.3.14, the
#                          project's Bun and Node, each under a hard time limit
#   make bench-signals     what the signal masks cost per call and per
#                          callback (capi/ctest/signals_bench.c; in `make bench`)
#
# Bun 1.3.14 ($(BUN_OLD)) comes from the npm registry into FSCACHE_CACHE
# (build/mk/dist.mk).

SIGNALS_TEST     := build/out/fscache_signals_test
SIGNALS_BENCH    := build/out/fscache_signals_bench
SIGNALS_TIMEOUT  ?= 60

TEST_EXTRA  += test-signals-c test-signals-js
BENCH_EXTRA += bench-signals

.PHONY: test-signals-c test-signals-js bench-signals

# The library is built from C files too (the exported wrappers and the
# signal code); the top Makefile's GO_SRC lists only Go files.
CAPI_C_SRC := $(wildcard capi/*.c capi/*.h) include/fscache.h
$(LIB) $(ARM64_LIB) $(WIN_DLL): $(CAPI_C_SRC)

$(SIGNALS_TEST): capi/ctest/signals_test.c include/fscache.h $(LIB)
	$(CC) -std=c11 -O2 -Wall -Wextra -Werror -Iinclude -o $@ $< -ldl -lpthread

test-signals-c: $(SIGNALS_TEST) ## a C host's signal handlers and masks are left alone (capi/ctest/signals_test.c)
	./$(SIGNALS_TEST) $(abspath $(LIB))

$(SIGNALS_BENCH): capi/ctest/signals_bench.c $(LIB)
	$(CC) -std=c11 -O2 -Wall -Wextra -Werror -o $@ $< -ldl -lpthread

# The bench calls the Go functions the wrappers wrap (fscache_go_*) beside
# the wrappers. The library keeps them inside (the top Makefile's version
# script exports include/fscache.h only), so the bench runs against a build
# of its own without that script.
SIGNALS_BENCH_LIB := build/out/bench-signals/libfscache.so
$(SIGNALS_BENCH_LIB): $(GO_SRC) $(CAPI_C_SRC)
	@mkdir -p $(@D)
	$(GO) build -buildmode=c-shared -ldflags '-X main.version=$(VERSION)' -o $@ ./capi
	@rm -f $(@D)/libfscache.h

bench-signals: $(SIGNALS_BENCH) $(SIGNALS_BENCH_LIB) ## what the signal masks cost per call and per callback
	FS_SCAN_CACHE_TTL_MS=600000 ./$(SIGNALS_BENCH) $(abspath $(SIGNALS_BENCH_LIB))

# A hang is the failure this guards against: `timeout` makes it exit 124.
SIGNALS_JS = cd $(NODE_DIR) && FSCACHE_NODE_ADDON=$(abspath $(NODE_ADDON)) timeout $(SIGNALS_TIMEOUT)

test-signals-js: $(NODE_ADDON) $(BUN_OLD) ## Bun 1.3.14's livelock repro under Bun 1.3.14, the project's Bun and Node, time-limited
	$(SIGNALS_JS) $(BUN_OLD) test/signals-repro.mjs
	$(SIGNALS_JS) $(BUN) test/signals-repro.mjs
	$(SIGNALS_JS) $(NODE) --expose-gc test/signals-repro.mjs
