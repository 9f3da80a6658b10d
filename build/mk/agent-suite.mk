# build/mk/agent-suite.mk - the agent-suite runner's self-test (scripts/agent-suite/).
# The suite itself (the agent's own tests with pi-natives and with the overlay)
# needs the agent's source and a long run; `make test` checks that its
# comparison counts every test file on both sides.
#
#   make test-agent-suite   compare.mjs on synthetic results: totals, file failures, exit codes

.PHONY: test-agent-suite

test-agent-suite: ## self-test of the agent-suite comparison (scripts/agent-suite/compare.test.mjs)
	$(NODE) --test scripts/agent-suite/compare.test.mjs

TEST_EXTRA += test-agent-suite
