/* blas_info.c: which BLAS the library's cblas_* calls bind to at run time.
 *
 * Why: the symbol cblas_dsyrk is resolved by the dynamic loader, not by the
 * build: the first library in the process that defines it wins. Linking GSL's
 * reference CBLAS (libgslcblas) ahead of OpenBLAS made a 1000 x 5000 Gram
 * 26x slower (20.3 against 0.77 CPU-s, ../shared/audits/arch.md F6) and gave
 * the command line other bits than the Python package. Inside R or Python the
 * host's own libblas.so.3 can win as well. So the answer is read off the
 * running process (dladdr of the symbol the library itself calls), not
 * assumed, and tests fail when it names a reference implementation. */
#define _GNU_SOURCE /* dladdr, RTLD_NOLOAD */
#include "core.h"

#include <cblas.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_reference(const char *path)
{
    /* GSL's CBLAS, and Debian's netlib reference (libblas3 installs
     * .../blas/libblas.so.3 and .../blas/libcblas.so.3). */
    return strstr(path, "gslcblas") || strstr(path, "/blas/libblas.so") || strstr(path, "/blas/libcblas.so") ||
           strstr(path, "libblas.so.3.") /* netlib's versioned file name */;
}

const char *basel_blas(void)
{
    static char text[640];
    if (text[0]) return text;
    Dl_info info;
    memset(&info, 0, sizeof info);
    const char *path = "";
    char *real = NULL;
    if (dladdr((void *)&cblas_dsyrk, &info) && info.dli_fname) {
        real = realpath(info.dli_fname, NULL);
        path = real ? real : info.dli_fname;
    }
    const char *kind = "unknown";
    char config[256] = "";
    void *h = path[0] ? dlopen(path, RTLD_LAZY | RTLD_NOLOAD) : NULL;
    if (h) {
        char *(*get)(void) = (char *(*)(void))dlsym(h, "openblas_get_config");
        if (get) {
            snprintf(config, sizeof config, "%s", get());
            kind = "optimised";
        } else if (dlsym(h, "mkl_get_version") || dlsym(h, "bli_info_get_version_str")) {
            kind = "optimised";
        }
        dlclose(h);
    }
    if (is_reference(path)) kind = "reference";
    snprintf(text, sizeof text, "%s: %s%s%s", kind, config[0] ? config : "", config[0] ? " " : "",
             path[0] ? path : "(cblas_dsyrk not found by dladdr)");
    free(real);
    return text;
}
