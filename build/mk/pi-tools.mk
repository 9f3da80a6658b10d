# pi-tools.mk: pi's find, grep and ls on fscache (bindings/pi-fscache/src/tools,
# issue 36; docs/pi-tools.md).
#
#   make test-pi-tools   the differential test against pi's built-in find and
#                        grep (Debian's fd-find and ripgrep, installed when
#                        missing) and ls; part of make test
#
# PI_DIR and PI_STAMP (npm ci of bindings/pi-fscache) come from
# build/mk/pi-fscache.mk; the defaults below serve until it is included.

PI_DIR       ?= bindings/pi-fscache
PI_TOOLS_DEBS := fd-find ripgrep

TEST_EXTRA += test-pi-tools

.PHONY: test-pi-tools pi-tools-debs

pi-tools-debs: ## Debian's fd-find and ripgrep, for the differential test
	@sh $(ENSURE_DEBS) $(PI_TOOLS_DEBS)

test-pi-tools: $(NODE_ADDON) pi-tools-debs $(PI_STAMP) ## differential test of pi-fscache's find, grep and ls against pi's built-ins
	cd $(PI_DIR) && FS_GREP_INDEX_DIR=$(CURDIR)/build/out/grep-index $(NODE) --test test/tools-*.test.mjs
