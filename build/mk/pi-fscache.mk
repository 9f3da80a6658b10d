# build/mk/pi-fscache.mk - pi-fscache, the pi package (bindings/pi-fscache):
# pi's read served by the read cache, and find, grep and ls on fscache.
#
#   make pi-deps    npm ci in bindings/pi-fscache (pi 0.73.1 and pi-ai for the
#                   tests; fscache-native resolves to this checkout's bindings/node)
#   make test-pi    node:test over bindings/pi-fscache/test/*.test.mjs against the
#                   addon built here (part of make test)
#
# make dist packs it as dist/pi-fscache-V.tgz (build/stage-npm.mjs --pi), its
# dependency on fscache-native pinned to VERSION.

PI_DIR   := bindings/pi-fscache
PI_STAMP := $(PI_DIR)/node_modules/.fscache-deps

TEST_EXTRA += test-pi

.PHONY: pi-deps test-pi

# npm ci only when node_modules is missing or the lock file changed.
$(PI_STAMP): $(PI_DIR)/package-lock.json $(PI_DIR)/package.json
	cd $(PI_DIR) && $(NPM) ci --no-audit --no-fund
	@touch $@

pi-deps: $(PI_STAMP) ## npm ci in bindings/pi-fscache (only when node_modules is missing or stale)

PI_SUITES = $(sort $(patsubst $(PI_DIR)/%,%,$(wildcard $(PI_DIR)/test/*.test.mjs)))

test-pi: $(NODE_ADDON) $(PI_STAMP) ## pi-fscache's suites (bindings/pi-fscache/test/*.test.mjs: the read cache's matrix, a real pi session, the tools) against the addon built here
	cd $(PI_DIR) && FSCACHE_NODE_ADDON=$(abspath $(NODE_ADDON)) FSCACHE_LIB=$(abspath $(LIB)) $(NODE) --test --test-reporter=spec $(PI_SUITES)
