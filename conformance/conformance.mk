# conformance/conformance.mk - differential conformance suite against the reference addon
# @oh-my-pi/pi-natives@14.9.9 (included by the top Makefile, which defines `build` and LIB).
#
#   make conformance            build, fetch the reference once, run every case through both
#                               (exit 1 on any difference not allowed by known-differences.json
#                               + docs/compat.md; last line: `conformance: N/M ...`)
#   make conformance-self       reference against itself (harness check, no build needed)
#   make conformance-ref        only fetch the reference into conformance/.cache/
#   make conformance-list       list the case ids and counts per area
#   CONFORMANCE_ARGS='--filter ^grep/'   extra driver arguments (--filter REGEX, --keep, --jobs N)

CONF_DIR     := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
CONF_VERSION := 14.9.9
CONF_SHA256  := 8d9968cdc2ba07162cc04d19bd507ab7aa7c19ae8e8836cdb315bdd8fc70a694
CONF_REF     := $(CONF_DIR)/.cache/pi-natives-$(CONF_VERSION)/pi_natives.linux-x64-modern.node
CONF_OURS    := $(CONF_DIR)/../bindings/node/index.js
CONF_ADDON   := $(abspath $(dir $(LIB))fscache.node)
NODE         ?= node
NPM          ?= npm
CONFORMANCE_ARGS ?=

.PHONY: conformance conformance-self conformance-ref conformance-list

$(CONF_REF):
	NPM=$(NPM) $(CONF_DIR)/fetch-reference.sh $(CONF_VERSION) $@ $(CONF_SHA256)

conformance-ref: $(CONF_REF)

conformance: build $(CONF_REF)
	FSCACHE_NODE_ADDON=$(CONF_ADDON) $(NODE) $(CONF_DIR)/driver.mjs \
	  --left ref:$(CONF_REF) --right ours:$(CONF_OURS) $(CONFORMANCE_ARGS)

conformance-self: $(CONF_REF)
	$(NODE) $(CONF_DIR)/driver.mjs --left ref:$(CONF_REF) --right ref:$(CONF_REF) $(CONFORMANCE_ARGS)

conformance-list:
	@$(NODE) $(CONF_DIR)/driver.mjs --list $(CONFORMANCE_ARGS)
