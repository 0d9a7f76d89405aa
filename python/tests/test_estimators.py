"""The estimators: scikit-learn's own checks, pipelines and grid search,
column names, coefficients, intervals, every regression method, draws,
errors, pickling."""
import json
import os
import pickle
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils.estimator_checks import check_estimator

import basel
import basel.plot
from basel import BayesianSelectionClassifier, BayesianSelectionRegressor

# check_estimator fits each estimator some 60 times: short runs (the
# defaults, 10000 iterations x 4 chains, take 10 s for the regressor and
# about 3 minutes for the classifier)
FAST_REG = dict(n_iter=1000, chains=2)
FAST_CLF = dict(n_iter=1000, burn=200, chains=2)


def linear_data(n=120, p=8, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    y = 2.0 * X[:, 0] - 1.0 * X[:, 3] + 3.0 + rng.normal(scale=0.5, size=n)
    return X, y


def blobs(n=90, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, size=n)
    X = rng.normal(size=(n, 4))
    X[:, 0] += 3 * y  # only the first input tells the classes apart
    return X, np.array(["a", "b", "c"])[y]


@pytest.mark.parametrize("est", [BayesianSelectionRegressor(**FAST_REG), BayesianSelectionClassifier(**FAST_CLF)],
                         ids=["regressor", "classifier"])
def test_check_estimator(est):
    check_estimator(est)


def test_pipeline_and_grid_search():
    X, y = linear_data()
    pipe = make_pipeline(StandardScaler(), BayesianSelectionRegressor(random_state=1, **FAST_REG))
    grid = GridSearchCV(pipe, {"bayesianselectionregressor__method": ["bd", "enumerate"],
                               "bayesianselectionregressor__prior": ["g", "bic"]}, cv=3)
    grid.fit(X, y)
    assert grid.best_score_ > 0.9 and np.all(np.isfinite(grid.cv_results_["mean_test_score"]))
    assert set(grid.cv_results_["param_bayesianselectionregressor__prior"]) == {"g", "bic"}
    Xc, yc = blobs()
    clf = GridSearchCV(BayesianSelectionClassifier(random_state=2, **FAST_CLF), {"kernels": [2, 3]}, cv=2)
    assert clf.fit(Xc, yc).best_score_ > 0.8


def test_pipeline_keeps_names_with_pandas_output():
    # a StandardScaler gives a bare array unless set_output asks for pandas
    X, y = linear_data()
    X = pd.DataFrame(X, columns=["in%d" % j for j in range(X.shape[1])])
    bare = make_pipeline(StandardScaler(), BayesianSelectionRegressor(method="enumerate", random_state=1)).fit(X, y)
    assert bare[-1].atom_names_[0] == "x1"
    pipe = make_pipeline(StandardScaler(), BayesianSelectionRegressor(method="enumerate", random_state=1))
    pipe.set_output(transform="pandas").fit(X, y)
    assert list(pipe[-1].feature_names_in_) == list(X.columns) and pipe[-1].atom_names_ == list(X.columns)
    assert pipe[-1].selected_names("median") == ["in0", "in3"]
    mean, std = pipe.predict(X[:4], return_std=True)  # predict's keywords reach the regressor
    np.testing.assert_array_equal(mean, bare.predict(X[:4]))
    assert np.all(std > 0.4) and np.all(std < 0.8)  # noise sd 0.5


def test_dataframe_names_are_kept_and_atoms_are_named():
    X, y = linear_data()
    df = pd.DataFrame(X, columns=["age", "sex", "bmi", "bp", "s1", "s2", "s3", "y"])  # an input called y
    reg = BayesianSelectionRegressor(method="enumerate", random_state=3).fit(df, y)
    assert list(reg.feature_names_in_) == list(df.columns) and reg.n_features_in_ == 8
    assert reg.atom_names_ == list(df.columns) and reg.target_names_ == ["y_1"]
    assert reg.document_["inputs"] == list(df.columns)
    assert reg.selected_names("median") == ["age", "bp"]
    np.testing.assert_array_equal(reg.feature_importances_, reg.pip_)
    assert abs(reg.model_size_.sum() - 1) < 1e-9
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # fitted with names, predicting without
        np.testing.assert_allclose(reg.predict(df), reg.predict(X))


def test_coefficients_are_the_model_average_on_the_inputs_scale():
    X, y = linear_data()
    X = X * np.array([1, 10, 0.1, 5, 1, 1, 2, 3]) + 7  # units and offsets
    for standardize in ("no", "yes"):
        reg = BayesianSelectionRegressor(method="enumerate", standardize=standardize, random_state=1).fit(X, y)
        base = reg.predict(np.zeros((1, 8)))
        slopes = reg.predict(np.eye(8)) - base
        np.testing.assert_allclose(reg.coef_, slopes, atol=1e-8)
        np.testing.assert_allclose(reg.intercept_, base[0], rtol=1e-10)
        assert reg.coef_source_ in ("coefficients", "engine.predictor.bma")
        assert abs(reg.coef_[0] - 2) < 0.2 and abs(reg.coef_[3] * 5 + 1) < 0.2


def g_prior_t(X, y, atoms, g, x):
    """Model atoms' Student-t predictive at the rows x under Zellner's
    g-prior with a flat intercept and p(sigma^2) ~ 1/sigma^2, from first
    principles: beta | sigma^2 ~ N(s bhat, s sigma^2 (Xc'Xc)^-1), s = g/(1+g),
    sigma^2 ~ IG((n-1)/2, Q/2), Q = yc'yc - s yc'Xc bhat; so y at x is t with
    n - 1 df, location ybar + s xc'bhat and scale^2 Q/(n-1) (1 + 1/n + s
    xc'(Xc'Xc)^-1 xc), and f(x) the same without the 1. Returns (location,
    scale^2 of a new y, scale^2 of f(x), df)."""
    n = len(y)
    shrink = g / (1 + g)
    yc = y - y.mean()
    loc, h, Q = np.full(len(x), y.mean()), np.zeros(len(x)), yc @ yc
    if atoms:
        Xc = X[:, atoms] - X[:, atoms].mean(axis=0)
        xc = x[:, atoms] - X[:, atoms].mean(axis=0)
        A = np.linalg.inv(Xc.T @ Xc)
        bhat = A @ Xc.T @ yc
        loc += shrink * xc @ bhat
        h = shrink * np.einsum("ij,jk,ik->i", xc, A, xc)
        Q -= shrink * yc @ Xc @ bhat
    s2 = Q / (n - 1)
    return loc, s2 * (1 + 1 / n + h), s2 * (1 / n + h), n - 1


def test_return_std_is_the_exact_sd_of_the_t_mixture():
    # weak effects, so that every one of the 16 models holds real weight
    rng = np.random.default_rng(1)
    n = 40
    X = rng.normal(size=(n, 4))
    y = 0.3 * X[:, 0] - 0.2 * X[:, 2] + 1.0 + rng.normal(size=n)
    x = rng.normal(size=(7, 4)) * 1.5
    reg = BayesianSelectionRegressor(method="enumerate", random_state=1).fit(X, y)
    assert reg.document_["engine"]["predictor"]["bma"]["posterior"]["prior"]["g"] == n  # g = n
    models = reg.basel_fit_.models()
    assert len(models) == 2 ** 4  # all of them, weights summing to 1
    w = np.array([m[1] for m in models])
    np.testing.assert_allclose(w.sum(), 1, rtol=1e-12)
    comps = [g_prior_t(X, y, m[0], n, x) for m in models]
    loc = np.array([c[0] for c in comps])
    tvar = lambda s2, df: s2 * df / (df - 2)  # a t's variance
    m = w @ loc
    sd_new = np.sqrt(w @ (np.array([tvar(c[1], c[3]) for c in comps]) + (loc - m) ** 2))
    sd_f = np.sqrt(w @ (np.array([tvar(c[2], c[3]) for c in comps]) + (loc - m) ** 2))
    mean, std = reg.predict(x, return_std=True)
    np.testing.assert_allclose(mean, m, rtol=1e-10)
    np.testing.assert_allclose(std, sd_new, rtol=1e-6)
    pred = reg.basel_fit_.predict(reg._data(x), None, 0.95, "sd")
    np.testing.assert_allclose(pred.sd("mean")[:, 0], sd_f, rtol=1e-6)
    # one model: its own t's sd, whatever the interval's kind
    hpm = reg.selected_["hpm"]
    loc1, v1, f1, df = g_prior_t(X, y, hpm, n, x)
    reg.set_params(model="hpm")
    mean1, std1 = reg.predict(x, return_std=True)
    np.testing.assert_allclose(mean1, loc1, rtol=1e-10)
    np.testing.assert_allclose(std1, np.sqrt(tvar(v1, df)), rtol=1e-6)
    np.testing.assert_allclose(reg.predict(x, return_std=True, return_interval=True, kind="mean")[1], std1,
                               rtol=1e-15)
    # return_interval: predict_interval's interval, of a new y or of f(x)
    reg.set_params(model=None)
    for kind in ("new", "mean"):
        m2, s2, lo, hi = reg.predict(x, return_std=True, return_interval=True, level=0.8, kind=kind)
        m3, lo3, hi3 = reg.predict_interval(x, level=0.8, kind=kind)
        np.testing.assert_array_equal(np.c_[m2, lo, hi], np.c_[m3, lo3, hi3])
        np.testing.assert_array_equal(s2, std)
    m4, lo4, hi4 = reg.predict(x, return_interval=True)
    np.testing.assert_array_equal(np.c_[m4, lo4, hi4], np.c_[reg.predict_interval(x)])
    assert np.all(lo4 < mean - std) and np.all(mean + std < hi4)
    with pytest.raises(ValueError, match="kind="):
        reg.predict(x, return_interval=True, kind="none")


def test_return_std_on_lin_p15_is_the_listed_models_mixture():
    # 2^15 subsets; the interval's (and sd's) mixture holds the 2452 most
    # probable, all but 1e-6 of the posterior (bma.posterior): from them, by
    # first principles, the same sd (the mean averages every model, so it
    # differs from theirs by about that 1e-6 of weight)
    root = os.path.join(os.path.dirname(__file__), "..", "..")
    d = pd.read_csv(os.path.join(root, "data", "linear", "lin_p15_n200.csv"))
    y = d.pop("y").to_numpy()
    X = d.to_numpy()
    reg = BayesianSelectionRegressor(method="enumerate", random_state=1).fit(d, y)
    post = reg.document_["engine"]["predictor"]["bma"]["posterior"]
    assert post["prior"]["g"] == len(y) and post["covered"] > 1 - 2e-6 and len(post["models"]) > 1000
    x = X[:5] * 1.3
    w = np.array(post["weights"]) / np.sum(post["weights"])
    comps = [g_prior_t(X, y, m, len(y), x) for m in post["models"]]
    loc = np.array([c[0] for c in comps])
    m = w @ loc
    var = np.array([c[1] * c[3] / (c[3] - 2) for c in comps])
    mean, std = reg.predict(pd.DataFrame(x, columns=d.columns), return_std=True)
    np.testing.assert_allclose(std, np.sqrt(w @ (var + (loc - m) ** 2)), rtol=1e-6)
    np.testing.assert_allclose(mean, m, atol=1e-5 * np.std(y))


def test_return_std_of_the_network_and_particle_methods():
    """The library's predictive sd for anneal, rbf and smc (basel_pred_sd):
    anneal's is its one network's Student-t sd, the 95% interval's
    half-width / t_0.975(dof) x sqrt(dof / (dof - 2)); for rbf's mixture of
    the kept networks' t's and smc's mixture of the particles' normals,
    var(new y) - var(f(x)) is the mixture's noise variance: the mean of
    scale2 dof / (dof - 2) over the networks, sum_i W_i sigma2_i over the
    particles (the spread of the means cancels)."""
    from scipy import stats
    X, y = linear_data(n=60, p=4)
    X = X[:, :1]  # smc takes one input
    ann = BayesianSelectionRegressor(method="anneal", n_iter=300, burn=100, chains=1, random_state=2).fit(X, y)
    mean, std = ann.predict(X[:5], return_std=True)
    m, lo, hi = ann.predict_interval(X[:5], level=0.95)
    np.testing.assert_array_equal(mean, m)
    dof = ann.basel_fit_.document["engine"]["networks"][0]["dof"]
    np.testing.assert_allclose(std, (hi - lo) / 2 / stats.t.ppf(0.975, dof) * np.sqrt(dof / (dof - 2)), rtol=1e-9)

    def noise_var(reg):
        pred = reg._predict(X[:5], 0.95, "sd")
        return pred.sd("new")[:, 0] ** 2 - pred.sd("mean")[:, 0] ** 2

    def scale2(doc):
        return doc["standardize"].get("target_scale", [1.0])[0] ** 2

    rbf = BayesianSelectionRegressor(method="rbf", n_iter=300, burn=100, chains=1, random_state=2).fit(X, y)
    doc = rbf.basel_fit_.document
    nets = doc["engine"]["networks"]
    want = np.mean([n["scale2"][0] * n["dof"] / (n["dof"] - 2) for n in nets]) * scale2(doc)
    np.testing.assert_allclose(noise_var(rbf), want, rtol=1e-9)
    smc = BayesianSelectionRegressor(method="smc", basis="gauss:r=1", random_state=2).fit(X, y)
    doc = smc.basel_fit_.document
    parts = doc["engine"]["particles"]
    lw = np.array([-np.inf if p["log_w"] == "-inf" else p["log_w"] for p in parts])
    W = np.exp(lw - lw.max())
    W /= W.sum()
    want = W @ np.array([p["sigma2"] for p in parts]) * scale2(doc)
    np.testing.assert_allclose(noise_var(smc), want, rtol=1e-9)
    # a prior that mixes over g: no sd, said so
    Xp, yp = linear_data(n=60, p=4)
    reg = BayesianSelectionRegressor(method="enumerate", prior="hyper-g", random_state=2).fit(Xp, yp)
    with pytest.raises(ValueError, match="no predictive sd"):
        reg.predict(Xp[:5], return_std=True)
    assert np.isfinite(reg.predict(Xp[:5])).all()


def test_interval_kinds_are_the_command_lines(tmp_path):
    """kind="mean" and kind="new" give what `basel predict --interval-kind`
    writes for the same fit: the interval of f(x) inside that of a new y,
    both around the same mean."""
    import subprocess
    from conftest import need_cli
    cli_path = need_cli()
    X, y = linear_data()
    reg = BayesianSelectionRegressor(method="enumerate", prior="g:g=120", random_state=5).fit(X, y)
    fit = tmp_path / "fit.json"
    reg.write_json(str(fit))
    pd.DataFrame(X[:6], columns=reg.input_names_).to_csv(tmp_path / "x.csv", index=False)
    for kind in ("mean", "new"):
        out = tmp_path / ("p_%s.csv" % kind)
        r = subprocess.run([cli_path, "predict", str(fit), str(tmp_path / "x.csv"),
                            "--interval-kind", kind, "-o", str(out)], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        cli = pd.read_csv(out)
        m, lo, hi = reg.predict_interval(X[:6], kind=kind)
        np.testing.assert_allclose(cli.iloc[:, 0], m, rtol=1e-12)
        np.testing.assert_allclose(cli.iloc[:, 1], lo, rtol=1e-12)
        np.testing.assert_allclose(cli.iloc[:, 2], hi, rtol=1e-12)
    m_mean, lo_mean, hi_mean = reg.predict_interval(X[:6], kind="mean")
    m_new, lo_new, hi_new = reg.predict_interval(X[:6], kind="new")
    np.testing.assert_allclose(m_mean, m_new)
    assert np.all(lo_new < lo_mean) and np.all(hi_mean < hi_new)
    with pytest.raises(ValueError, match="kind"):
        reg.predict_interval(X[:2], kind="band")


def test_na_drop_fits_the_complete_rows():
    """na="drop" gives the fit of the rows without NaN (the same seed, the
    same PIPs and n); the default refuses NaN."""
    X, y = linear_data()
    Xm = X.copy()
    Xm[[3, 50, 51], [1, 0, 7]] = np.nan
    keep = ~np.isnan(Xm).any(axis=1)
    with pytest.raises(ValueError, match="NaN"):
        BayesianSelectionRegressor(random_state=2, **FAST_REG).fit(Xm, y)
    a = BayesianSelectionRegressor(random_state=2, na="drop", **FAST_REG).fit(Xm, y)
    b = BayesianSelectionRegressor(random_state=2, **FAST_REG).fit(X[keep], y[keep])
    assert a.document_["n"] == keep.sum() == 117
    assert a.document_["settings"]["na"] == "drop"
    np.testing.assert_array_equal(a.pip_, b.pip_)
    with pytest.raises(ValueError, match="na="):
        BayesianSelectionRegressor(na="zero").fit(X, y)


def test_seeds_and_threads():
    X, y = linear_data()
    a = BayesianSelectionRegressor(random_state=42, n_jobs=1, **FAST_REG).fit(X, y)
    b = BayesianSelectionRegressor(random_state=42, n_jobs=-1, **FAST_REG).fit(X, y)
    assert a.seed_ == 42 and a.basel_fit_.to_json() == b.basel_fit_.to_json()
    assert BayesianSelectionRegressor(random_state=0, **FAST_REG).fit(X, y).seed_ == 2**32 - 1
    np.random.seed(7)
    c = BayesianSelectionRegressor(**FAST_REG).fit(X, y).seed_
    np.random.seed(7)
    assert BayesianSelectionRegressor(**FAST_REG).fit(X, y).seed_ == c


def sinc(n=80, seed=1):
    rng = np.random.default_rng(seed)
    x = np.sort(rng.uniform(-8, 8, size=n))
    return x[:, None], np.sinc(x / np.pi) + rng.normal(scale=0.1, size=n)


@pytest.mark.parametrize("kw", [
    dict(method="enumerate", basis="legendre:m=8"),
    dict(method="bd", basis="gauss:r=1.6", prior="ridge", n_iter=400),
    dict(method="rj", basis="gauss:r=1.6", n_iter=2000),
    dict(method="ssvs", basis="cosine:m=10", n_iter=500),
    dict(method="anneal", n_iter=500, burn=100, chains=2),
    dict(method="rbf", n_iter=500, burn=100, chains=2),
    dict(method="smc", basis="gauss:r=1.131", particles=40),
], ids=lambda kw: kw["method"])
def test_every_regression_method(kw):
    X, y = sinc()
    reg = BayesianSelectionRegressor(random_state=11, **kw).fit(X, y)
    assert reg.method_ == kw["method"]
    mean, std = reg.predict(X, return_std=True)
    assert np.all(np.isfinite(mean)) and np.all(std > 0)
    assert reg.score(X, y) > 0.6, reg.score(X, y)
    if kw["method"] not in ("anneal", "rbf"):
        # the projection model: the Gaussian subset engines only
        proj = {"projection"} if kw["method"] in ("enumerate", "bd", "rj", "ssvs") else set()
        assert len(reg.pip_) == len(reg.atom_names_) and set(reg.selected_) == {"hpm", "median", "prevalence"} | proj
    else:
        assert not hasattr(reg, "pip_")


def test_several_targets():
    X, y = linear_data()
    Y = np.column_stack([y, -y + X[:, 2]])
    reg = BayesianSelectionRegressor(method="enumerate", random_state=1).fit(X, Y)
    assert reg.predict(X).shape == (len(X), 2) and reg.coef_.shape == (2, 8)


def test_draws_are_a_dataframe():
    X, y = linear_data()
    reg = BayesianSelectionRegressor(random_state=3, keep_draws=True, n_iter=300, chains=3).fit(X, y)
    d = reg.draws_
    m = len(reg.atom_names_)
    assert list(d.columns[:4]) == ["chain", "iteration", "draw", "size"] and list(d.columns[4:4 + m]) == reg.atom_names_
    # the values (docs/FIT.md "The draws CSV"): sigma2, the coefficients (0 when excluded), log_lik
    assert list(d.columns[4 + m:]) == ["sigma2", "b_Intercept"] + ["b_" + a for a in reg.atom_names_] + ["log_lik"]
    z, b = d[reg.atom_names_].to_numpy(), d[["b_" + a for a in reg.atom_names_]].to_numpy()
    assert np.all(b[z == 0] == 0) and np.all(b[z == 1] != 0) and np.all(d["sigma2"] > 0)
    assert len(d) == 3 * 300 and sorted(d["chain"].unique()) == [1, 2, 3]
    # posterior's numbering: the iteration within the chain, the draw over all chains
    np.testing.assert_array_equal(d["chain"], np.repeat([1, 2, 3], 300))
    np.testing.assert_array_equal(d["iteration"], np.tile(np.arange(1, 301), 3))
    np.testing.assert_array_equal(d["draw"], np.arange(1, 901))
    np.testing.assert_array_equal(d["size"], d.iloc[:, 4:4 + m].sum(axis=1))
    assert set(np.unique(d.iloc[:, 4:4 + m])) <= {0, 1}
    # the draws CSV of the same fit has the same columns and rows
    path = os.path.join(os.environ.get("TMPDIR", "/tmp"), "basel-test-draws-%d.csv" % os.getpid())
    try:
        reg.basel_fit_.write_draws(path)
        pd.testing.assert_frame_equal(basel.plot.read_draws(path), d, check_dtype=False)
    finally:
        if os.path.exists(path):
            os.remove(path)
    # ArviZ's (chain, draw) grid is the CSV's (chain, iteration)
    grid = d.set_index(["chain", "iteration"])["size"].unstack()
    assert grid.shape == (3, 300) and not grid.isna().any().any()
    clf = BayesianSelectionClassifier(random_state=3, keep_draws=True, **FAST_CLF).fit(*blobs())
    assert list(clf.draws_.columns[4:]) == ["x1", "x2", "x3", "x4"]


def test_draws_coefficients_average_to_the_table_and_log_lik_sums():
    """The b_ draws' means are coef_ and intercept_ (the table's model
    average): |mean - table| <= 4 se, se the batch-means standard error over
    40 batches; the pointwise log-likelihoods (keep_draws="loglik") sum to
    log_lik to 1e-9."""
    X, y = linear_data()
    reg = BayesianSelectionRegressor(method="rj", random_state=5, keep_draws="loglik", n_iter=20000,
                                     chains=2).fit(X, y)
    d, ll = reg.draws_, reg.log_lik_
    want = dict(zip(["b_" + a for a in reg.atom_names_], reg.coef_), b_Intercept=reg.intercept_)
    for col, mean in want.items():
        x = d[col].to_numpy()
        L = len(x) // 40
        se = x[:40 * L].reshape(40, L).mean(axis=1).std(ddof=1) / np.sqrt(40)
        tol = 4 * se if se > 0 else 1e-12
        assert abs(x.mean() - mean) <= tol, (col, x.mean(), mean, se)
    assert ll.shape == (len(d), len(y))
    np.testing.assert_allclose(ll.sum(axis=1), d["log_lik"], rtol=1e-9, atol=0)
    # each is log N(y_i | b_Intercept + x_i' b, sigma2) from the draw's own columns
    b = d[["b_" + a for a in reg.atom_names_]].to_numpy()
    mu = d["b_Intercept"].to_numpy()[:, None] + b @ X.T
    s2 = d["sigma2"].to_numpy()[:, None]
    np.testing.assert_allclose(-0.5 * np.log(2 * np.pi * s2) - 0.5 * (y - mu) ** 2 / s2, ll, rtol=0, atol=1e-9)


def test_classifier_probabilities_follow_classes():
    X, y = blobs()
    yi = np.where(y == "a", 10, np.where(y == "b", -3, 7))
    clf = BayesianSelectionClassifier(random_state=4, **FAST_CLF).fit(X, yi)
    assert list(clf.classes_) == [-3, 7, 10]
    prob = clf.predict_proba(X)
    np.testing.assert_allclose(prob.sum(axis=1), 1)
    assert np.mean(clf.predict(X) == yi) > 0.9
    assert clf.pip_[0] > 0.9 and np.all(clf.pip_[1:] < 0.5)
    np.testing.assert_array_equal(clf.feature_importances_, clf.pip_)


def test_pickle_keeps_the_fit():
    X, y = linear_data()
    reg = BayesianSelectionRegressor(random_state=8, **FAST_REG).fit(X, y)
    back = pickle.loads(pickle.dumps(reg))
    np.testing.assert_array_equal(back.predict(X), reg.predict(X))
    assert back.basel_fit_.to_json() == reg.basel_fit_.to_json()


def test_library_errors_are_value_errors():
    X, y = linear_data()
    cases = [(dict(method="nope"), "nope"), (dict(basis="gauss:q=1"), "q"), (dict(prior="g:g=-1"), "g"),
             (dict(method="enumerate", options={"iter": 10}), "iter"), (dict(options={"nu": "abc"}), "abc")]
    for kw, word in cases:
        with pytest.raises(basel.BaselError) as e:
            BayesianSelectionRegressor(**kw).fit(X, y)
        assert isinstance(e.value, ValueError) and word in str(e.value), (kw, str(e.value))
        assert e.value.status.startswith("BASEL_E")
    with pytest.raises(ValueError, match="classifier"):
        BayesianSelectionRegressor(method="mixture").fit(X, y)
    with pytest.raises(ValueError, match="one class"):
        BayesianSelectionClassifier().fit(X, np.zeros(len(X)))
    with pytest.raises(ValueError):
        BayesianSelectionRegressor().fit(np.full((5, 2), np.nan), np.zeros(5))
    with pytest.raises(ValueError, match="n_jobs"):
        BayesianSelectionRegressor(n_jobs=0).fit(X, y)


def test_verbose_draws_a_progress_bar(capsys):
    X, y = linear_data()
    BayesianSelectionRegressor(verbose=True, random_state=1, **FAST_REG).fit(X, y)
    err = capsys.readouterr().err
    assert "basel bd:" in err and "100%" in err


def test_coefficients_come_from_the_table_when_the_fit_has_one():
    """The coefficient table (FIT.json "coefficients", read through the
    library's basel_fit_coef) gives coef_: its means, sds and the
    intercept, by term name."""
    X, y = linear_data(p=4)
    reg = BayesianSelectionRegressor(method="enumerate", random_state=1).fit(X, y)
    doc = dict(reg.document_)
    doc["coefficients"] = {"scale": "original", "level": 0.95, "models": 8, "covered": 1.0, "terms": [
        {"name": "(Intercept)", "target": "y", "pip": 1, "mean": 3.5, "sd": 0.1, "lower": 3.3, "upper": 3.7},
        {"name": "x3", "target": "y", "pip": 0.2, "mean": -0.25, "sd": 0.5, "lower": -1, "upper": 0},
        {"name": "x1", "target": "y", "pip": 1, "mean": 2.5, "sd": 0.2, "lower": 2.1, "upper": 2.9}]}

    reg._set_coef(basel._lib.Fit.from_json(json.dumps(doc)))
    assert reg.coef_source_ == "coefficients" and reg.intercept_ == 3.5
    np.testing.assert_array_equal(reg.coef_, [2.5, 0, -0.25, 0])
    np.testing.assert_array_equal(reg.coef_sd_, [0.2, 0, 0.5, 0])


def test_credible_sets_hold_a_block_of_near_copies():
    """Three near-copies of the one true input form one credible set (docs/FIT.md
    "credible_sets"); its coverage is P(model holds one of them) over the listed
    models of an exact enumeration, its purity the least |r| within."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(100, 6))
    X[:, 1] = X[:, 0] + 0.05 * rng.normal(size=100)
    X[:, 2] = X[:, 0] + 0.05 * rng.normal(size=100)
    y = X[:, 0] + rng.normal(size=100)
    est = BayesianSelectionRegressor(method="enumerate", top=64).fit(X, y)
    sets = est.credible_sets_
    assert len(sets) == 1 and set(sets[0]["atoms"]) <= {0, 1, 2}
    models = est.basel_fit_.document["models"]
    cov = sum(m["prob"] for m in models if set(m["atoms"]) & set(sets[0]["atoms"]))
    assert abs(cov - sets[0]["coverage"]) < 1e-12 and cov >= 0.95
    r = np.abs(np.corrcoef(X[:, sets[0]["atoms"]], rowvar=False))
    assert abs(r.min() - sets[0]["purity"]) < 1e-12
    assert sets[0]["names"] == [est.atom_names_[j] for j in sets[0]["atoms"]]


def test_credible_sets_count_signals_with_names():
    """On the README's data (truth x3 x6 x7 x9 x14) with the README's prior,
    x6 (PIP 0.964) correlates 0.56 with x7 and shares its cluster: the
    posterior puts two of that cluster in the model with probability 0.964,
    so x6 has a set of its own beside x7's (docs/FIT.md "credible_sets"),
    five sets as susieR's. credible_sets_ is the library's accessor
    (basel_fit_credible_set) with names and the document's other keys."""
    d = pd.read_csv(os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                 "data", "linear", "lin_p15_n200.csv"))
    X, y = d.drop(columns="y"), d["y"]
    est = BayesianSelectionRegressor(method="enumerate", prior="g:g=200", model_prior="uniform").fit(X, y)
    names = sorted(tuple(s["names"]) for s in est.credible_sets_)
    assert names == [("x14",), ("x3",), ("x6",), ("x7",), ("x9",)], names
    six = next(s for s in est.credible_sets_ if s["names"] == ["x6"])
    assert six["signal"] == 2 and est.atom_names_[six["lead"]] == "x7"
    assert abs(six["signal_prob"] - 0.964) < 5e-4 and six["coverage"] >= 0.95 and six["purity"] == 1
    for s, doc in zip(est.credible_sets_, est.document_["credible_sets"]["sets"]):
        assert s["atoms"] == doc["atoms"] and s["coverage"] == doc["coverage"] and s["purity"] == doc["purity"]


def test_the_library_accessors_give_models_and_se():
    """Fit.models() is FIT.json's listed models (Bayes factors against the
    best); Pred.se() is the scale of a single model's interval for f(x):
    upper - mean = t_{df}((1 + level) / 2) se (basel_pred_se)."""
    from scipy import stats
    X, y = linear_data(p=4)
    reg = BayesianSelectionRegressor(method="enumerate", random_state=1).fit(X, y)
    fit, doc = reg.basel_fit_, reg.document_
    models = fit.models()
    assert len(models) == len(doc["models"])
    for (atoms, prob, log_ml, log_bf), m in zip(models, doc["models"]):
        assert atoms == m["atoms"] and prob == m["prob"] and log_ml == m["log_ml"] and log_bf == m["log_bf_best"]
    data = basel._lib.Data(np.ascontiguousarray(X[:5]), reg.input_names_, source="X")
    pred = fit.predict(data, "hpm", 0.9, kind="mean")
    mean, lo, hi = pred.intervals(1)
    q = stats.t.ppf(0.95, doc["engine"]["predictor"]["hpm"]["df"])
    np.testing.assert_allclose((hi - mean) / q, pred.se(), rtol=1e-9)  # scipy's t quantile is not GSL's to the last bits


def test_a_fits_warnings_reach_the_user():
    """The fit's own warnings (FIT.json diagnostics.warnings) are raised by
    fit() as BaselConvergenceWarning, one per warning, worded as the library
    words them but with the estimator's parameters for the command line's
    flags (n_iter for --iter); a converged fit raises none (issue 31 item 6)."""
    X, y = linear_data(n=200, p=20, seed=3)
    # chains far too short for 20 inputs: R-hat and ESS warn
    stuck = BayesianSelectionRegressor(method="bd", n_iter=40, burn=0, random_state=2)
    with pytest.warns(basel.BaselConvergenceWarning) as rec:
        stuck.fit(X, y)
    words = stuck.basel_fit_.warnings
    assert words, "this short run was expected to have warnings"
    got = [str(w.message) for w in rec if issubclass(w.category, basel.BaselConvergenceWarning)]
    assert got == ["basel: " + basel._lib.option_words(w, {"iter": "n_iter"}) for w in words]
    from sklearn.exceptions import ConvergenceWarning
    assert issubclass(basel.BaselConvergenceWarning, ConvergenceWarning)
    # exact enumeration has no Monte Carlo error: no warning at all
    with warnings.catch_warnings():
        warnings.simplefilter("error", basel.BaselConvergenceWarning)
        done = BayesianSelectionRegressor(method="enumerate").fit(X[:, :8], y)
    assert done.basel_fit_.warnings == []


# --- parameters the method does not read, and mistakes, as the docs say
# (a walkthrough found keep_draws failing a grid over methods)

def test_keep_draws_is_ignored_by_a_method_that_keeps_none():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(60, 4))
    y = X[:, 0] + rng.normal(size=60)
    reg = basel.BayesianSelectionRegressor(method="enumerate", keep_draws=True).fit(X, y)
    assert hasattr(reg, "pip_") and not hasattr(reg, "draws_")
    reg = basel.BayesianSelectionRegressor(method="bd", keep_draws=True, n_iter=300, chains=1, random_state=2).fit(X, y)
    assert len(reg.draws_) > 0


def test_mistakes_raise_what_a_user_can_act_on():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(60, 4))
    y = X[:, 0] + rng.normal(size=60)
    with pytest.raises(TypeError, match="options=.*expected a dict"):
        basel.BayesianSelectionRegressor(method="enumerate", options="nu=2").fit(X, y)
    reg = basel.BayesianSelectionRegressor(method="enumerate").fit(X, y)
    with pytest.raises(ValueError, match="selected_names\\('best'\\): this fit has hpm, median"):
        reg.selected_names("best")


def test_messages_name_the_parameters_not_the_command_line_flags():
    rng = np.random.default_rng(6)
    X = rng.normal(size=(40, 3))
    y = X[:, 0] + rng.normal(size=40)
    with pytest.raises(basel.BaselError) as e:
        basel.BayesianSelectionRegressor(method="enumerate", options={"iter": 10}).fit(X, y)
    assert "iter is not read by method enumerate" in str(e.value) and "--iter" not in str(e.value)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        basel.BayesianSelectionRegressor(n_iter=60, chains=2, random_state=1).fit(X, y)
    texts = [str(x.message) for x in w if issubclass(x.category, basel.BaselConvergenceWarning)]
    assert texts and all("--" not in t for t in texts) and any("(n_iter)" in t for t in texts)


def test_predict_takes_model_as_predict_interval_does():
    rng = np.random.default_rng(7)
    X = rng.normal(size=(60, 4))
    y = X[:, 0] + rng.normal(size=60)
    reg = basel.BayesianSelectionRegressor(method="enumerate").fit(X, y)
    assert np.array_equal(reg.predict(X[:5], model="hpm"), reg.predict_interval(X[:5], model="hpm")[0])
    assert not np.array_equal(reg.predict(X[:5], model="hpm"), reg.predict(X[:5]))
