# build/mk/sanitize.mk - the C side under AddressSanitizer and
# UndefinedBehaviorSanitizer (gcc's -fsanitize=address,undefined).
#
#   make test-sanitize     (run by CI through CI_EXTRA)
#
# What is instrumented, and so checked for out-of-bounds access, use after
# free, double free, leaks (C programs only) and undefined behaviour:
#   - the C ABI test (capi/ctest/fscache_test.c), the C stress test
#     (capi/ctest/stress.c) and the test of three copies of the library in
#     one process (capi/ctest/two_copies_test.c, build/mk/copies.mk), built
#     as build/out/asan/fscache_ctest, fscache_stress and
#     fscache_two_copies: their own code and every call into the library,
#     the strings it returns, fscache_free, the callbacks;
#   - the Node-API addon (bindings/node/fscache_node.c), built as
#     build/out/asan/fscache.node and run under Node with the package suite and
#     the worker stress suite: its buffers, batches, thread-safe functions,
#     cancellation and teardown.
# Not instrumented: the Go library itself (build/out/libfscache.so is the
# ordinary build; Go code is memory-safe, and its C allocations, the
# result strings and the callback buffer, are checked where C touches them,
# except results of 256 KiB or more: mappings of their own, capi/resultmem.go,
# which ASan does not track) and node. Node is not built with ASan, so libasan is preloaded
# (LD_PRELOAD) for the instrumented addon to load, with detect_leaks=0:
# leak reports would list node's own allocations, never freed at exit. The
# C programs keep leak detection on. ASan's quarantine holds freed memory,
# so the stress test's memory bound is relaxed under it. For node the
# quarantine is capped at 64 MB (ASan's default is 256 MB) and the suite's
# memory-growth test is told so (FSCACHE_MEM_SLACK_MB): without a cap, how
# much of the quarantine the earlier tests filled decided whether 20000
# calls grew RSS by 40 MB or 190 MB, with no leak either way (measured with
# quarantine_size_mb=0: 2-3 MB).

SAN_CC     ?= gcc
SAN_FLAGS  ?= -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g -O1
SAN_DIR    := build/out/asan
SAN_ENV    := ASAN_OPTIONS=abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1 \
              UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
SAN_STAMP  := $(SAN_DIR)/.toolchain

.PHONY: test-sanitize sanitize-deps

# gcc's sanitizer runtimes (libasan8, libubsan1 on Debian 12) are installed
# only when a sanitized program cannot be linked.
$(SAN_STAMP):
	@mkdir -p $(SAN_DIR)
	@printf 'int main(void){return 0;}\n' > $(SAN_DIR)/probe.c
	@$(SAN_CC) $(SAN_FLAGS) -o $(SAN_DIR)/probe $(SAN_DIR)/probe.c 2>/dev/null || \
	  { echo "installing the sanitizer runtimes"; apt-get update -qq && \
	    apt-get install -y -qq libasan8 libubsan1 && \
	    $(SAN_CC) $(SAN_FLAGS) -o $(SAN_DIR)/probe $(SAN_DIR)/probe.c; }
	@rm -f $(SAN_DIR)/probe $(SAN_DIR)/probe.c
	@touch $@

sanitize-deps: $(SAN_STAMP) ## install gcc's ASan/UBSan runtimes when a sanitized program cannot be linked

# The library next to the instrumented programs, for their $ORIGIN rpath.
$(SAN_DIR)/libfscache.so: $(LIB) $(SAN_STAMP)
	cp $(LIB) $@
	ln -sf libfscache.so $(SAN_DIR)/$(SONAME)

$(SAN_DIR)/fscache_ctest: capi/ctest/fscache_test.c include/fscache.h $(SAN_DIR)/libfscache.so
	$(SAN_CC) -std=c99 -Wall -Wextra -Werror $(SAN_FLAGS) -Iinclude -o $@ $< -L$(SAN_DIR) -lfscache -Wl,-rpath,'$$ORIGIN'

$(SAN_DIR)/fscache_stress: capi/ctest/stress.c include/fscache.h $(SAN_DIR)/libfscache.so
	$(SAN_CC) -std=c11 -Wall -Wextra -Werror $(SAN_FLAGS) -Iinclude -o $@ $< -L$(SAN_DIR) -lfscache -Wl,-rpath,'$$ORIGIN' -lpthread

$(SAN_DIR)/fscache_two_copies: capi/ctest/two_copies_test.c include/fscache.h $(SAN_STAMP)
	$(SAN_CC) -std=c11 -Wall -Wextra -Werror $(SAN_FLAGS) -Iinclude -o $@ $< -ldl -lpthread

$(SAN_DIR)/fscache.node: $(NODE_DIR)/fscache_node.c include/fscache.h $(SAN_DIR)/libfscache.so $(NODE_STAMP)
	$(SAN_CC) -std=c11 -Wall -Wextra -Werror=implicit-function-declaration $(SAN_FLAGS) -D_GNU_SOURCE -fPIC -shared \
	  -fvisibility=hidden -I$(NAPI_INC) -Iinclude -o $@ $(NODE_DIR)/fscache_node.c \
	  -L$(SAN_DIR) -lfscache -Wl,-rpath,'$$ORIGIN' -Wl,-z,nodelete -lpthread

test-sanitize: $(SAN_DIR)/fscache_ctest $(SAN_DIR)/fscache_stress $(SAN_DIR)/fscache_two_copies $(SAN_DIR)/fscache.node ## the C tests and the Node suite under ASan and UBSan
	$(SAN_ENV) ./$(SAN_DIR)/fscache_ctest
	$(SAN_ENV) ./$(SAN_DIR)/fscache_two_copies $(abspath $(SAN_DIR)/libfscache.so)
	$(SAN_ENV) FSCACHE_STRESS_SECONDS=10 FSCACHE_STRESS_CALLS=20000 FSCACHE_STRESS_RSS_MB=1024 ./$(SAN_DIR)/fscache_stress
	cd $(NODE_DIR) && $(SAN_ENV) ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:quarantine_size_mb=64 \
	  LD_PRELOAD=$$($(SAN_CC) -print-file-name=libasan.so) \
	  FSCACHE_STRESS_RSS_MB=2048 FSCACHE_MEM_SLACK_MB=64 FSCACHE_NODE_ADDON=$(abspath $(SAN_DIR)/fscache.node) FSCACHE_LIB=$(abspath $(SAN_DIR)/libfscache.so) \
	  $(NODE) --expose-gc --test --test-reporter=spec $(NODE_SUITES)

CI_EXTRA += test-sanitize
