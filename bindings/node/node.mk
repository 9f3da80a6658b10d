# bindings/node/node.mk - the Node/Bun package: addon, tests, type check, demo.
#
# Included by the top Makefile, which defines LIB (build/out/libfscache.so) and
# its rule. Everything here runs from the repository root and installs
# nothing globally: node, npm and a C compiler are all it needs; bun and tsc
# come from bindings/node/node_modules (npm ci).
#
#   make node-deps   npm ci in bindings/node (only when needed)
#   make addon       build/out/fscache.node
#   make test-node   node:test suite under Node
#   make test-bun    the same suite under Bun
#   make test-ffi    bun:test suite calling libfscache through bun:ffi
#   make typecheck   tsc --noEmit over callers written like the coding agent's
#                    (ESM and require, through index.d.cts copied from index.d.ts)
#   make demo [DIR=/some/path]

NODE_DIR    := bindings/node
NODE_ADDON  := $(dir $(LIB))fscache.node
NODE_STAMP  := $(NODE_DIR)/node_modules/.fscache-deps
NODE_BIN    := $(NODE_DIR)/node_modules/.bin
NODE        ?= node
NPM         ?= npm
BUN          = $(abspath $(NODE_BIN))/bun
# bun test fails a test or hook that runs past 5 s by default, which a
# loaded machine reaches (large-result.test.mjs's tree); the tests assert
# no time, so the limit is only a hang watchdog here.
BUN_TEST     = $(BUN) test --timeout 600000
NAPI_INC    := $(NODE_DIR)/node_modules/node-api-headers/include
ADDON_CFLAGS  ?= -O2 -g -std=c11 -Wall -Wextra -Werror=implicit-function-declaration
ADDON_LDFLAGS ?=
DIR         ?= $(CURDIR)

NODE_TESTS := test-node test-bun test-ffi typecheck
BUILD_EXTRA += addon

.PHONY: node-deps addon test-node test-bun test-ffi typecheck demo node-clean

# npm ci only when node_modules is missing or the lock file changed.
$(NODE_STAMP): $(NODE_DIR)/package-lock.json $(NODE_DIR)/package.json
	cd $(NODE_DIR) && $(NPM) ci --no-audit --no-fund
	@touch $@

node-deps: $(NODE_STAMP) ## npm ci in bindings/node (only when node_modules is missing or stale)

# The addon sits next to the library (build/out/fscache.node). Node-API symbols
# stay undefined (the default for -shared; no libnode is linked): the host
# process, node or bun, provides them when it loads the addon. The $ORIGIN
# rpath lets build/out/fscache.node find build/out/libfscache.so next to it.
# It exports Node-API's entry points only (ADDON_MAP, from the top Makefile:
# napi_register_module_v1, node_api_module_get_api_version_v1).
$(NODE_ADDON): $(NODE_DIR)/fscache_node.c include/fscache.h $(LIB) $(NODE_STAMP) $(ADDON_MAP)
	@mkdir -p $(dir $@)
	$(CC) $(ADDON_CFLAGS) -D_GNU_SOURCE -fPIC -shared -fvisibility=hidden \
	  -I$(NAPI_INC) -Iinclude -o $@ $(NODE_DIR)/fscache_node.c \
	  -L$(dir $(LIB)) -lfscache -Wl,-rpath,'$$ORIGIN' -Wl,-z,nodelete \
	  -Wl,--version-script=$(ADDON_MAP) -lpthread $(ADDON_LDFLAGS)

addon: $(NODE_ADDON) ## build/out/fscache.node, the Node-API addon (Node and Bun)

# The suites load exactly the addon and library built here.
NODE_TEST_ENV = FSCACHE_NODE_ADDON=$(abspath $(NODE_ADDON)) FSCACHE_LIB=$(abspath $(LIB))

# Every test/*.test.mjs runs under both Node and Bun.
NODE_SUITES = $(sort $(patsubst $(NODE_DIR)/%,%,$(wildcard $(NODE_DIR)/test/*.test.mjs)))

test-node: $(NODE_ADDON) ## the node:test suite (bindings/node/test/*.test.mjs) under Node
	cd $(NODE_DIR) && $(NODE_TEST_ENV) $(NODE) --expose-gc --test --test-reporter=spec $(NODE_SUITES)

test-bun: $(NODE_ADDON) ## the same suite under Bun
	cd $(NODE_DIR) && $(NODE_TEST_ENV) $(BUN_TEST) $(addprefix ./,$(NODE_SUITES))

test-ffi: $(LIB) $(NODE_STAMP) ## bun:test suite calling libfscache through bun:ffi
	cd $(NODE_DIR) && $(NODE_TEST_ENV) $(BUN_TEST) ./test/ffi.bun.test.ts

# index.d.cts, the types of the `require` entry, is a copy of index.d.ts
# (not in git; build/stage-npm.mjs writes the packed one the same way).
$(NODE_DIR)/index.d.cts: $(NODE_DIR)/index.d.ts
	cp $< $@

typecheck: $(NODE_STAMP) $(NODE_DIR)/index.d.cts ## tsc --noEmit over callers written like the coding agent's (ESM and require)
	cd $(NODE_DIR) && node_modules/.bin/tsc -p test/tsconfig.json

demo: $(NODE_ADDON) ## glob, cached glob, fuzzyFind and grep on DIR (default: this checkout) from Node, timed
	FSCACHE_NODE_ADDON=$(abspath $(NODE_ADDON)) $(NODE) $(NODE_DIR)/demo.mjs $(DIR)

node-clean: ## remove the addon (build/out/fscache.node)
	rm -f $(NODE_ADDON)
