# build/mk/agent-suite.mk - the agent-suite runner's self-test (scripts/agent-suite/).
# The suite itself (the agent's own tests with pi-natives and with the overlay)
# needs the agent's source and a long run (v18.0.0: 13 to 14 min a Bun); `make test`
# checks that its comparison counts every test file on both sides, and what
# run.sh decides on a made-up monorepo with fake bun and npm.
#
#   make test-agent-suite   compare.mjs on synthetic results: totals, file failures, exit codes;
#                           run.sh: PI_NATIVES (the pi-natives both sides get), FILL_MISSING

.PHONY: test-agent-suite

test-agent-suite: ## self-test of the agent-suite runner: compare.mjs on synthetic results, run.sh with fake bun and npm
	$(NODE) --test scripts/agent-suite/compare.test.mjs scripts/agent-suite/run.test.mjs

TEST_EXTRA += test-agent-suite
