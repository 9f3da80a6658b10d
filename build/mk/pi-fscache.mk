# build/mk/pi-fscache.mk - pi-fscache, the pi package (bindings/pi-fscache):
# pi's read served by the read cache, and find, grep and ls on fscache.
#
#   make pi-deps    npm ci in bindings/pi-fscache (its one dependency,
#                   fscache-native, resolves to this checkout's bindings/node)
#                   and in bindings/pi-fscache/test/hosts, the tests' own
#                   package: both pi lines (0.73.1 and 1.6.0), their pi-ai,
#                   typebox and jsdiff. The hosts are kept out of the package's
#                   node_modules, where they would shadow the pi that loads the
#                   package from this directory (`pi install
#                   ./bindings/pi-fscache`, issue 49); the tests resolve them
#                   through test/hosts.mjs, imported first
#   make test-pi    node:test over bindings/pi-fscache/test/*.test.mjs against the
#                   addon built here, once per pi line (part of make test):
#                   test-pi-0.73 on Node 20 (NODE) with test/hosts.mjs imported
#                   first, test-pi-1 on Node 22 (build/mk/node22.mk) with
#                   PI_LINE=1 and test/pi1-aliases.mjs (which imports
#                   test/hosts.mjs) first (test/pi-line.mjs says what differs)
#
# make dist packs it as dist/pi-fscache-V.tgz (build/stage-npm.mjs --pi), its
# dependency on fscache-native pinned to VERSION.

PI_DIR         := bindings/pi-fscache
PI_HOSTS       := $(PI_DIR)/test/hosts
PI_PKG_STAMP   := $(PI_DIR)/node_modules/.fscache-deps
PI_HOSTS_STAMP := $(PI_HOSTS)/node_modules/.fscache-deps
# Both installs: what every target running pi-fscache's suites or benches needs.
PI_STAMP       := $(PI_PKG_STAMP) $(PI_HOSTS_STAMP)

TEST_EXTRA += test-pi

.PHONY: pi-deps test-pi test-pi-0.73 test-pi-1

# npm ci only when node_modules is missing or the lock file changed.
$(PI_PKG_STAMP): $(PI_DIR)/package-lock.json $(PI_DIR)/package.json
	cd $(PI_DIR) && $(NPM) ci --no-audit --no-fund
	@touch $@

$(PI_HOSTS_STAMP): $(PI_HOSTS)/package-lock.json $(PI_HOSTS)/package.json
	cd $(PI_HOSTS) && $(NPM) ci --no-audit --no-fund
	@touch $@

pi-deps: $(PI_STAMP) ## npm ci in bindings/pi-fscache (fscache-native only) and in its test/hosts (pi 0.73.1 and 1.6.0 for the tests), each only when missing or stale

PI_SUITES = $(sort $(patsubst $(PI_DIR)/%,%,$(wildcard $(PI_DIR)/test/*.test.mjs)))

PI_TEST_ENV = FSCACHE_NODE_ADDON=$(abspath $(NODE_ADDON)) FSCACHE_LIB=$(abspath $(LIB))

test-pi: test-pi-0.73 test-pi-1 ## pi-fscache's suites (the read cache's matrix, real pi sessions, the tools) on both pi lines: 0.73.1 (Node 20) and 1.6.0 (Node 22)

test-pi-0.73: $(NODE_ADDON) $(PI_STAMP) ## pi-fscache's suites (bindings/pi-fscache/test/*.test.mjs) on pi 0.73.1, Node 20
	cd $(PI_DIR) && $(PI_TEST_ENV) PI_LINE=0.73 $(NODE) --import ./test/hosts.mjs --test --test-reporter=spec $(PI_SUITES)

test-pi-1: $(NODE_ADDON) $(PI_STAMP) $(NODE22) ## pi-fscache's suites (bindings/pi-fscache/test/*.test.mjs) on pi 1.6.0, Node 22
	cd $(PI_DIR) && $(PI_TEST_ENV) PI_LINE=1 $(NODE22) --import ./test/pi1-aliases.mjs --test --test-reporter=spec $(PI_SUITES)
