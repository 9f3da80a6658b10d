# build/mk/bench-watch.mk - the watched scan cache (issue 12): the @-mention
# profile on a generated 120k-file tree, watching on and off, and the cost
# of the first cached call after one changed file as a fraction of a full
# scan. The tree is generated once under $TMPDIR and reused.
.PHONY: bench-watch
BENCH_EXTRA += bench-watch

bench-watch: build ## the watched scan cache on a 120k-file tree: watching on and off, the call after one change
	FSCACHE_NODE_ADDON=$(abspath $(NODE_ADDON)) $(NODE) bindings/node/bench/watch.mjs
