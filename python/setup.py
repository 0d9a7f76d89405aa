"""Build the basel package with its own libbasel, compiled from the C sources.

The package binds to libbasel through ctypes (basel/_lib.py says why). The
library is compiled here, by setuptools, from the C sources: csrc/ and
include/ are links to the repository's src/ and include/ in a checkout, and
real folders in the sdist (MANIFEST.in), so that

    python3 -m pip wheel --no-deps --no-build-isolation ./python     # a wheel
    python3 setup.py sdist   (or python3 -m build --sdist)            # an sdist
    python3 -m pip install basel-0.1.0.tar.gz --no-index --no-build-isolation

all work offline with Debian's packages, and neither needs build/ or CMake.
The extension module basel._libbasel is a plain shared library (it has no
PyInit: Python never imports it, ctypes loads it), linked like the CMake
build: GSL without its reference CBLAS, so cblas_* bind to the system's
optimised BLAS (OpenBLAS), LAPACKE, jansson and OpenMP (Debian:
libgsl-dev libjansson-dev zlib1g-dev liblapacke-dev libopenblas-dev).
"""
import os
import re

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
CSRC = os.path.join("csrc")


def library_sources():
    """Every .c of the library: all of csrc/ but the command line (csrc/cli)."""
    out = []
    for d, dirs, files in os.walk(os.path.join(HERE, CSRC)):
        dirs[:] = sorted(x for x in dirs if x != "cli")
        out += [os.path.relpath(os.path.join(d, f), HERE) for f in sorted(files) if f.endswith(".c")]
    if not out:
        raise SystemExit("basel: no C sources under %s: build from the repository's python/ (csrc links to "
                         "../src) or from the sdist" % os.path.join(HERE, CSRC))
    return out


def header_version():
    with open(os.path.join(HERE, "include", "basel.h")) as f:
        return re.search(r'#define BASEL_VERSION_STRING "([^"]+)"', f.read()).group(1)


class build_plain_library(build_ext):
    """A shared library, not a Python module: no PyInit to export, and the
    missing system packages named before the compiler fails on a header."""

    def get_export_symbols(self, ext):
        return []

    def run(self):
        missing = [h for h, pkg in (("gsl/gsl_rng.h", "libgsl-dev"), ("jansson.h", "libjansson-dev"), ("zlib.h", "zlib1g-dev"),
                                    ("lapacke.h", "liblapacke-dev"), ("cblas.h", "libopenblas-dev"))
                   if not any(os.path.exists(os.path.join(d, h))
                              for d in ("/usr/include", "/usr/include/x86_64-linux-gnu",
                                        "/usr/include/aarch64-linux-gnu", "/usr/local/include"))]
        if missing:
            raise SystemExit("basel: the C library needs %s (Debian: apt-get install -y %s)"
                             % (", ".join(h for h, _ in missing), " ".join(p for _, p in missing)))
        super().run()


libbasel = Extension(
    "basel._libbasel",
    sources=library_sources(),
    include_dirs=["include", CSRC],
    define_macros=[("BASEL_BUILDING", None), ("_XOPEN_SOURCE", "700"), ("NDEBUG", None)],
    extra_compile_args=["-std=c11", "-O2", "-fopenmp", "-fvisibility=hidden"],
    # the order matters: OpenBLAS before anything that could bring a reference CBLAS
    libraries=["gsl", "jansson", "z", "lapacke", "openblas", "m"],
    extra_link_args=["-fopenmp"],
)

setup(version=header_version(), ext_modules=[libbasel], cmdclass={"build_ext": build_plain_library})
