# build/mk/bench.mk - what `make bench` needs beyond the top Makefile's recipe.
#
#   make bench        Go benchmarks, then bindings/node/bench/compare.mjs:
#                     fscache against pi-natives 14.9.9 through the same JS
#                     calls (every row of docs/performance.md, sides
#                     alternated, one process per side and round), fd and
#                     ripgrep as whole processes, the 10k/50k/200k scaling
#                     series and resident bytes per cached entry. Generated
#                     trees are made once under build/out/bench-trees; the report
#                     goes to build/out/bench/{results.md,results.json,ratios.svg}.
#   make bench-lw     bindings/node/bench/listworkspace.mjs: listWorkspace
#                     against pi-natives 14.9.9 and 18.2.3 side by side
#                     (depths 3 and 6, with and without collectAgentsMd), on
#                     Go's src, the 120k tree and the repository BENCH_REPO
#                     (a large JavaScript or TypeScript checkout of your
#                     choice; its rows are left out when unset), idle and
#                     beside one CPU hog; part of `make bench`. Report:
#                     build/out/bench/listworkspace.md.
#   make bench-doc    copies the last run's chart to docs/performance.svg.
#   make bench-before BENCH_BASE_REV=<rev>
#                     the same run with a third column: fscache built from
#                     <rev> (default main) in build/out/bench-base.

BENCH_BASE_REV ?= main
BENCH_BASE     := build/out/bench-base

BENCH_REPO ?=

.PHONY: bench-tools bench-doc bench-before bench-lw

# fd and ripgrep, for the whole-process rows (Debian names fd "fdfind").
bench-tools: ## install fd and ripgrep (Debian packages) for the whole-process rows of make bench
	@command -v fdfind >/dev/null && command -v rg >/dev/null || \
	  { apt-get update -qq && apt-get install -y -qq fd-find ripgrep; }

bench: bench-tools
BENCH_EXTRA += bench-lw

bench-lw: build $(CONF_REF) $(CONF18_REF) $(NODE_STAMP) ## listWorkspace against pi-natives 14.9.9 and 18.2.3 (build/out/bench/listworkspace.md)
	FSCACHE_NODE_ADDON=$(abspath $(NODE_ADDON)) $(NODE) $(NODE_DIR)/bench/listworkspace.mjs \
	  --ref14 $(CONF_REF) --ref18 $(CONF18_REF) $(if $(BENCH_REPO),--repo $(BENCH_REPO))

bench-doc: ## copy the last run's chart to docs/performance.svg
	cp build/out/bench/ratios.svg docs/performance.svg

bench-before: build bench-tools $(CONF_REF) $(NODE_STAMP) ## make bench's comparison with a third column: fscache built from BENCH_BASE_REV (default main)
	rm -rf $(BENCH_BASE) && mkdir -p $(BENCH_BASE)
	git archive $(BENCH_BASE_REV) | tar -x -C $(BENCH_BASE)
	ln -s $(abspath $(NODE_DIR))/node_modules $(BENCH_BASE)/$(NODE_DIR)/node_modules
	$(MAKE) -C $(BENCH_BASE) --no-print-directory build
	FSCACHE_NODE_ADDON=$(abspath $(NODE_ADDON)) $(NODE) $(NODE_DIR)/bench/compare.mjs --ref $(CONF_REF) \
	  --base $(abspath $(BENCH_BASE))/$(NODE_DIR)/index.js
