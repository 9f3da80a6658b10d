# fscache build. `make demo` and `make test` are all a fresh machine needs:
# Go modules come from the Go module proxy, the JS dev tools (bun,
# typescript, node-api-headers) are installed into bindings/node by npm.
#
# `make help` lists every target with what it does. The convention, here
# and in every fragment: a target a person runs has its line in the help
# beside its rule, `target: prerequisites ## what it does` (build/help.awk
# reads them; `make check-help`, part of `make test`, fails on a .PHONY
# target without one or without a rule).

GO      ?= go
CC      ?= cc
LIB     := build/out/libfscache.so
GO_SRC  := $(shell find internal capi -name '*.go' -not -name '*_test.go') go.mod go.sum VERSION
# The one version number: VERSION stamps the library (fscache_version()), the
# npm packages and the pkg-config file. The soname's major is its first part.
VERSION := $(shell cat VERSION)
SOMAJOR := $(firstword $(subst ., ,$(VERSION)))
SONAME  := libfscache.so.$(SOMAJOR)
# What the binaries export: the library the functions of include/fscache.h
# and nothing else, the addon Node-API's entry points. The Go runtime's and
# cgo's own symbols (crosscall2, x_cgo_*, _cgo_*, the fscache_go_* the C
# wrappers call) stay inside, so two copies of the library in one process
# never bind to each other's. build/exports.sh writes the lists, one per
# linker format, into EXPORTS: a version script here (and for arm64 and
# musl), a .def file for Windows, a list for Mach-O (build/mk/platforms.mk,
# build/mk/dist.mk). `make check-exports` checks the two built here.
EXPORTS   := build/out/exports
LIB_MAP   := $(EXPORTS)/fscache.map
ADDON_MAP := $(EXPORTS)/addon.map
GO_LDFLAGS = -X main.version=$(VERSION) -extldflags=-Wl,-soname,$(SONAME),--version-script=$(abspath $(LIB_MAP))
CTEST   := build/out/fscache_ctest
# grep's persisted indexes (docs/indexed-grep.md) go to the user's cache
# directory; what this Makefile runs (tests, conformance, benches, the demo)
# keeps them in build/out instead, unless FS_GREP_INDEX_DIR is set.
export FS_GREP_INDEX_DIR ?= $(abspath build/out/grep-index)

.PHONY: all build lib test vet gotest ctest bench fmt clean go-deps ci-extra help check-help check-exports

all: build ## the default: same as build

help: ## this list: every target a person runs, with what it does
	@awk -f build/help.awk $(MAKEFILE_LIST)

check-help: ## every .PHONY target has a rule and a `## ` line in make help (part of make test)
	@awk -v check=1 -f build/help.awk $(MAKEFILE_LIST)

go-deps: ## download the Go modules (go mod download)
	$(GO) mod download

lib: $(LIB) ## build/out/libfscache.so, the C library

# build/exports.sh's lists: fscache.FORMAT from include/fscache.h, addon.FORMAT
# (kept: make would delete them as intermediate files otherwise).
.SECONDARY: $(foreach f,map def macho,$(EXPORTS)/fscache.$(f)) $(foreach f,map macho,$(EXPORTS)/addon.$(f))
$(EXPORTS)/fscache.%: include/fscache.h build/exports.sh
	@mkdir -p $(@D)
	build/exports.sh $* lib >$@.tmp && mv $@.tmp $@
$(EXPORTS)/addon.%: build/exports.sh
	@mkdir -p $(@D)
	build/exports.sh $* addon >$@.tmp && mv $@.tmp $@

# The library carries its soname; programs and the addon linked to it look
# for $(SONAME), a link to it beside the file. It exports what LIB_MAP
# lists (a version script: `local: *` keeps the rest out of the dynamic
# symbol table).
$(LIB): $(GO_SRC) $(LIB_MAP)
	@mkdir -p build/out
	$(GO) build -buildmode=c-shared -ldflags '$(GO_LDFLAGS)' -o $@ ./capi
	@rm -f build/out/libfscache.h
	ln -sf libfscache.so build/out/$(SONAME)

# The C ABI test: the header with strict C99 warnings, linked to the library.
$(CTEST): capi/ctest/fscache_test.c include/fscache.h $(LIB)
	$(CC) -std=c99 -Wall -Wextra -Werror -Iinclude -o $@ $< -Lbuild/out -lfscache -Wl,-rpath,'$$ORIGIN'

ctest: $(CTEST) ## the C ABI test (capi/ctest/fscache_test.c) against the library
	./$(CTEST)

# The repository's Go files, not what is generated under build/out (the
# benchmarks' copies of Go's source tree) or installed (node_modules).
GOFMT_FILES = $$(find . \( -path ./build/out -o -path ./.git -o -name node_modules \) -prune -o -name '*.go' -print)

vet: ## gofmt check and go vet ./... (linux/amd64, with cgo); make vet-all: every platform
	@test -z "$$(gofmt -l $(GOFMT_FILES))" || { echo "gofmt needed (make fmt):"; gofmt -l $(GOFMT_FILES); exit 1; }
	$(GO) vet ./...

fmt: ## gofmt -w: formats the Go files vet's gofmt check names
	gofmt -l -w $(GOFMT_FILES)

gotest: ## go test -race ./...
	$(GO) test -race -count=1 ./...

-include bindings/node/node.mk
-include conformance/conformance.mk
# Each concern adds its own fragment in build/mk/ (packaging, sanitizers, fuzzing,
# benchmarks) and hooks into `test`, `bench` and CI through TEST_EXTRA,
# BENCH_EXTRA and CI_EXTRA.
-include $(sort $(wildcard build/mk/*.mk))

build: $(LIB) $(NODE_ADDON) ## the library and the Node addon (build/out/libfscache.so, build/out/fscache.node)

test: vet gotest ctest check-exports check-help $(NODE_TESTS) $(TEST_EXTRA) ## what CI runs first: vet, Go tests, the C tests, export and help checks, Node/Bun suites, TEST_EXTRA

# The library and the addon built here export exactly what build/exports.sh
# lists (make test-dist checks every platform's packed binaries the same way).
check-exports: $(LIB) $(NODE_ADDON) ## the library exports the header's functions only, the addon Node-API's entry points only
	build/check-elf.sh $(LIB) $(NODE_ADDON)

# What .ci/run runs after `make test` and `make conformance`.
ci-extra: $(CI_EXTRA) ## what CI runs after test and conformance (test-dist, test-windows, test-musl, test-sanitize, ...)

# Benchmarks: Go benchmarks (the walk against fastwalk alone, fresh and cached
# glob/fuzzyFind, the grep engine), then fscache against the reference through
# the same JS calls, alternated in one run. A long TTL keeps the cached
# benchmarks on the cache.
bench: build $(CONF_REF) ## Go benchmarks, fscache against pi-natives from JS, then BENCH_EXTRA (docs/performance.md)
	FS_SCAN_CACHE_TTL_MS=600000 $(if $(BENCH_REPO),FSCACHE_BENCH_REPO=$(abspath $(BENCH_REPO))) $(GO) test -run '^$$' -bench . -benchmem -count 1 ./internal/... ./core
	FSCACHE_NODE_ADDON=$(abspath $(NODE_ADDON)) $(NODE) bindings/node/bench/compare.mjs --ref $(CONF_REF) $(if $(BENCH_REPO),--repo $(BENCH_REPO))
	@$(if $(BENCH_EXTRA),$(MAKE) --no-print-directory $(BENCH_EXTRA))

clean: ## remove build/out (everything generated but dist/)
	rm -rf build/out
