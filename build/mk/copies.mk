# build/mk/copies.mk - copies of the library side by side in one process
# (issue 27, item 4), part of `make test`:
#
#   make test-two-copies   capi/ctest/two_copies_test.c: a host with its own
#                          libfscache in the global scope dlopens two more
#                          copies (the same soname at another path, and a
#                          soname rewritten to libfscache.so.1), each with its
#                          own Go runtime and scan cache, and calls all three
#                          at once; every call must stay in its own copy
#
# What makes that hold is that a copy exports nothing but include/fscache.h's
# functions (the version script of the top Makefile; make check-exports), so
# no copy's internal symbols can bind to another's. test-sanitize runs the
# same program under ASan and UBSan (build/mk/sanitize.mk).

TWO_COPIES := build/out/fscache_two_copies

TEST_EXTRA += test-two-copies

.PHONY: test-two-copies

$(TWO_COPIES): capi/ctest/two_copies_test.c capi/ctest/check.h capi/ctest/dlsym.h include/fscache.h
	@mkdir -p $(@D)
	$(CC) -std=c11 -O2 -Wall -Wextra -Werror -Iinclude -o $@ $< -ldl -lpthread

test-two-copies: $(TWO_COPIES) $(LIB) ## three copies of the library (two sonames) loaded and called at once in one process
	./$(TWO_COPIES) $(abspath $(LIB))
