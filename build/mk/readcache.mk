# build/mk/readcache.mk - the read cache's checks that need more than the
# Go and Node suites have.
#
#   make pi1-parity [PI1_MODULES=DIR] [PI1_NODE=node22]
#       readCache({lineCount: "lines"}) against pi 1.x's own read tool
#       (@earendil-works/pi-coding-agent under DIR, a node_modules; by
#       default pi-fscache's test hosts (bindings/pi-fscache/test/hosts),
#       which hold pi 1.6.0, on Node 22 from
#       build/mk/node22.mk): text, details.truncation field by field and
#       errors on generated files, streamed ones over maxFileBytes among
#       them (bindings/node/bench/pi1-parity.mjs). Part of make test.
#   make readcache-soak [READCACHE_SOAK=60s]
#       TestStoreConcurrentSessions for a minute instead of 2 s.

PI1_MODULES ?= $(abspath $(PI_HOSTS))/node_modules
PI1_NODE    ?= $(NODE22)
TEST_EXTRA  += pi1-parity

.PHONY: pi1-parity

pi1-parity: $(NODE_ADDON) $(PI_STAMP) $(NODE22) ## readCache lineCount "lines" against pi 1.x's read (PI1_MODULES=node_modules holding it, PI1_NODE=node 22+)
	@test -n "$(PI1_MODULES)" || { echo "pi1-parity: set PI1_MODULES to a node_modules holding @earendil-works/pi-coding-agent"; exit 2; }
	PI1_MODULES=$(PI1_MODULES) FSCACHE_NODE_ADDON=$(abspath $(NODE_ADDON)) $(PI1_NODE) $(NODE_DIR)/bench/pi1-parity.mjs

# TestStoreConcurrentSessions runs 2 s in `make test`; this runs it for
# READCACHE_SOAK (default a minute): four processes reading, editing,
# pruning and damaging one object store.
READCACHE_SOAK ?= 60s

.PHONY: readcache-soak

readcache-soak: ## four processes on one read cache store for READCACHE_SOAK (default 60s): TestStoreConcurrentSessions
	FSCACHE_READCACHE_SOAK=$(READCACHE_SOAK) $(GO) test -count=1 -timeout 30m -run '^TestStoreConcurrentSessions$$' -v ./internal/readcache
