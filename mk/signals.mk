# mk/signals.mk - the host's signal handlers are left alone (issue 16; the
# argument is in capi/signals.c).

# The library is built from C files too (the exported wrappers and the
# signal code); the top Makefile's GO_SRC lists only Go files.
CAPI_C_SRC := $(wildcard capi/*.c capi/*.h) include/fscache.h
$(LIB) $(ARM64_LIB) $(WIN_DLL): $(CAPI_C_SRC)
