# build/mk/listworkspace.mk - tests of what pi-natives 18.2 added (listWorkspace through bun:ffi).
# The node/bun suites (test/*.test.mjs, abort.test.mjs included) already run in `make test`;
# `make conformance` runs the 18.2.3 suite (conformance/conformance.mk).
#
#   make test-ffi-lw   bun:test suite calling fscache_list_workspace through bun:ffi

.PHONY: test-ffi-lw

test-ffi-lw: $(LIB) $(NODE_STAMP) ## bun:test suite calling fscache_list_workspace through bun:ffi
	cd $(NODE_DIR) && $(NODE_TEST_ENV) $(BUN_TEST) ./test/listworkspace.ffi.bun.test.ts

TEST_EXTRA += test-ffi-lw
