# build/mk/faults.mk - fault injection: a panic in each kind of goroutine
# the library starts is the call's error or a recorded drop, never the end
# of the host (internal/fence; docs/compat.md, "Panics").
#
#   make test-faults   (part of make test) the Go tests under the build tag
#                      fscache_faultinject, then the C test
#                      (capi/ctest/faults_test.c) and the Node/Bun test
#                      (bindings/node/test/faults.mjs) against a library
#                      and addon built with it in build/out/faults
#
# The tagged library is a build of its own: the injection points are
# compiled out of every other build (internal/fence/inject_off.go), and it
# exports fscache_faultinject_arm/_armed beside the header's functions (no
# version script). The addon is built with -DFSCACHE_FAULTINJECT, which adds
# faultInject(kind, skip) to its exports. The grep index stays off in the C
# and JS runs (FS_GREP_INDEX=0): a background build walks, and would take a
# point armed for a call; the builder's own faults are the Go tests'.

FAULTS_DIR   := build/out/faults
FAULTS_LIB   := $(FAULTS_DIR)/libfscache.so
FAULTS_CTEST := $(FAULTS_DIR)/fscache_faults_test
FAULTS_ADDON := $(FAULTS_DIR)/fscache.node
FAULTS_PKGS  := ./internal/fence ./internal/cancel ./internal/gcpace ./internal/engine ./capi ./core

TEST_EXTRA += test-faults

.PHONY: test-faults faults-lib

$(FAULTS_LIB): $(GO_SRC) $(CAPI_C_SRC)
	@mkdir -p $(@D)
	$(GO) build -tags fscache_faultinject -buildmode=c-shared -ldflags '-X main.version=$(VERSION)' -o $@ ./capi
	@rm -f $(@D)/libfscache.h

faults-lib: $(FAULTS_LIB) $(FAULTS_ADDON) ## the library and addon built for fault injection (build/out/faults)

$(FAULTS_CTEST): capi/ctest/faults_test.c capi/ctest/check.h include/fscache.h $(FAULTS_LIB)
	$(CC) -std=c99 -Wall -Wextra -Werror -Iinclude -o $@ $< -L$(FAULTS_DIR) -lfscache -Wl,-rpath,'$$ORIGIN'

$(FAULTS_ADDON): $(NODE_DIR)/fscache_node.c include/fscache.h $(FAULTS_LIB) $(NODE_STAMP)
	$(CC) $(ADDON_CFLAGS) -DFSCACHE_FAULTINJECT -D_GNU_SOURCE -fPIC -shared -fvisibility=hidden \
	  -I$(NAPI_INC) -Iinclude -o $@ $(NODE_DIR)/fscache_node.c \
	  -L$(FAULTS_DIR) -lfscache -Wl,-rpath,'$$ORIGIN' -Wl,-z,nodelete -lpthread $(ADDON_LDFLAGS)

FAULTS_ENV = FS_GREP_INDEX=0 FSCACHE_NODE_ADDON=$(abspath $(FAULTS_ADDON)) FSCACHE_LIB=$(abspath $(FAULTS_LIB))

test-faults: $(FAULTS_CTEST) $(FAULTS_ADDON) ## panics injected in each kind of goroutine: Go tests (-tags fscache_faultinject), the C test, the Node and Bun test
	$(GO) test -tags fscache_faultinject -count=1 -run Fault $(FAULTS_PKGS)
	FS_GREP_INDEX=0 ./$(FAULTS_CTEST)
	cd $(NODE_DIR) && $(FAULTS_ENV) $(NODE) --expose-gc test/faults.mjs
	cd $(NODE_DIR) && $(FAULTS_ENV) $(BUN) test/faults.mjs
