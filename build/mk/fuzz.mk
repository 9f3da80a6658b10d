# build/mk/fuzz.mk - longer fuzzing runs.
#
#   make fuzz [FUZZTIME=30s] [FUZZPKGS=./...]
#
# Runs every Go fuzz target, one after the other, for FUZZTIME each.
# `make test` (go test) already runs each target's seed corpus and the
# crashers saved under testdata/fuzz. The Fuzz functions are discovered per
# package with `go test -list '^Fuzz'`, so a new target is included without
# editing this file. A failure stops the run; the failing input is written
# to the package's testdata/fuzz/<Target>/ and, once committed, is a regular
# test case (fix the bug it shows). A bare "context deadline exceeded" with
# no failing input is Go's coordinator race at the end of -fuzztime
# (golang/go#75804, fixed in Go 1.27): reported, not a failure.

FUZZTIME ?= 30s
FUZZPKGS ?= ./...

.PHONY: fuzz

fuzz: ## every Go fuzz target for FUZZTIME each (default 30s), one after the other
	@mkdir -p build/out
	$(GO) test -list '^Fuzz' $(FUZZPKGS) > build/out/.fuzz-list
	@awk '/^Fuzz/ { t = t " " $$1 } /^ok / { if (t != "") print $$2 t; t = "" }' build/out/.fuzz-list > build/out/.fuzz-targets
	@set -e; while read -r pkg targets; do \
	  for t in $$targets; do \
	    echo "== $$pkg $$t ($(FUZZTIME))"; \
	    if ! $(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) $$pkg > build/out/.fuzz-log 2>&1; then \
	      tail -n 30 build/out/.fuzz-log; \
	      if grep -q 'Failing input written' build/out/.fuzz-log || \
	         ! grep -q '^    context deadline exceeded$$' build/out/.fuzz-log; then exit 1; fi; \
	      echo "(no failing input: Go's fuzz coordinator race at the end of -fuzztime, golang/go#75804)"; \
	    else tail -n 2 build/out/.fuzz-log; fi; \
	  done; \
	done < build/out/.fuzz-targets
