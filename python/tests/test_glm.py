"""BayesianLogisticRegression (--family binomial, docs/GLM.md): scikit-learn's
checks, class probabilities that sum to 1 in classes_'s order, PIPs that
find the inputs P(y | x) depends on, and the same fit from rj, bd, ssvs
and enumerate."""
import numpy as np
import pytest
from sklearn.utils.estimator_checks import check_estimator

from basel import BayesianLogisticRegression

FAST = dict(n_iter=1000, chains=2)


def logistic_data(n=200, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4))
    p = 1 / (1 + np.exp(-(2.0 * X[:, 0] - 1.5 * X[:, 2])))
    return X, np.where(rng.random(n) < p, "yes", "no")


def test_check_estimator():
    check_estimator(BayesianLogisticRegression(**FAST))


def test_probabilities_and_pips():
    X, y = logistic_data()
    est = BayesianLogisticRegression(random_state=3).fit(X, y)
    assert list(est.classes_) == ["no", "yes"]
    P = est.predict_proba(X)
    assert P.shape == (len(y), 2) and np.allclose(P.sum(axis=1), 1)
    # the class with the larger probability, and the probabilities follow y
    assert np.mean(est.predict(X) == y) > 0.75
    assert P[y == "yes", 1].mean() > P[y == "no", 1].mean() + 0.3
    assert est.pip_[0] > 0.99 and est.pip_[2] > 0.99
    ex = BayesianLogisticRegression(method="enumerate", random_state=3).fit(X, y)
    assert np.max(np.abs(ex.pip_ - est.pip_)) < 0.1
    # coef_ as LogisticRegression's, the log-odds of "yes" (2 x1 - 1.5 x3):
    # the coefficient table's means, by term
    terms, _, _, values, _ = ex.basel_fit_.coefficients()
    mean = dict(zip(terms, values[:, 1]))
    assert ex.coef_.shape == (1, 4) and ex.intercept_.shape == (1,) and ex.coef_sd_.shape == (1, 4)
    assert ex.coef_[0, 1] == mean["x2"] and ex.intercept_[0] == mean["(Intercept)"]
    assert ex.coef_[0, 0] > 1.2 and ex.coef_[0, 2] < -0.9 and ex.coef_source_ == "coefficients"
    # decision_function: the log-odds of the averaged probability, whose sign is predict's
    Pe, D = ex.predict_proba(X), ex.decision_function(X)
    assert D.shape == (len(y),) and np.allclose(D, np.log(Pe[:, 1] / Pe[:, 0]))
    assert np.array_equal(ex.classes_[(D > 0).astype(int)], ex.predict(X))
    # bd and ssvs sample the same posterior (docs/GLM.md "bd and ssvs")
    for method in ("bd", "ssvs"):
        other = BayesianLogisticRegression(method=method, random_state=3).fit(X, y)
        assert np.max(np.abs(ex.pip_ - other.pip_)) < 0.1, method
        assert np.allclose(other.predict_proba(X).sum(axis=1), 1)


def test_kernel_basis_has_no_coef_per_input():
    # the coefficient table's terms are kernels, not inputs: coef_ is left unset
    X, y = logistic_data(80)
    est = BayesianLogisticRegression(n_iter=300, chains=1, random_state=2, options={"basis": "gauss"}).fit(X, y)
    assert not hasattr(est, "coef_") and est.predict_proba(X).shape == (80, 2)


def test_three_classes_multinomial():
    """Three classes: --family multinomial, probabilities for every class in
    classes_'s order, per-class PIPs and per-input PIPs."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(240, 4))
    eta = np.column_stack([np.zeros(240), 2.5 * X[:, 0], -2.5 * X[:, 0] + 2.0 * X[:, 1]])
    P = np.exp(eta) / np.exp(eta).sum(axis=1, keepdims=True)
    y = np.array(["c", "a", "b"])[[rng.choice(3, p=p) for p in P]]
    # against the reference a: eta_b - eta_a = -5 x1 + 2 x2, eta_c - eta_a = -2.5 x1
    est = BayesianLogisticRegression(random_state=5).fit(X, y)
    assert list(est.classes_) == ["a", "b", "c"]
    Q = est.predict_proba(X)
    assert Q.shape == (240, 3) and np.allclose(Q.sum(axis=1), 1)
    assert np.mean(est.predict(X) == y) > 0.7
    assert len(est.pip_) == 8 and est.atom_names_[0] == "1:x1" and est.atom_names_[4] == "2:x1"
    assert min(est.pip_[0], est.pip_[1], est.pip_[4]) > 0.99  # b: x1, x2; c: x1
    assert est.pip_[5] < 0.5  # x2 is not in c's subset
    assert est.input_pip_[0] > 0.99 and est.input_pip_[1] > 0.99
    np.testing.assert_array_equal(est.feature_importances_, est.input_pip_)
    # coef_ per class against the reference a, whose row is 0
    assert est.coef_.shape == (3, 4) and est.intercept_.shape == (3,)
    assert not est.coef_[0].any() and est.intercept_[0] == 0
    assert est.coef_[1, 0] < -2.5 and est.coef_[1, 1] > 1 and est.coef_[2, 0] < -1.2
    assert est.decision_function(X).shape == (240, 3)
    assert np.array_equal(est.classes_[np.argmax(est.decision_function(X), axis=1)], est.predict(X))


def test_one_class_refused():
    X, _ = logistic_data(60)
    with pytest.raises(ValueError, match="at least 2 classes"):
        BayesianLogisticRegression(**FAST).fit(X, np.zeros(60))
