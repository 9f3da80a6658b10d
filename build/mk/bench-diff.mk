# build/mk/bench-diff.mk - the read cache's line diff (internal/diff, seed
# 001 §9.2 and §16.3) against jsdiff's createTwoFilesPatch (npm "diff",
# context 3), which pi's own tools use: bindings/node/bench/diff-jsdiff.mjs
# generates code-like files of 2k, 12k, 50k and 100k lines with 10 to 1000
# edits (the generator of internal/diff's Go benchmarks), then times both
# in one run, sides alternated, through internal/diff/cmd/diffbench (built
# here) and jsdiff from bindings/node/node_modules. Goals: at most 0.2 of
# jsdiff's time from 12k lines on, patches no larger than 1.1 times
# jsdiff's (the run fails when a patch is larger). Report:
# build/out/bench/diff-jsdiff.md and .json. Part of `make bench`.
#
#   make bench-diff [BENCH_DIFF_ARGS='--rounds 9 --cases 12000x50,100000x1000']
#   go test -run '^$' -bench BenchmarkUnified ./internal/diff   (Go alone)

BENCH_DIFF_ARGS ?=
DIFFBENCH       := build/out/diffbench

.PHONY: bench-diff
BENCH_EXTRA += bench-diff

$(DIFFBENCH): $(wildcard internal/diff/*.go internal/diff/cmd/diffbench/*.go) go.mod
	mkdir -p $(dir $@)
	$(GO) build -o $@ ./internal/diff/cmd/diffbench

bench-diff: $(DIFFBENCH) $(NODE_STAMP) ## internal/diff against jsdiff's createTwoFilesPatch, time and patch size (build/out/bench/diff-jsdiff.md)
	$(NODE) $(NODE_DIR)/bench/diff-jsdiff.mjs --helper $(DIFFBENCH) \
	  --out build/out/bench/diff-jsdiff.md $(BENCH_DIFF_ARGS)
