# build/mk/readcache.mk - the read cache's calls through bun:ffi (issue 34).
# Its Go, C, Node and Bun suites already run in `make test` (go test, ctest,
# test/*.test.mjs); pi-fscache's suites run in test-pi (build/mk/pi-fscache.mk).
#
#   make test-ffi-readcache   bun:test suite calling fscache_read_cache* through bun:ffi

.PHONY: test-ffi-readcache

test-ffi-readcache: $(LIB) $(NODE_STAMP) ## bun:test suite calling fscache_read_cache, _resolve and _store through bun:ffi
	cd $(NODE_DIR) && $(NODE_TEST_ENV) $(BUN_TEST) ./test/readcache.ffi.bun.test.ts

TEST_EXTRA += test-ffi-readcache
