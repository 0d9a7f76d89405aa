"""The install command works on Debian's python3 without PyPI: a virtual
environment with the system's packages, pip install of python/ (what
tools/python.sh does), then basel imported from elsewhere uses its own copy
of libbasel."""
import subprocess
import sys

from conftest import ROOT


def test_pip_install_into_a_venv(tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    r = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "--no-index", "--no-build-isolation",
                        "--no-deps", ROOT + "/python"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    code = ("import basel, basel._lib as L, numpy as np; L.library(); print(L.library().path); "
            "X = np.random.default_rng(0).normal(size=(50, 3)); "
            "print(basel.BayesianSelectionRegressor(method='enumerate').fit(X, X[:, 1]).pip_[1])")
    r = subprocess.run([str(venv / "bin" / "python"), "-c", code], capture_output=True, text=True, cwd=tmp_path,
                       env={"PATH": "/usr/bin:/bin"})
    assert r.returncode == 0, r.stderr
    path, pip = r.stdout.split()
    assert path.startswith(str(venv)) and float(pip) > 0.99
    assert (venv / "bin" / "basel-plot").exists()
