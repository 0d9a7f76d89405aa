#!/bin/bash
# test_blas.sh: the library's cblas_* calls bind to an optimised BLAS, in the
# command line and in libbasel.so loaded by another program (Python's ctypes,
# as the Python package does), never to GSL's or netlib's reference CBLAS
# (src/core/blas_info.c: read off the loader with dladdr). A reference BLAS
# computes a 1000 x 5000 Gram 26x slower (../shared/audits/arch.md F6).
# The R package's shared object is checked by r/tests/testthat/test-blas.R.
source tests/cli/lib.sh "$1"
LIB=$(dirname "$BASEL")/libbasel.so.0

expect 0 "^BLAS optimised: " -- "$BASEL" --version
# OpenBLAS on one thread unless the user says otherwise: its own workers
# would spin beside the chains (src/cli/main.c, one_blas_thread)
if "$BASEL" --version | grep -q "^BLAS threads:"; then
    expect 0 "^BLAS threads: 1$" -- env -u OPENBLAS_NUM_THREADS -u OMP_NUM_THREADS "$BASEL" --version
    # the user's number is kept (OpenBLAS caps it at the cores)
    [ "$(nproc)" -ge 2 ] && expect 0 "^BLAS threads: 2$" -- env OPENBLAS_NUM_THREADS=2 "$BASEL" --version
fi
# An AddressSanitizer build's library cannot be loaded into another program
# nor behind an LD_PRELOAD (the ASan runtime must come first): the release
# build's run of this test covers those two cases
if ldd "$BASEL" | grep -q libasan; then
    echo "test_blas.sh: an ASan build: the ctypes and LD_PRELOAD checks are the release build's"
    finish
    exit $?
fi
expect 0 "^optimised: " -- /usr/bin/python3 -c "
import ctypes
lib = ctypes.CDLL('$LIB')
lib.basel_blas.restype = ctypes.c_char_p
print(lib.basel_blas().decode())"
# the check can fail: GSL's reference CBLAS preloaded ahead of everything
# binds cblas_dsyrk first, and basel says so
GSLCBLAS=$(ls /usr/lib/*/libgslcblas.so.0 /usr/lib/libgslcblas.so.0 2>/dev/null | head -1)
if [ -n "$GSLCBLAS" ]; then
    expect 0 "^BLAS reference: .*gslcblas" -- env LD_PRELOAD="$GSLCBLAS" "$BASEL" --version
fi
finish
