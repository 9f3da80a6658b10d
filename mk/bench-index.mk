# mk/bench-index.mk - grep's content index (issue 19): repeated greps over
# $(go env GOROOT)/src served by the index, each alternated with the same
# grep with the index off (FS_GREP_INDEX=0's path) in the same process
# (literal, phrase, regex with a literal, ignoreCase, alternation, a token
# that occurs nowhere, filesWithMatches, glob-filtered, count, no literal),
# the build's wall and CPU time against one full grep's, the index's bytes
# per indexed byte and per file, and the time from an edit to the first
# correct answer. The table goes to build/bench/index.md.
.PHONY: bench-index
BENCH_EXTRA += bench-index

bench-index:
	mkdir -p build/bench
	FSCACHE_BENCH_INDEX=1 FSCACHE_BENCH_INDEX_OUT=$(abspath build/bench/index.md) \
	  $(GO) test -count=1 -run '^TestIndexBenchGoroot$$' -v ./internal/engine
	@cat build/bench/index.md
