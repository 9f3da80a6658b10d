# build/mk/omp-fscache.mk - omp-fscache, the oh-my-pi package
# (bindings/omp-fscache, issue 49): omp's read with the read cache on top.
#
#   make omp-hosts     npm install in bindings/omp-fscache/test/hosts: oh-my-pi
#                      18.2.3 and its pi-ai (the mock provider), pinned by
#                      its lock file. Never in the package's own resolution
#                      path (bindings/omp-fscache/node_modules stays empty).
#   make test-omp      test/run.mjs: a temporary HOME, `omp plugin install
#                      bindings/omp-fscache` with the hosts' omp, then each
#                      suite (test/*.test.ts) on Bun 1.3.14 (the oldest omp
#                      accepts; build/mk/dist.mk's BUN_OLD fetches it into
#                      FSCACHE_CACHE). Part of `make test`; OMP_FSCACHE_STEPS
#                      sets the randomized sessions' length (default 1500).
#
# Cost in CI: the hosts' npm install (about 3 min on a cold npm cache, seconds
# warm) and the suites: 2 min 39 s on 2 cores at load average 4 (1,500
# randomized steps 132 s; bindings/omp-fscache/README.md, "Tests"), and
# test/calls.test.ts about 25 s more.

OMP_DIR   := bindings/omp-fscache
OMP_HOSTS := $(OMP_DIR)/test/hosts
OMP_STAMP := $(OMP_HOSTS)/node_modules/.fscache-deps
OMP_STEPS ?= 1500

# Bun 1.3.14 is build/mk/dist.mk's BUN_OLD (that fragment is read first:
# prerequisites expand when read).

TEST_EXTRA += test-omp

.PHONY: omp-hosts omp-bun test-omp

# npm install, not npm ci: pi-natives 18.2.3 lists platform packages the
# registry here does not serve (darwin, win32, linux-arm64), which npm leaves
# out of the lock file and npm ci then refuses as "missing from lock file".
# The lock file still pins every package installed (npm install leaves it
# as it is).
$(OMP_STAMP): $(OMP_HOSTS)/package-lock.json $(OMP_HOSTS)/package.json
	cd $(OMP_HOSTS) && $(NPM) install --no-audit --no-fund
	@touch $@

omp-hosts: $(OMP_STAMP) ## npm install of omp-fscache's test hosts (oh-my-pi 18.2.3, pi-ai) in bindings/omp-fscache/test/hosts

omp-bun: $(BUN_OLD) ## Bun 1.3.14 from the npm registry into FSCACHE_CACHE (omp-fscache's suites and bench run on it)

test-omp: $(NODE_ADDON) $(OMP_STAMP) $(BUN_OLD) ## omp-fscache's suites: real omp 18.2.3 sessions on Bun 1.3.14, the package installed by `omp plugin install`, judged by the oracle
	cd $(OMP_DIR) && FSCACHE_NODE_ADDON=$(abspath $(NODE_ADDON)) FSCACHE_LIB=$(abspath $(LIB)) OMP_FSCACHE_STEPS=$(OMP_STEPS) \
	  $(NODE) test/run.mjs $(abspath $(BUN_OLD))
