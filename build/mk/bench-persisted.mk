# build/mk/bench-persisted.mk - grep's persisted content index (issue 28,
# item 5): bindings/node/bench/persisted.mjs builds the index of Go's src,
# BENCH_REPO (default build/out/repos/babel) and 18 copies of Go's src
# (BENCH_BIG_DIR, default build/out/bench-trees/go-src-x18, made by
# `make bench-agent BENCH_BIG=1`), then runs the agent's grep tool call as
# the first call of fresh processes and repeated in one process: fscache
# with the published index (watching on and off), FS_GREP_INDEX=0 and
# FS_GREP_INDEX=memory, pi-natives 14.9.9 and 18.2.3; the big tree's first
# calls again beside one CPU hog. Every fscache answer is compared with
# FS_GREP_INDEX=0's. Part of `make bench`. Report:
# build/out/bench/persisted.md and persisted.json; the indexes go to
# build/out/bench/persisted-index/<tree>.
#
#   make bench-persisted [BENCH_PERSISTED_TREES=go,babel,big] [BENCH_PERSISTED_ARGS='--rounds 7']
#   make bench-persisted-quick   Go's src only, 2 processes per side: a smoke run (< 1 min).

BENCH_PERSISTED_TREES ?= go,babel,big
BENCH_PERSISTED_ARGS  ?=
BENCH_PERSISTED        = FSCACHE_NODE_ADDON=$(abspath $(NODE_ADDON)) $(NODE) $(NODE_DIR)/bench/persisted.mjs \
  --ref14 $(CONF_REF) --ref18 $(CONF18_REF) \
  $(if $(BENCH_REPO),--babel-dir $(abspath $(BENCH_REPO))) \
  $(if $(BENCH_BIG_DIR),--big-dir $(abspath $(BENCH_BIG_DIR)))

.PHONY: bench-persisted bench-persisted-quick
BENCH_EXTRA += bench-persisted

bench-persisted: build $(CONF_REF) $(CONF18_REF) $(NODE_STAMP) ## grep's persisted index: build cost, fresh-process and repeated greps vs pi-natives 14.9.9/18.2.3 (build/out/bench/persisted.md)
	$(BENCH_PERSISTED) --trees $(BENCH_PERSISTED_TREES) $(BENCH_PERSISTED_ARGS)

bench-persisted-quick: build $(CONF_REF) $(CONF18_REF) $(NODE_STAMP) ## smoke run of bench-persisted: Go's src only, 2 processes per side
	$(BENCH_PERSISTED) --quick $(BENCH_PERSISTED_ARGS)
