# build/mk/bench-agent.mk - the coding agent's own calls (issue 26, item 5):
# bindings/node/bench/agent.mjs runs each call shape exactly as oh-my-pi makes
# it (copied from @oh-my-pi/pi-coding-agent and pi-tui 18.2.3: glob tool,
# discovery glob, grep tool, read tool on a directory, system prompt tree,
# @-mention keystrokes) through fscache, pi-natives 14.9.9 and 18.2.3, on
# Go's src, the 120k tree of compare.mjs and BENCH_REPO, as the first call of
# a fresh process and repeated in one process, idle and beside one CPU hog;
# part of `make bench`. Report: build/out/bench/agent.md and agent.json.
#
#   make bench-agent [BENCH_REPO=DIR] [BENCH_BIG=1] [BENCH_AGENT_ARGS='--rounds 3']
#       BENCH_BIG=1 adds 18 copies of Go's src (~3 GB, ~200k files, made
#       once under build/out/bench-trees/go-src-x18; minutes).
#   make bench-agent-quick   one round, Go's src (and BENCH_REPO) only: a smoke run.

BENCH_BIG        ?=
BENCH_AGENT_ARGS ?=
BENCH_AGENT       = FSCACHE_NODE_ADDON=$(abspath $(NODE_ADDON)) $(NODE) $(NODE_DIR)/bench/agent.mjs \
  --ref14 $(CONF_REF) --ref18 $(CONF18_REF) $(if $(BENCH_REPO),--repo $(BENCH_REPO)) \
  $(if $(filter 1,$(BENCH_BIG)),--big)

.PHONY: bench-agent bench-agent-quick
BENCH_EXTRA += bench-agent

bench-agent: build $(CONF_REF) $(CONF18_REF) $(NODE_STAMP) ## the agent's call shapes against pi-natives 14.9.9 and 18.2.3 (build/out/bench/agent.md)
	$(BENCH_AGENT) $(BENCH_AGENT_ARGS)

bench-agent-quick: build $(CONF_REF) $(CONF18_REF) $(NODE_STAMP) ## smoke run of bench-agent: one round on Go's src
	$(BENCH_AGENT) --quick $(BENCH_AGENT_ARGS)
