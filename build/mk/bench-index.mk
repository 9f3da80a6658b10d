# build/mk/bench-index.mk - grep's content index (issue 19): repeated greps over
# $(go env GOROOT)/src served by the index, each alternated with the same
# grep with the index off (FS_GREP_INDEX=0's path) in the same process
# (literal, phrase, regex with a literal, ignoreCase, alternation, a token
# that occurs nowhere, filesWithMatches, glob-filtered, count, no literal),
# the build's wall and CPU time against one full grep's, the index's bytes
# per indexed byte and per file, and the time from an edit to the first
# correct answer. The table goes to build/out/bench/index.md.
#
# make bench-indexed: bindings/node/bench/indexed.mjs, the same kind of
# repeated greps from Node with the index built, against pi-natives 14.9.9
# (cache: true) and 18.2.3 side by side, on Go's src, the 120k tree and
# BENCH_REPO; build/out/bench/indexed.md.
.PHONY: bench-index bench-indexed
BENCH_EXTRA += bench-index bench-indexed

bench-indexed: build $(CONF_REF) $(CONF18_REF) $(NODE_STAMP) ## indexed greps from Node against pi-natives 14.9.9 and 18.2.3 (build/out/bench/indexed.md)
	FSCACHE_NODE_ADDON=$(abspath $(NODE_ADDON)) $(NODE) $(NODE_DIR)/bench/indexed.mjs \
	  --ref14 $(CONF_REF) --ref18 $(CONF18_REF) $(if $(BENCH_REPO),--repo $(BENCH_REPO))

bench-index: ## grep's content index against no index on Go's src, its build and size (build/out/bench/index.md)
	mkdir -p build/out/bench
	FSCACHE_BENCH_INDEX=1 FSCACHE_BENCH_INDEX_OUT=$(abspath build/out/bench/index.md) \
	  $(GO) test -count=1 -run '^TestIndexBenchGoroot$$' -v ./internal/engine
	@cat build/out/bench/index.md
