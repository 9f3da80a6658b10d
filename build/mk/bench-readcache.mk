# build/mk/bench-readcache.mk - the read cache (issue 34, item 5), part of
# `make bench`:
#   1. bindings/pi-fscache/bench/readcache.mjs: a scripted session over a
#      real repository (BENCH_REPO; Go's src when unset), pi's own read and
#      pi-fscache's read side by side on the same files at the same moments,
#      idle and beside a CPU hog: bytes served per kind of read, the diff's
#      share of the file after an edit, latency and what the cache adds.
#      Report: build/out/bench/readcache.md and readcache.json.
#   2. make bench-diff (a prerequisite, run first): internal/diff against jsdiff on 2k, 12k and 100k-line
#      files with 10 to 1000 edits, in one run.
#
#   make bench-readcache [BENCH_REPO=DIR] [BENCH_READCACHE_ARGS='--files 40 --rounds 3']

BENCH_READCACHE_ARGS ?=
BENCH_READCACHE_REPO  = $(abspath $(or $(BENCH_REPO),$(shell $(GO) env GOROOT)/src))

.PHONY: bench-readcache
BENCH_EXTRA += bench-readcache

bench-readcache: build pi-deps bench-diff ## the read cache: bench-diff, then a scripted pi session over BENCH_REPO against pi's read (build/out/bench/readcache.md)
	cd bindings/pi-fscache && FSCACHE_NODE_ADDON=$(abspath $(NODE_ADDON)) $(NODE) bench/readcache.mjs \
	  --repo $(BENCH_READCACHE_REPO) --out $(abspath build/out/bench) --tmp $(abspath build/out/tmp) $(BENCH_READCACHE_ARGS)
