"""The ctypes layer: its prototypes against include/basel.h, errors with
their places, tables read in place, fits as text and pickles."""
import os
import pickle
import re

import numpy as np
import pytest

import basel
from basel import _lib
from conftest import ROOT


def header():
    with open(os.path.join(ROOT, "include", "basel.h")) as f:
        return f.read()


def test_every_prototype_is_in_the_header():
    h = re.sub(r"\s+", " ", header())
    for name in _lib._PROTOTYPES:
        assert re.search(r"BASEL_API [^;]*\b%s\(" % name, h), name


def test_error_record_matches_the_header():
    h = re.sub(r"\s+", " ", header())
    assert "typedef struct basel_error { int code; char file[256]; size_t line; size_t column; char message[512]; }" in h
    assert [f[0] for f in _lib._Error._fields_] == ["code", "file", "line", "column", "message"]


def test_version_matches_the_package():
    assert basel.version() == basel.__version__
    m = re.search(r'#define BASEL_VERSION_STRING "([^"]+)"', header())
    assert m and m.group(1) == basel.__version__


def test_version_matches_the_command_line():
    import subprocess
    from conftest import need_cli
    out = subprocess.run([need_cli(), "--version"], capture_output=True, text=True, check=True).stdout
    assert out.split()[:2] == ["basel", basel.__version__]


def test_blas_is_optimised():
    """libbasel's cblas_* bind to an optimised BLAS inside Python too (not
    GSL's or netlib's reference CBLAS, ../shared/audits/arch.md F6)."""
    assert basel.blas().startswith("optimised: "), basel.blas()


def test_installed_package_uses_its_own_library():
    """A wheel carries its own libbasel, compiled from the C sources."""
    from conftest import INSTALLED
    if not INSTALLED:
        pytest.skip("in-place run: the library is the checkout's build/libbasel.so.0")
    path = _lib.library().path
    assert os.path.dirname(path) == os.path.dirname(os.path.abspath(basel.__file__)), path
    assert os.path.basename(path).startswith("_libbasel"), path


def test_bad_json_names_line_and_column():
    with pytest.raises(basel.BaselError) as e:
        basel.Fit.from_json('{\n "a": [1,\n', name="doc.json")
    err = e.value
    assert isinstance(err, ValueError)
    assert err.status == "BASEL_EPARSE" and err.file == "doc.json" and err.line >= 2
    assert str(err).startswith("doc.json:%d:" % err.line)


def test_missing_file_is_an_error_not_a_crash(tmp_path):
    with pytest.raises(basel.BaselError) as e:
        basel.read_json(tmp_path / "nope.json")
    assert e.value.status == "BASEL_EIO" and "nope.json" in str(e.value)


def test_unknown_option_lists_what_is_accepted():
    with pytest.raises(basel.BaselError) as e:
        basel.Options({"no-such-option": 1})
    assert "no-such-option" in str(e.value)


def test_names_must_be_distinct():
    with pytest.raises(basel.BaselError, match="twice"):
        basel.Data(np.zeros((3, 2)), ["a", "a"])


def test_strided_views_are_read_in_place(monkeypatch):
    """F-order, C-order and sliced float64 arrays reach the library without
    a copy (np.ascontiguousarray would be the copy) and give the same table."""
    rng = np.random.default_rng(5)
    base = rng.normal(size=(40, 6))
    views = [np.asfortranarray(base[:, :3]), base[:, :3], base[:, ::2], base[::2, :3]]
    with monkeypatch.context() as m:
        m.setattr(np, "ascontiguousarray", lambda *a, **k: (_ for _ in ()).throw(AssertionError("copied")))
        tables = [basel.Data(v, None) for v in views]
    lib = _lib.library()
    for v, t in zip(views, tables):
        got = [[lib.basel_data_value(t.ptr, i, j) for j in range(3)] for i in range(v.shape[0])]
        np.testing.assert_array_equal(np.array(got), v)


def _small_fit():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(60, 4))
    y = 1.5 * X[:, 1] + rng.normal(scale=0.5, size=60)
    d = basel.Data(X, None)
    d.add_column("y", y)
    return basel.Fit.run(d, basel.Options({"method": "enumerate", "seed": 4})), X


def test_fit_round_trips_as_text_and_pickle():
    fit, X = _small_fit()
    text = fit.to_json()
    back = pickle.loads(pickle.dumps(fit))
    assert back.to_json() == text
    assert fit.method == "enumerate" and fit.inputs == ["x1", "x2", "x3", "x4"]
    a = fit.predict(basel.Data(X, fit.inputs)).intervals()
    b = back.predict(basel.Data(X, fit.inputs)).intervals()
    np.testing.assert_array_equal(a[0], b[0])
    assert "x2" in fit.summary()


def test_predict_refuses_a_table_without_the_inputs():
    fit, X = _small_fit()
    with pytest.raises(basel.BaselError, match="x4"):
        fit.predict(basel.Data(X[:, :3], ["x1", "x2", "x3"]))


def test_a_missing_input_gives_nan_in_its_row_only():
    rng = np.random.default_rng(3)
    x = rng.normal(size=(30, 3))
    y = 1 + 2 * x[:, 0] - x[:, 2] + 0.1 * rng.normal(size=30)
    fit = basel.Fit.run(_lib.Data(np.column_stack([x, y]), ["a", "b", "c", "y"]),
                        _lib.Options({"method": "enumerate", "seed": "1"}))
    gaps = x.copy()
    gaps[[4, 11], [1, 2]] = np.nan
    full = fit.predict(_lib.Data(x, ["a", "b", "c"])).intervals()
    part = fit.predict(_lib.Data(gaps, ["a", "b", "c"])).intervals()
    keep = np.setdiff1d(np.arange(30), [4, 11])
    for f, p in zip(full, part):
        assert np.isnan(p[[4, 11]]).all()
        np.testing.assert_array_equal(p[keep], f[keep])


def test_estimators_predict_nan_for_missing_inputs():
    from basel import BayesianSelectionRegressor
    rng = np.random.default_rng(4)
    x = rng.normal(size=(40, 3))
    y = x[:, 0] + 0.1 * rng.normal(size=40)
    reg = BayesianSelectionRegressor(method="enumerate", random_state=1).fit(x, y)
    x[2, 1] = np.nan
    mean, std = reg.predict(x, return_std=True)
    assert np.isnan(mean[2]) and np.isnan(std[2]) and np.isfinite(np.delete(mean, 2)).all()


def test_a_text_column_is_one_grouped_input_and_predicts_by_level():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(60, 2))
    grade = np.array(["a", "b", "c"])[np.arange(60) % 3]
    y = X[:, 0] + 1.0 * (grade == "b") + rng.normal(scale=0.5, size=60)
    d = basel.Data(X, ["x1", "x2"])
    d.add_text("grade", list(grade))
    d.add_column("y", y)
    fit = basel.Fit.run(d, basel.Options({"method": "enumerate", "seed": 4}))
    doc = fit.document
    assert [a["name"] for a in doc["atoms"]] == ["x1", "x2", "grade"]
    assert doc["factors"][0]["columns"] == ["grade:b", "grade:c"] and doc["factors"][0]["reference"] == "a"
    new = basel.Data(X[:3], ["x1", "x2"])
    new.add_text("grade", ["c", "a", "b"])
    mean = fit.predict(new).intervals()[0]
    assert mean.shape[0] == 3 and np.all(np.isfinite(mean))
    bad = basel.Data(X[:1], ["x1", "x2"])
    bad.add_text("grade", ["z"])
    with pytest.raises(basel.BaselError, match="level 'z'"):
        fit.predict(bad)


# --- the low-level API takes arrays and dicts as the docs write it (a
# walkthrough found Fit.predict(DataFrame) raising AttributeError 'ptr')

def _lin15():
    import pandas as pd
    return pd.read_csv(os.path.join(ROOT, "data", "linear", "lin_p15_n200.csv"))


def test_data_names_default_to_a_dataframes_columns_or_x1_xp():
    df = _lin15()
    assert basel.Data(df).p == df.shape[1]
    with pytest.raises(ValueError, match="2 names for 16 columns"):
        basel.Data(df.to_numpy(), ["a", "b"])


def test_fit_run_and_predict_take_a_dataframe_a_dict_and_an_array():
    df = _lin15()
    fit = basel.Fit.run(df, {"method": "enumerate", "target": "y"})
    assert fit.method == "enumerate"
    X = df.drop(columns="y")
    from_frame = fit.predict(X.iloc[:5]).intervals()
    from_array = fit.predict(X.to_numpy()[:5]).intervals()  # columns in the fit's input order
    from_data = fit.predict(basel.Data(X.iloc[:5])).intervals()
    for a, b, c in zip(from_frame, from_array, from_data):
        assert np.array_equal(a, b) and np.array_equal(a, c)
    with pytest.raises(ValueError, match="names for"):
        fit.predict(X.to_numpy()[:5, :3])
    with pytest.raises(ValueError, match="hpm.*median.*prevalence.*projection"):
        fit.selected("best")


def test_standardize_takes_true_and_false():
    df = _lin15()
    on = basel.Fit.run(df, {"method": "enumerate", "target": "y", "standardize": True})
    assert on.document["settings"]["standardize"] == "yes"
    off = basel.Fit.run(df, {"method": "enumerate", "target": "y", "standardize": np.bool_(False)})
    assert off.document["settings"]["standardize"] == "no"


def test_a_logical_is_not_a_count():
    # True is a switch's 1 (keep-draws), never a count's: chains=True is refused
    df = _lin15()
    fit = basel.Fit.run(df, {"method": "rj", "target": "y", "iter": 200, "keep-draws": True, "seed": 1})
    assert fit.draws() is not None
    with pytest.raises(basel.BaselError, match="chains.*'true' is not a number"):
        basel.Fit.run(df, {"method": "rj", "target": "y", "chains": True})


def test_coef_table_is_the_command_lines_table():
    import subprocess
    import pandas as pd
    from conftest import need_cli
    df = _lin15()
    fit = basel.Fit.run(df, {"method": "enumerate", "target": "y"})
    t = fit.coef_table()
    assert list(t.columns) == ["term", "target", "pip", "mean", "sd", "cond_mean", "cond_sd", "lower", "upper"]
    assert t.attrs["level"] == 0.95 and t["term"].iloc[0] == "(Intercept)" and len(t) == 16
    cli = need_cli()
    path = os.path.join(os.environ.get("TMPDIR", "/tmp"), "basel_coef_table_%d.json" % os.getpid())
    fit.write_json(path)
    out = subprocess.run([cli, "coef", path], capture_output=True, text=True, check=True).stdout
    os.remove(path)
    import io
    want = pd.read_csv(io.StringIO(out), float_precision="round_trip")  # the CSV reads back exactly
    assert list(want["term"]) == list(t["term"])
    for c in ("pip", "mean", "sd", "lower", "upper"):
        assert np.allclose(want[c].to_numpy(), t[c].to_numpy(), rtol=1e-15, atol=0, equal_nan=True), c


def test_import_basel_leaves_scikit_learn_and_matplotlib_for_their_first_use():
    import subprocess
    import sys
    from conftest import HERE, INSTALLED
    env = dict(os.environ)
    if not INSTALLED:
        env["PYTHONPATH"] = os.path.dirname(HERE) + os.pathsep + env.get("PYTHONPATH", "")
    code = ("import sys, basel; basel.Fit; assert 'sklearn' not in sys.modules and 'matplotlib' not in sys.modules; "
            "basel.BayesianSelectionRegressor; assert 'sklearn' in sys.modules; print('ok')")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr
