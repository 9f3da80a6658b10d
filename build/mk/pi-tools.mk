# pi-tools.mk: pi's find, grep and ls on fscache (bindings/pi-fscache/src/tools,
# issue 36; docs/pi-tools.md).
#
#   make test-pi-tools   the tools' suites alone (test/tools-*.test.mjs: the
#                        differential test against pi's built-in find, grep and
#                        ls with Debian's fd-find and ripgrep, installed when
#                        missing; the probe of the host's tools; edits seen; a
#                        real pi session with the package installed by `pi
#                        install`), on pi 0.73.1 (Node 20) then pi 1.6.0 (Node
#                        22). make test runs
#                        them through test-pi (build/mk/pi-fscache.mk), which
#                        gets fd and rg from pi-tools-debs below.
#   make bench-pi-tools [BENCH_REPO=DIR] [BENCH_PI_TOOLS_ARGS='--rounds 20']
#                        each tool, first call (a fresh process each) and
#                        repeated, the override against pi's built-in, on Go's
#                        src and BENCH_REPO, idle and beside a CPU hog, on
#                        both pi lines: 0.73.1 on Node 20, then 1.6.0 on Node
#                        22 (build/mk/node22.mk); build/out/bench/
#                        pi-tools-0.73.{md,json} and pi-tools-1.{md,json}, and
#                        pi-tools.md with the two side by side
#
# PI_DIR and PI_STAMP (npm ci of bindings/pi-fscache and its test/hosts) come from
# build/mk/pi-fscache.mk; the defaults below serve until it is included.

PI_DIR       ?= bindings/pi-fscache
PI_TOOLS_DEBS := fd-find ripgrep
BENCH_PI_TOOLS_ARGS ?=

BENCH_EXTRA += bench-pi-tools

.PHONY: test-pi-tools pi-tools-debs bench-pi-tools

pi-tools-debs: ## Debian's fd-find and ripgrep, for the tools' differential test and bench
	@sh $(ENSURE_DEBS) $(PI_TOOLS_DEBS)

# test-pi runs every test/*.test.mjs, the tools' suites among them.
test-pi-0.73 test-pi-1: pi-tools-debs

test-pi-tools: $(NODE_ADDON) pi-tools-debs $(PI_STAMP) $(NODE22) ## pi-fscache's find, grep and ls suites alone, on both pi lines (differential test against the line's built-ins, the host probe, edits seen, a pi session after pi install)
	cd $(PI_DIR) && FSCACHE_NODE_ADDON=$(abspath $(NODE_ADDON)) FSCACHE_LIB=$(abspath $(LIB)) \
	  FS_GREP_INDEX_DIR=$(CURDIR)/build/out/grep-index PI_LINE=0.73 $(NODE) --import ./test/hosts.mjs --test --test-reporter=spec test/tools-*.test.mjs
	cd $(PI_DIR) && FSCACHE_NODE_ADDON=$(abspath $(NODE_ADDON)) FSCACHE_LIB=$(abspath $(LIB)) \
	  FS_GREP_INDEX_DIR=$(CURDIR)/build/out/grep-index PI_LINE=1 $(NODE22) --import ./test/pi1-aliases.mjs \
	  --test --test-reporter=spec test/tools-*.test.mjs

BENCH_PI_TOOLS_RUN = bench/tools.mjs --go-src $(abspath $(shell $(GO) env GOROOT)/src) \
	  $(if $(BENCH_REPO),--repo $(abspath $(BENCH_REPO))) --out $(abspath build/out/bench) $(BENCH_PI_TOOLS_ARGS)

bench-pi-tools: $(NODE_ADDON) pi-tools-debs $(PI_STAMP) $(NODE22) ## pi-fscache's find, grep and ls against pi's fd/rg-backed built-ins, first and repeated calls, idle and beside a hog, on pi 0.73.1 and pi 1.6.0 side by side (build/out/bench/pi-tools.md)
	cd $(PI_DIR) && FSCACHE_NODE_ADDON=$(abspath $(NODE_ADDON)) PI_LINE=0.73 $(NODE) --import ./test/hosts.mjs $(BENCH_PI_TOOLS_RUN)
	cd $(PI_DIR) && FSCACHE_NODE_ADDON=$(abspath $(NODE_ADDON)) PI_LINE=1 $(NODE22) --import ./test/pi1-aliases.mjs $(BENCH_PI_TOOLS_RUN)
	cd $(PI_DIR) && $(NODE) bench/tools.mjs --report --out $(abspath build/out/bench) \
	  $(abspath build/out/bench)/pi-tools-0.73.json $(abspath build/out/bench)/pi-tools-1.json
