# build/mk/bench-readcache.mk - the read cache (issue 34, item 5), part of
# `make bench`:
#   1. bindings/pi-fscache/bench/readcache.mjs: a scripted session over a
#      real repository (BENCH_REPO; Go's src when unset), pi's own read and
#      pi-fscache's read side by side on the same files at the same moments,
#      idle and beside a CPU hog: bytes served per kind of read, the diff's
#      share of the file after an edit, latency and what the cache adds.
#      Then the savings of the line-level copy (issue 48): random reads,
#      ranges and rereads, each after a request through the package's
#      context handler: the rereads whose request already held every line
#      pi's read shows that were not markers (goal: at most 1%).
#      Report: build/out/bench/readcache.md and readcache.json. It runs
#      once per pi line: pi 0.73.1 on Node 20 (NODE), then pi 1.6.0 on
#      Node 22 (NODE22, PI_LINE=1, test/pi1-aliases.mjs imported first):
#      readcache-pi1.md and readcache-pi1.json.
#   3. the omp row: bindings/omp-fscache/bench/readcache.ts, scripted
#      omp 18.2.3 sessions (Bun 1.3.14, the package installed by `omp plugin
#      install` in a temporary HOME) over BENCH_REPO's files of 2-100 KB:
#      40 first reads, then 200 rereads of unchanged files; omp's own read
#      (OMP_FSCACHE_READ=0; default settings, global settings, and with
#      idle context/tool_result handlers) and omp-fscache side by side in
#      one process: bytes the model receives, p50/p90 latency per read and
#      before each request, and what the package adds. Idle, then beside a
#      CPU hog, then settled (--settle: a full garbage collection at each
#      request, outside every read's window, so a read's time is its own
#      work). Report: build/out/bench/readcache-omp.md, readcache-omp-hog.md
#      and readcache-omp-settled.md.
#   2. make bench-diff (a prerequisite, run first): internal/diff against jsdiff on 2k, 12k and 100k-line
#      files with 10 to 1000 edits, in one run.
#
#   make bench-readcache [BENCH_REPO=DIR] [BENCH_READCACHE_ARGS='--files 40 --rounds 3']

BENCH_READCACHE_ARGS ?=
BENCH_READCACHE_REPO  = $(abspath $(or $(BENCH_REPO),$(shell $(GO) env GOROOT)/src))

.PHONY: bench-readcache
BENCH_EXTRA += bench-readcache

BENCH_READCACHE_RUN = bench/readcache.mjs --repo $(BENCH_READCACHE_REPO) --out $(abspath build/out/bench) --tmp $(abspath build/out/tmp) $(BENCH_READCACHE_ARGS)

bench-readcache: build pi-deps bench-diff node22 omp-hosts omp-bun ## the read cache: bench-diff, then a scripted pi session over BENCH_REPO against pi's read, on pi 0.73 and pi 1.x (build/out/bench/readcache.md, readcache-pi1.md), and an omp 18.2.3 session with omp-fscache (readcache-omp.md, -hog.md, -settled.md)
	cd bindings/pi-fscache && FSCACHE_NODE_ADDON=$(abspath $(NODE_ADDON)) $(NODE) --import ./test/hosts.mjs $(BENCH_READCACHE_RUN)
	cd bindings/pi-fscache && FSCACHE_NODE_ADDON=$(abspath $(NODE_ADDON)) PI_LINE=1 BENCH_SUFFIX=-pi1 \
	  $(NODE22) --import ./test/pi1-aliases.mjs $(BENCH_READCACHE_RUN)
	cd $(OMP_DIR) && FSCACHE_NODE_ADDON=$(abspath $(NODE_ADDON)) $(NODE) test/run.mjs $(abspath $(BUN_OLD)) bench/readcache.ts \
	  -- --repo $(BENCH_READCACHE_REPO) --out $(abspath build/out/bench) --tmp $(abspath build/out/tmp)
	cd $(OMP_DIR) && FSCACHE_NODE_ADDON=$(abspath $(NODE_ADDON)) $(NODE) test/run.mjs $(abspath $(BUN_OLD)) bench/readcache.ts \
	  -- --repo $(BENCH_READCACHE_REPO) --out $(abspath build/out/bench) --tmp $(abspath build/out/tmp) --hog
	cd $(OMP_DIR) && FSCACHE_NODE_ADDON=$(abspath $(NODE_ADDON)) $(NODE) test/run.mjs $(abspath $(BUN_OLD)) bench/readcache.ts \
	  -- --repo $(BENCH_READCACHE_REPO) --out $(abspath build/out/bench) --tmp $(abspath build/out/tmp) --settle
