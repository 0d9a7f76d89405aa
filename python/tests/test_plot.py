"""basel.plot's figures (drawn, not looked at: docs/img holds the looked-at
ones) and `basel plot` from the command line."""
import os
import subprocess
import sys

import matplotlib.pyplot as plt
import numpy as np
import pytest

import basel
import basel.plot as bp
from conftest import CLI as BASEL
from conftest import HERE, ROOT, need_cli


@pytest.fixture(scope="module")
def linear():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(100, 6))
    y = X[:, 0] - 2 * X[:, 4] + rng.normal(size=100)
    return basel.BayesianSelectionRegressor(random_state=2, keep_draws=True, n_iter=500, chains=3).fit(X, y)


@pytest.fixture(scope="module")
def kernel():
    rng = np.random.default_rng(4)
    x = np.sort(rng.uniform(-8, 8, 100))
    y = np.sinc(x / np.pi) + rng.normal(scale=0.1, size=100)
    reg = basel.BayesianSelectionRegressor(basis="gauss:r=1.6", prior="ridge", n_iter=300, random_state=5)
    return reg.fit(x[:, None], y), x, y


def test_each_panel(linear, kernel):
    reg, x, y = kernel
    for ax in (bp.pip(linear), bp.model_size(linear), bp.model_space(linear), bp.trace(linear),
               bp.fit1d(reg, x, y), bp.pip(reg.basel_fit_, top=10)):
        assert ax.has_data() or ax.images
        plt.close(ax.figure)
    fig = bp.overview(linear)
    assert len([a for a in fig.axes if a.get_visible()]) >= 4  # pip, size, models, trace (+ colorbar)
    plt.close(fig)


def test_panels_refuse_what_the_fit_lacks():
    rng = np.random.default_rng(1)
    x = rng.uniform(-5, 5, 60)
    reg = basel.BayesianSelectionRegressor(method="anneal", n_iter=300, burn=50, chains=1, random_state=1)
    reg.fit(x[:, None], np.sin(x))
    with pytest.raises(ValueError, match="no PIPs"):
        bp.pip(reg)
    with pytest.raises(ValueError, match="no draws"):
        bp.trace(None)
    plt.close(bp.fit1d(reg, x, np.sin(x)).figure)


def env():
    return dict(os.environ, PYTHONPATH=os.path.dirname(HERE), BASEL_PYTHON=sys.executable)


def test_basel_plot_from_the_command_line(linear, tmp_path):
    need_cli()
    fit = tmp_path / "fit.json"
    linear.write_json(fit)
    for kind in ("overview", "pip", "size", "models"):
        out = tmp_path / ("%s.png" % kind)
        r = subprocess.run([BASEL, "plot", str(fit), "-o", str(out), "--kind", kind], env=env(),
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        assert out.read_bytes()[:4] == b"\x89PNG"
    r = subprocess.run([BASEL, "plot", str(fit), "-o", str(tmp_path / "t.png"), "--kind", "trace"], env=env(),
                       capture_output=True, text=True)
    assert r.returncode == 2 and "draws" in r.stderr
    (tmp_path / "bad.json").write_text('{"format_version": 2,')
    r = subprocess.run([BASEL, "plot", str(tmp_path / "bad.json"), "-o", str(tmp_path / "b.png")], env=env(),
                       capture_output=True, text=True)
    assert r.returncode == 2 and "bad.json:1:" in r.stderr


def test_basel_plot_without_the_package_says_how_to_install(tmp_path):
    need_cli()
    r = subprocess.run([BASEL, "plot", "fit.json", "-o", "x.png"], capture_output=True, text=True,
                       env=dict(os.environ, BASEL_PYTHON=sys.executable, PYTHONPATH="", PYTHONNOUSERSITE="1"),
                       cwd=tmp_path)
    assert r.returncode == 1 and "tools/python.sh" in r.stderr, r.stderr


def test_centres_come_from_the_library(linear, kernel):
    """basel_fit_centres: a kernel fit's atoms sit at its training inputs
    (in the inputs' units, not the standardised ones the engine keeps), a
    linear fit has none, and anneal's are its one network's k kernels."""
    reg, x, y = kernel
    c = reg.basel_fit_.centres()
    assert c.shape == (len(reg.basel_fit_.pip()), 1)
    np.testing.assert_allclose(np.sort(c[:, 0]), np.sort(x), rtol=0, atol=1e-12 * np.abs(x).max())
    assert linear.basel_fit_.centres() is None
    rng = np.random.default_rng(1)
    xa = rng.uniform(-5, 5, 60)
    ann = basel.BayesianSelectionRegressor(method="anneal", n_iter=300, burn=50, chains=1, random_state=1)
    ann.fit(xa[:, None], np.sin(xa))
    ca = ann.basel_fit_.centres()
    assert ca.shape == (ann.basel_fit_.document["k"], 1)
    np.testing.assert_allclose(ca[:, 0], ann.basel_fit_.document["centres"], rtol=0, atol=1e-9 * np.abs(xa).max())
    smc = basel.BayesianSelectionRegressor(method="smc", basis="gauss:r=1.6", random_state=3).fit(x[:, None], y)
    cs = smc.basel_fit_.centres()  # smc's atoms are the points it has seen
    np.testing.assert_allclose(np.sort(cs[:, 0]), np.sort(x), rtol=0, atol=1e-12 * np.abs(x).max())


def test_trace_takes_a_fit_and_says_when_there_are_no_draws():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(60, 4))
    y = X[:, 0] + rng.normal(size=60)
    reg = basel.BayesianSelectionRegressor(n_iter=300, chains=2, random_state=1, keep_draws=True).fit(X, y)
    assert bp.trace(reg.basel_fit_) is not None and bp.trace(reg) is not None
    plt.close("all")
    bare = basel.BayesianSelectionRegressor(n_iter=300, chains=2, random_state=1).fit(X, y)
    for what in (bare, bare.basel_fit_, bare.document_):
        with pytest.raises(ValueError, match="no draws: fit with keep_draws=True"):
            bp.trace(what)
