# mk/fuzz.mk - longer fuzzing runs.
#
#   make fuzz [FUZZTIME=30s] [FUZZPKGS=./core/...]
#
# Runs every Go fuzz target, one after the other, for FUZZTIME each.
# `make test` (go test) already runs each target's seed corpus and the
# crashers saved under testdata/fuzz. The Fuzz functions are discovered per
# package with `go test -list '^Fuzz'`, so a new target is included without
# editing this file. A failure stops the run; the failing input is written
# to the package's testdata/fuzz/<Target>/ and, once committed, is a regular
# test case (fix the bug it shows).

FUZZTIME ?= 30s
FUZZPKGS ?= ./...

.PHONY: fuzz

fuzz:
	@mkdir -p build
	$(GO) test -list '^Fuzz' $(FUZZPKGS) > build/.fuzz-list
	@awk '/^Fuzz/ { t = t " " $$1 } /^ok / { if (t != "") print $$2 t; t = "" }' build/.fuzz-list > build/.fuzz-targets
	@set -e; while read -r pkg targets; do \
	  for t in $$targets; do \
	    echo "== $$pkg $$t ($(FUZZTIME))"; \
	    $(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) $$pkg; \
	  done; \
	done < build/.fuzz-targets
