# fscache build. `make demo` and `make test` are all a fresh machine needs:
# Go modules come from the Go module proxy, the JS dev tools (bun,
# typescript, node-api-headers) are installed into bindings/node by npm.

GO      ?= go
CC      ?= cc
LIB     := build/out/libfscache.so
GO_SRC  := $(shell find internal capi -name '*.go' -not -name '*_test.go') go.mod go.sum VERSION
# The one version number: VERSION stamps the library (fscache_version()), the
# npm packages and the pkg-config file. The soname's major is its first part.
VERSION := $(shell cat VERSION)
SOMAJOR := $(firstword $(subst ., ,$(VERSION)))
SONAME  := libfscache.so.$(SOMAJOR)
GO_LDFLAGS = -X main.version=$(VERSION) -extldflags=-Wl,-soname,$(SONAME)
CTEST   := build/out/fscache_ctest

.PHONY: all build lib test vet gotest ctest bench fmt clean go-deps ci-extra

all: build

go-deps:
	$(GO) mod download

lib: $(LIB)

# The library carries its soname; programs and the addon linked to it look
# for $(SONAME), a link to it beside the file.
$(LIB): $(GO_SRC)
	@mkdir -p build/out
	$(GO) build -buildmode=c-shared -ldflags '$(GO_LDFLAGS)' -o $@ ./capi
	@rm -f build/out/libfscache.h
	ln -sf libfscache.so build/out/$(SONAME)

# The C ABI test: the header with strict C99 warnings, linked to the library.
$(CTEST): capi/ctest/fscache_test.c include/fscache.h $(LIB)
	$(CC) -std=c99 -Wall -Wextra -Werror -Iinclude -o $@ $< -Lbuild/out -lfscache -Wl,-rpath,'$$ORIGIN'

ctest: $(CTEST)
	./$(CTEST)

vet:
	@test -z "$$(gofmt -l .)" || { echo "gofmt needed:"; gofmt -l .; exit 1; }
	$(GO) vet ./...

gotest:
	$(GO) test -race -count=1 ./...

-include bindings/node/node.mk
-include conformance/conformance.mk
# Each concern adds its own fragment in build/mk/ (packaging, sanitizers, fuzzing,
# benchmarks) and hooks into `test`, `bench` and CI through TEST_EXTRA,
# BENCH_EXTRA and CI_EXTRA.
-include $(sort $(wildcard build/mk/*.mk))

build: $(LIB) $(NODE_ADDON)

test: vet gotest ctest $(NODE_TESTS) $(TEST_EXTRA)

# What .ci/run runs after `make test` and `make conformance`.
ci-extra: $(CI_EXTRA)

# Benchmarks: Go benchmarks (the walk against fastwalk alone, fresh and cached
# glob/fuzzyFind, the grep engine), then fscache against the reference through
# the same JS calls, alternated in one run. A long TTL keeps the cached
# benchmarks on the cache.
bench: build $(CONF_REF)
	FS_SCAN_CACHE_TTL_MS=600000 $(if $(BENCH_REPO),FSCACHE_BENCH_REPO=$(abspath $(BENCH_REPO))) $(GO) test -run '^$$' -bench . -benchmem -count 1 ./internal/... ./core
	FSCACHE_NODE_ADDON=$(abspath $(NODE_ADDON)) $(NODE) bindings/node/bench/compare.mjs --ref $(CONF_REF) $(if $(BENCH_REPO),--repo $(BENCH_REPO))
	@$(if $(BENCH_EXTRA),$(MAKE) --no-print-directory $(BENCH_EXTRA))

clean:
	rm -rf build/out
