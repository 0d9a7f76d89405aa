"""Cancelling a fit: from the progress callback, by an exception in it, and
by Ctrl-C (SIGINT to a process in the middle of a long fit); each leaves
the estimator unfitted and the interpreter working."""
import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import basel
from conftest import HERE


def data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(100, 10))
    return X, X[:, 0] + rng.normal(size=100)


def test_a_true_progress_result_cancels():
    seen = []

    def progress(f):
        seen.append(f)
        return f > 0.1

    reg = basel.BayesianSelectionRegressor(n_iter=200000, chains=2, random_state=1)
    with pytest.raises(KeyboardInterrupt):
        reg.fit(*data(), progress=progress)
    assert 0.1 < max(seen) < 0.5 and not hasattr(reg, "basel_fit_")
    reg.set_params(n_iter=500).fit(*data())  # and the next fit works
    assert hasattr(reg, "pip_")


def test_a_cancelled_refit_leaves_the_estimator_unfitted():
    from sklearn.exceptions import NotFittedError
    reg = basel.BayesianSelectionRegressor(n_iter=500, chains=2, random_state=1).fit(*data())
    assert hasattr(reg, "pip_")
    reg.set_params(n_iter=200000)
    with pytest.raises(KeyboardInterrupt):
        reg.fit(*data(), progress=lambda f: f > 0.1)
    assert not hasattr(reg, "pip_") and not hasattr(reg, "basel_fit_")  # not the previous fit's
    with pytest.raises(NotFittedError):
        reg.predict(data()[0])


def test_an_exception_in_the_callback_cancels_and_propagates():
    def progress(f):
        if f > 0.05:
            raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        basel.BayesianSelectionClassifier(n_iter=100000, burn=10, chains=1).fit(
            data()[0], np.arange(100) % 2, progress=progress)


def test_ctrl_c_cancels_a_fit_cleanly():
    script = textwrap.dedent("""
        import signal, sys, time
        signal.signal(signal.SIGINT, signal.default_int_handler)  # a background shell may have ignored it
        import numpy as np, basel
        rng = np.random.default_rng(0); X = rng.normal(size=(300, 30)); y = X[:, 0] + rng.normal(size=300)
        reg = basel.BayesianSelectionRegressor(n_iter=10**8, chains=2, random_state=1)
        started = []
        def progress(f):
            if not started:
                started.append(1); print("started", flush=True)
        try:
            reg.fit(X, y, progress=progress)
            print("finished")
        except KeyboardInterrupt:
            print("cancelled", hasattr(reg, "basel_fit_"), signal.getsignal(signal.SIGINT) is signal.default_int_handler)
        print(basel.BayesianSelectionRegressor(method="enumerate").fit(X[:, :5], y).pip_[0] > 0.99)
    """)
    env = dict(os.environ, PYTHONPATH=os.path.dirname(HERE))
    p = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=env)
    assert p.stdout.readline().strip() == "started"
    time.sleep(0.5)
    t = time.time()
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 0, err
    assert out.split("\n")[:2] == ["cancelled False True", "True"], (out, err)
    assert time.time() - t < 20
