"""Install the basel package with the libbasel it binds to.

The package is pure Python (ctypes, basel/_lib.py); building it copies the
shared library the C build made (../build/libbasel.so.0, or $BASEL_LIBRARY)
into the package, so an installed basel does not depend on the source tree.
Build the library first (tools/build.sh); tools/python.sh does both.
"""
import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))


class build_py_with_library(build_py):
    def run(self):
        super().run()
        lib = os.environ.get("BASEL_LIBRARY") or os.path.join(HERE, os.pardir, "build", "libbasel.so.0")
        if not os.path.exists(lib):
            raise SystemExit("basel: %s is missing: build libbasel first (tools/build.sh), or set BASEL_LIBRARY"
                             % lib)
        dest = os.path.join(self.build_lib, "basel", "libbasel.so.0")
        shutil.copyfile(os.path.realpath(lib), dest)


setup(cmdclass={"build_py": build_py_with_library})
