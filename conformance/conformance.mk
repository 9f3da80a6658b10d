# conformance/conformance.mk - differential conformance suite against the reference addon
# @oh-my-pi/pi-natives@14.9.9 (included by the top Makefile, which defines `build` and LIB).
#
#   make conformance            build, fetch the reference once, run every case through both
#                               (exit 1 on any difference not allowed by known-differences.json
#                               + docs/compat.md; last line: `conformance: N/M ...`)
#   make conformance-self       reference against itself (harness check, no build needed)
#   make conformance-ref        only fetch the reference into conformance/.cache/
#   make conformance-list       list the case ids and counts per area
#   make conformance-index      the cases that grep again, ours with grep's content index live
#                               (FS_GREP_INDEX=eager: every directory grep builds its root's index
#                               in the call and is served by it) and watching on; the runs of
#                               `make conformance` have the index off (FS_GREP_INDEX=0); then
#                               again with watching off, every grep served by the root's index
#                               published on disk and validated by metadata (what macOS,
#                               Windows and a new process get)
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
# The second reference: pi-natives 18.2.3, for the cases of what 18.2 added (driver --suite 18;
# 14.9.9 stays the reference for everything else). Its own arguments: CONFORMANCE18_ARGS, e.g.
# CONFORMANCE18_ARGS='--filter ^lookaround/' (look-around/backreference cases alone).
CONF18_VERSION := 18.2.3
CONF18_SHA256  := 6f121caa4082204d6071241a6e0deedf01b278355f88a6ebcf724eed9dde88bc
CONF18_REF     := $(CONF_DIR)/.cache/pi-natives-linux-x64-$(CONF18_VERSION)/pi_natives.linux-x64-modern.node
CONFORMANCE18_ARGS ?=

.PHONY: conformance conformance18 conformance-self conformance-ref conformance-list conformance-index

# grep's content index off in the main runs, on (and required to serve) in conformance-index.
CONF_INDEX_OFF := --right-env FS_GREP_INDEX=0
CONF_INDEX_ON  := --only-fn grep --right-env FS_SCAN_CACHE_WATCH=1 --right-env FS_GREP_INDEX=eager --expect-index
CONF_INDEX_DISK = --only-fn grep --right-env FS_SCAN_CACHE_WATCH=0 --right-env FS_GREP_INDEX=eager \
  --right-env FS_GREP_INDEX_DIR=$(abspath $(CONF_DIR))/$(1)/grep-index --expect-index

$(CONF_REF):
	NPM=$(NPM) $(CONF_DIR)/fetch-reference.sh $(CONF_VERSION) $@ $(CONF_SHA256)

$(CONF18_REF):
	NPM=$(NPM) PKG=@oh-my-pi/pi-natives-linux-x64 MEMBER=package/pi_natives.linux-x64-modern.node \
	  $(CONF_DIR)/fetch-reference.sh $(CONF18_VERSION) $@ $(CONF18_SHA256)

conformance-ref: $(CONF_REF) $(CONF18_REF) ## only fetch the references (pi-natives 14.9.9, 18.2.3) into conformance/.cache/

conformance: build $(CONF_REF) $(CONF18_REF) ## every case through fscache and pi-natives 14.9.9 / 18.2.3; exit 1 on a difference not allowed
	FSCACHE_NODE_ADDON=$(CONF_ADDON) $(NODE) $(CONF_DIR)/driver.mjs $(CONF_INDEX_OFF) \
	  --left ref:$(CONF_REF) --right ours:$(CONF_OURS) $(CONFORMANCE_ARGS)
	FSCACHE_NODE_ADDON=$(CONF_ADDON) $(NODE) $(CONF_DIR)/driver.mjs --suite 18 --out $(CONF_DIR)/out18 $(CONF_INDEX_OFF) \
	  --left ref:$(CONF18_REF) --right ours:$(CONF_OURS) $(CONFORMANCE18_ARGS)
	$(MAKE) --no-print-directory conformance-index

# The grep cases again with grep's index live on our side (the cache/ cases test the TTL policy,
# which watching replaces: they stay in the main run).
conformance-index: build $(CONF_REF) $(CONF18_REF) ## the grep cases again, with grep's content index live on fscache's side
	FSCACHE_NODE_ADDON=$(CONF_ADDON) $(NODE) $(CONF_DIR)/driver.mjs --out $(CONF_DIR)/out-index \
	  $(CONF_INDEX_ON) --exclude '^cache/' --left ref:$(CONF_REF) --right ours:$(CONF_OURS) $(CONFORMANCE_ARGS)
	FSCACHE_NODE_ADDON=$(CONF_ADDON) $(NODE) $(CONF_DIR)/driver.mjs --suite 18 --out $(CONF_DIR)/out18-index \
	  $(CONF_INDEX_ON) --left ref:$(CONF18_REF) --right ours:$(CONF_OURS) $(CONFORMANCE18_ARGS)
	rm -rf $(CONF_DIR)/out-disk/grep-index $(CONF_DIR)/out18-disk/grep-index
	FSCACHE_NODE_ADDON=$(CONF_ADDON) $(NODE) $(CONF_DIR)/driver.mjs --out $(CONF_DIR)/out-disk \
	  $(call CONF_INDEX_DISK,out-disk) --exclude '^cache/' --left ref:$(CONF_REF) --right ours:$(CONF_OURS) $(CONFORMANCE_ARGS)
	FSCACHE_NODE_ADDON=$(CONF_ADDON) $(NODE) $(CONF_DIR)/driver.mjs --suite 18 --out $(CONF_DIR)/out18-disk \
	  $(call CONF_INDEX_DISK,out18-disk) --left ref:$(CONF18_REF) --right ours:$(CONF_OURS) $(CONFORMANCE18_ARGS)

# Only the 18.2.3 suite.
conformance18: build $(CONF18_REF) ## only the 18.2.3 suite (what pi-natives 18.2 added)
	FSCACHE_NODE_ADDON=$(CONF_ADDON) $(NODE) $(CONF_DIR)/driver.mjs --suite 18 --out $(CONF_DIR)/out18 \
	  --left ref:$(CONF18_REF) --right ours:$(CONF_OURS) $(CONFORMANCE18_ARGS)

conformance-self: $(CONF_REF) ## the reference against itself (harness check, no build needed)
	$(NODE) $(CONF_DIR)/driver.mjs --left ref:$(CONF_REF) --right ref:$(CONF_REF) $(CONFORMANCE_ARGS)

conformance-list: ## list the case ids and counts per area
	@$(NODE) $(CONF_DIR)/driver.mjs --list $(CONFORMANCE_ARGS)
