# build/mk/bench-cancel.mk - cancellation latency (issue 20): how long a call
# takes to return once its abort flag is raised, p50 and p99, for a glob
# walking 120k files, a grep of one 4 MiB line on the NFA ("a[ab]{100}c")
# and a backtracking match ((\w+)\1x over a 4 MiB line), first on an idle
# machine, then beside two CPU hogs that the target starts and stops
# itself. The goal: p99 at most 50 ms in the plain (non-race) build.
#
#   make bench-cancel [BENCH_CANCEL_N=100]

BENCH_CANCEL_N ?= 100
BENCH_CANCEL    = $(GO) test -run '^$$' -bench '^BenchmarkCancelLatency$$' -benchtime $(BENCH_CANCEL_N)x -count 1 ./internal/engine/

.PHONY: bench-cancel
BENCH_EXTRA += bench-cancel

bench-cancel: ## cancellation latency p50/p99 (glob, NFA grep, backtracking grep), idle and beside two CPU hogs
	@echo "== cancel latency, idle"
	$(BENCH_CANCEL)
	@echo "== cancel latency, beside two CPU hogs"
	@set -e; yes >/dev/null & h1=$$!; yes >/dev/null & h2=$$!; \
	  trap 'kill $$h1 $$h2 2>/dev/null' EXIT INT TERM; \
	  $(BENCH_CANCEL)
