"""scikit-learn estimators over libbasel.

BayesianSelectionRegressor runs any regression method (enumerate, bd, rj,
ssvs, anneal, rbf, smc) with any basis; BayesianSelectionClassifier runs the
mixture classifier. Parameters are the command line's options with Python
spellings (model_prior for --model-prior, n_iter for --iter, random_state for
--seed, n_jobs for --threads); None leaves an option at the method's default,
and options={"name": value} passes any other option by its command-line name
({"nu": 2, "rj-swap": 0.5, "particles": 500, ...}).
"""
import os
import sys
import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.exceptions import ConvergenceWarning, DataConversionWarning
from sklearn.utils import check_random_state
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted

from . import _lib

# estimator parameter -> option name (the rest: "_" -> "-")
_RENAMED = {"n_iter": "iter"}
_RENAMED_BACK = {option: name for name, option in _RENAMED.items()}
# parameters that are not options of the fit
_NOT_OPTIONS = {"random_state", "n_jobs", "verbose", "keep_draws", "options", "model"}


class BaselConvergenceWarning(ConvergenceWarning):
    """A fit's own warning (Fit.warnings: R-hat above 1.01, an effective
    sample size below 400, an interrupted run, ...), raised by fit() with
    warnings.warn so that it reaches the user as `basel fit` prints it on
    stderr; silence it with warnings.simplefilter("ignore",
    BaselConvergenceWarning). A subclass of scikit-learn's ConvergenceWarning."""


def _seed(random_state):
    """basel's seed from random_state: an int s is the seed s (the same run
    as `basel fit --seed s`), except 0, which basel reads as "pick one" and
    which is mapped to 2^32 - 1; None or a RandomState draws one."""
    if isinstance(random_state, (int, np.integer)) and not isinstance(random_state, bool):
        s = int(random_state)
        if not 0 <= s <= 2**32 - 1:
            raise ValueError("random_state=%d: expected an integer in [0, 2^32 - 1]" % s)
        return s if s != 0 else 2**32 - 1
    return int(check_random_state(random_state).randint(1, 2**31 - 1))


def _threads(n_jobs):
    """basel's threads from n_jobs: None is 1, -1 every core (0), -2 all but one, ..."""
    if n_jobs is None:
        return 1
    n_jobs = int(n_jobs)
    if n_jobs > 0:
        return n_jobs
    if n_jobs == -1:
        return 0
    if n_jobs == 0:
        raise ValueError("n_jobs=0: expected a positive number of threads, or -1 for every core")
    return max(1, (os.cpu_count() or 1) + 1 + n_jobs)


class _ProgressBar:
    """A one-line progress bar on stderr (verbose=True)."""

    def __init__(self, label):
        self.label, self.shown = label, -1

    def __call__(self, fraction):
        pct = int(fraction * 100)
        if pct != self.shown:
            self.shown = pct
            bar = "#" * (pct // 4)
            sys.stderr.write("\rbasel %s: [%-25s] %3d%%" % (self.label, bar, pct))
            sys.stderr.flush()
        return False

    def close(self):
        if self.shown >= 0:
            sys.stderr.write("\n")
            sys.stderr.flush()


def _unique_name(base, taken):
    name, i = base, 1
    while name in taken:
        name, i = "%s_%d" % (base, i), i + 1
    return name


class _BaselEstimator(BaseEstimator):
    """What the two estimators share: options, the run, the fitted attributes."""

    def _more_tags(self):
        # predict accepts NaN (a missing input: that row's prediction is NaN);
        # fit refuses it (the library's --na error), with the row named. Not
        # sklearn's allow_nan (which promises fit too): its check that
        # predict refuses NaN is skipped instead, for this reason.
        return {"_xfail_checks": {"check_estimators_nan_inf":
                                  "predict gives NaN for rows with a NaN input; fit refuses NaN"}}

    def _options(self, method):
        settings = {"method": method}
        for name, value in self.get_params(deep=False).items():
            if name in _NOT_OPTIONS or value is None or name == "method":
                continue
            option = _RENAMED.get(name, name.replace("_", "-"))
            # as in scikit-learn, a parameter the method does not use is
            # ignored (n_iter for enumerate), so that a grid can switch
            # methods; options={...} are passed as given (and refused)
            if _lib.method_default(method, option) is not None:
                settings[option] = value
        if self.options is not None and not hasattr(self.options, "items"):
            raise TypeError("options=%r: expected a dict of option names to values, e.g. {\"nu\": 2}"
                            % (self.options,))
        for name, value in (self.options or {}).items():
            settings[str(name)] = value
        settings["seed"] = _seed(self.random_state)
        settings["threads"] = _threads(self.n_jobs)
        # as a parameter the method does not read: ignored by the methods
        # that keep no draws (draws_ is then not set)
        if self.keep_draws and _lib.method_keeps_draws(method):
            settings["keep-draws"] = 2 if self.keep_draws == "loglik" else 1
        return settings

    def _forget(self):
        """Drop a previous fit's attributes, so that a fit that fails or is
        cancelled leaves the estimator unfitted, not holding the last one."""
        for name in [k for k in vars(self) if k.endswith("_") and not k.startswith("_")]:
            delattr(self, name)

    def _input_names(self, p):
        names = getattr(self, "feature_names_in_", None)
        if names is not None:
            return [str(s) for s in names]
        return ["x%d" % (j + 1) for j in range(p)]

    def _run(self, data, settings, progress):
        bar = _ProgressBar(settings["method"]) if self.verbose else None
        if bar is not None and progress is not None:
            user = progress
            progress = lambda f: bar(f) or user(f)  # noqa: E731
        elif bar is not None:
            progress = bar
        try:
            fit = _lib.Fit.run(data, _lib.Options(settings), progress)
        except _lib.BaselError as e:  # worded with the estimator's parameters (n_iter, keep_draws, ...)
            raw = getattr(e, "library_message", None)
            if raw is None:
                raise
            raise _lib.BaselError(_lib.option_words(raw, _RENAMED_BACK), e.code, e.file, e.line, e.column) from None
        finally:
            if bar is not None:
                bar.close()
        for w in fit.warnings:  # each of the fit's own, as the command line prints them
            warnings.warn("basel: " + _lib.option_words(w, _RENAMED_BACK), BaselConvergenceWarning, stacklevel=3)
        return fit

    def _set_fitted(self, fit):
        """The fitted attributes every method shares, from the fit."""
        self.basel_fit_ = fit
        self.method_ = fit.method
        self.seed_ = fit.seed
        self.atom_names_ = fit.atoms
        pip = fit.pip()
        if pip is not None:
            self.pip_ = pip
            if fit.atoms == self.input_names_:
                self.feature_importances_ = pip
        size = fit.size_posterior()
        if size is not None:
            self.model_size_ = size
        sel = {w: fit.selected(w) for w in ("hpm", "median", "prevalence", "projection")}
        sel = {w: a for w, a in sel.items() if a is not None}  # projection: Gaussian fits only
        if any(v is not None for v in sel.values()):
            self.selected_ = sel
        cs = fit.document.get("credible_sets")
        if cs is not None:  # docs/FIT.md "credible_sets": the library's sets (atoms, coverage, purity) with names,
            # and the document's other keys of each (signal, signal_prob, lead, ...)
            self.credible_sets_ = [dict(s, atoms=a, coverage=c, purity=p, names=[self.atom_names_[j] for j in a])
                                   for s, (a, c, p) in zip(cs["sets"], fit.credible_sets())]
        if self.keep_draws and _lib.method_keeps_draws(fit.method):
            self.draws_ = fit.draws()
            if self.keep_draws == "loglik":
                self.log_lik_ = fit.draws_loglik()

    def _finite(self):
        """scikit-learn's force_all_finite for fit's X: na="drop" lets NaN
        (a missing value) through to basel, which drops those rows (--na
        drop); otherwise NaN is refused, as by any estimator without
        native missing-value support."""
        if self.na not in (None, "error", "drop"):
            raise ValueError("na=%r: use \"error\" (the default) or \"drop\"" % (self.na,))
        return "allow-nan" if self.na == "drop" else True

    def _check_n_samples(self, n):
        if n < 2:
            raise ValueError("n_samples=%d: basel needs at least 2 samples to fit" % n)

    def _data(self, X):
        """X (validated, n x p) as a table with the fit's input names."""
        return _lib.Data(X, self.input_names_, source="X")

    @property
    def document_(self):
        """FIT.json of the fit, as a dict."""
        check_is_fitted(self, "basel_fit_")
        return self.basel_fit_.document

    def summary(self):
        """The fit's human-readable report (`basel summary`)."""
        check_is_fitted(self, "basel_fit_")
        return self.basel_fit_.summary()

    def write_json(self, path):
        """Write FIT.json (readable by `basel predict`, `basel summary`, `basel plot`)."""
        check_is_fitted(self, "basel_fit_")
        self.basel_fit_.write_json(path)

    def selected_names(self, which="median"):
        """The atom names of the "hpm", "median", "prevalence" or "projection" model."""
        check_is_fitted(self, "selected_")
        if which not in self.selected_:
            raise ValueError("selected_names(%r): this fit has %s" % (which, ", ".join(sorted(self.selected_))))
        return [self.atom_names_[j] for j in self.selected_[which]]


class BayesianSelectionRegressor(RegressorMixin, _BaselEstimator):
    """Bayesian selection of inputs or basis functions for regression.

    Parameters (None: the method's default, as `basel help fit --method M`
    lists it; a parameter the method does not read is ignored, as n_iter
    with enumerate, while options={...} are passed as given):
      method      "bd" (birth-death, default), "enumerate", "rj", "ssvs",
                  "anneal", "rbf", "smc"
      basis       "linear" (the inputs are the atoms), "gauss:r=R", "cubic",
                  "tps", "lin-rbf", "legendre:m=M", ... (--basis)
      prior       coefficient prior: "g", "ridge", "hier", "aic", "bic", "mdl",
                  "hyper-g", "hyper-g/n", "jzs", "robust", "eb-local", "eb-global", ...
      model_prior "uniform", "poisson:mean=W", "bernoulli:p=P", "beta-binomial:a=A,b=B"
      n_iter, burn, thin, chains, kmax, standardize ("yes", "no", "auto"; True / False for yes / no), top,
      particles (smc)
      model       the model predict uses: "bma" (default), "hpm", "median",
                  "prevalence", "projection" (subset methods; projection:
                  Gaussian fits); "map" for anneal
      random_state  int s: --seed s (0 is mapped to 2^32 - 1); None or a
                  RandomState: a seed drawn from it (seed_ holds the one used)
      n_jobs      threads: None 1, -1 every core; results never depend on it
      verbose     a progress bar on stderr
      keep_draws  keep the draws (draws_); "loglik": also each draw's pointwise
                  log-likelihood of the training rows (log_lik_, draws x rows)
      options     dict of any other option by its command-line name
      na          "error" (default: NaN in X is refused) or "drop" (rows of
                  X with a NaN are left out of the fit, --na drop)

    Fitted attributes: basel_fit_ (the fit; document_ is FIT.json as a dict),
    method_, seed_, atom_names_, pip_ (per atom), feature_importances_ (= pip_
    when the atoms are the inputs), model_size_ (P(k = 0, 1, ...)),
    selected_ ({"hpm", "median", "prevalence"[, "projection"]}: atom indices), coef_,
    intercept_ and coef_sd_ (model-averaged, coef_ per atom, from the fit's
    coefficient table: enumerate, bd, rj, ssvs), coef_source_, credible_sets_ (enumerate, bd, rj, ssvs with
    the linear basis: one dict per set, docs/FIT.md), draws_ (keep_draws: with sigma2, b_Intercept,
    b_<atom> and log_lik columns for the priors that have them, docs/FIT.md "The draws CSV"), log_lik_
    (keep_draws="loglik"), n_features_in_,
    feature_names_in_ (DataFrames with string column names).
    """

    def __init__(self, method="bd", basis=None, prior=None, model_prior=None, n_iter=None, burn=None, thin=None,
                 chains=None, kmax=None, standardize=None, top=None, particles=None, model=None, random_state=None,
                 n_jobs=None, verbose=False, keep_draws=False, options=None, na=None):
        self.method = method
        self.basis = basis
        self.prior = prior
        self.model_prior = model_prior
        self.n_iter = n_iter
        self.burn = burn
        self.thin = thin
        self.chains = chains
        self.kmax = kmax
        self.standardize = standardize
        self.top = top
        self.particles = particles
        self.model = model
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose
        self.keep_draws = keep_draws
        self.options = options
        self.na = na

    def fit(self, X, y, progress=None):
        """Fit to X (n x p) and y (n, or n x c for methods with several
        targets). progress(fraction) is called on this thread as the run
        goes; a true result cancels it (KeyboardInterrupt), as does Ctrl-C."""
        self._forget()
        X, y = self._validate_data(X, y, dtype=np.float64, y_numeric=True, multi_output=True,
                                   force_all_finite=self._finite())
        if y.ndim == 2 and y.shape[1] == 1:
            warnings.warn("A column-vector y was passed when a 1d array was expected.", DataConversionWarning,
                          stacklevel=2)
            y = y[:, 0]
        self._check_n_samples(X.shape[0])
        if self.method == "mixture":
            raise ValueError("method='mixture' is a classifier: use BayesianSelectionClassifier")
        self.input_names_ = self._input_names(X.shape[1])
        taken = set(self.input_names_)
        data = _lib.Data(X, self.input_names_, source="X")
        if y.ndim == 1:
            self.target_names_ = [_unique_name("y", taken)]
            data.add_column(self.target_names_[0], y)
        else:
            self.target_names_ = []
            for j in range(y.shape[1]):
                name = _unique_name("y%d" % (j + 1), taken)
                taken.add(name)
                self.target_names_.append(name)
                data.add_column(name, y[:, j])
        settings = self._options(self.method)
        settings["target"] = ",".join(self.target_names_)
        fit = self._run(data, settings, progress)
        self._set_fitted(fit)
        self._set_coef(fit)
        return self

    def _set_coef(self, fit):
        """coef_, intercept_ and coef_sd_ from the library's coefficient table
        (basel_fit_coef: FIT.json "coefficients", on the inputs' scale), by
        term name; left unset when the fit has none (methods other than
        enumerate, bd, rj, ssvs)."""
        table = fit.coefficients()
        if table is None:
            return
        terms, targets, _, values, _ = table
        mean, sd = values[:, _lib.COEF_VALUES.index("mean")], values[:, _lib.COEF_VALUES.index("sd")]
        atoms, c = self.atom_names_, len(self.target_names_)
        coef, coef_sd = np.zeros((c, len(atoms))), np.zeros((c, len(atoms)))
        icpt = np.zeros(c)
        col = {a: j for j, a in enumerate(atoms)}
        for term, target, m, s in zip(terms, targets, mean, sd):
            o = self.target_names_.index(target) if target in self.target_names_ else 0
            if term == "(Intercept)":
                icpt[o] = m
            elif term in col:
                coef[o, col[term]] = m
                coef_sd[o, col[term]] = s
        self.coef_source_ = "coefficients"
        self.coef_, self.coef_sd_, self.intercept_ = self._shape(coef), self._shape(coef_sd), self._shape(icpt)

    def _shape(self, a):
        return a[0] if len(self.target_names_) == 1 else a

    def _predict(self, X, level, kind, model=None):
        """The library's predictions (a _lib.Pred) of the rows of X."""
        check_is_fitted(self, "basel_fit_")
        # a row with a NaN (a missing input) gets NaN: the library leaves it
        # without a prediction and predicts the other rows as alone
        X = self._validate_data(X, dtype=np.float64, reset=False, force_all_finite="allow-nan")
        return self.basel_fit_.predict(self._data(X), model if model is not None else self.model, level, kind)

    def predict_interval(self, X, level=0.95, model=None, kind="new"):
        """(mean, lower, upper): the predictive mean and the central interval
        of probability level at each row of X, for a new observation
        (kind="new", the default) or for the regression function E[y | x]
        (kind="mean": BAS's se.fit; the subset methods only), as
        `basel predict --interval-kind`."""
        mean, lo, hi = self._predict(X, level, kind, model).intervals(len(self.target_names_))
        return self._shape_cols(mean), self._shape_cols(lo), self._shape_cols(hi)

    def _shape_cols(self, a):
        return a[:, 0] if len(self.target_names_) == 1 else a

    def predict(self, X, return_std=False, return_interval=False, level=0.95, kind="new", model=None):
        """The predictive mean at each row of X (of the estimator's model,
        or of model= for this call, as predict_interval), and on request:

        return_std=True: the predictive standard deviation of a new
          observation y at x, as BayesianRidge and GaussianProcessRegressor
          return it. For the subset methods (enumerate, bd, rj, ssvs) it is
          exactly the sd of the distribution whose quantiles the intervals
          are (basel_pred_sd): a single model's Student-t, or the model
          average's mixture of every kept model's t, sqrt(sum_r w_r (var_r +
          (mu_r - mean)^2)); computed without the interval's quantiles. Under
          a prior that mixes over g within each model (hyper-g, jzs, ...)
          there is none (ValueError), as there are no intervals. For anneal
          and rbf it is the sd of the network's Student-t or of the kept
          networks' mixture of them, for smc that of the particles' normal
          mixture.
        return_interval=True: lower and upper, the central interval of
          probability level for a new observation (kind="new") or for the
          regression function E[y | x] (kind="mean"), as predict_interval.

        Returns mean, (mean, std), (mean, lower, upper) or (mean, std,
        lower, upper). Without either nothing but the means is computed (a
        prior that mixes over g has exact means but no sd or interval)."""
        if kind not in ("new", "mean"):
            raise ValueError("kind=%r: use \"new\" (a new observation) or \"mean\" (the regression function)" % (kind,))
        if not return_std and not return_interval:
            return self.predict_interval(X, level, model=model, kind="none")[0]
        c = len(self.target_names_)
        pred = self._predict(X, level, kind if return_interval else "sd", model)
        mean, lo, hi = pred.intervals(c)
        out = [mean]
        if return_std:
            std = pred.sd("new")
            if std is None:
                raise ValueError("return_std: this fit has no predictive sd (prior=%r mixes over g within each "
                                 "model, and basel computes neither its sd nor its intervals); predict the means "
                                 "alone" % (self.prior,))
            out.append(std)
        if return_interval:
            out += [lo, hi]
        return tuple(self._shape_cols(a) for a in out)


class BayesianSelectionClassifier(ClassifierMixin, _BaselEstimator):
    """Input selection for a Gaussian-mixture classifier (basel's mixture
    method, paper 000): which inputs does the classifier need?

    Parameters (None: the method's default): model_prior, n_iter, burn, thin,
    chains, kernels (Gaussian kernels shared by the classes), kmax,
    standardize, top, model ("bma", "hpm", "median", "prevalence": the draws
    predict averages over), random_state, n_jobs, verbose, keep_draws,
    options, na (see BayesianSelectionRegressor).

    Fitted attributes: classes_, pip_ (per input) = feature_importances_,
    model_size_, selected_, basel_fit_, document_, seed_, draws_ (keep_draws),
    n_features_in_, feature_names_in_.
    """

    def __init__(self, model_prior=None, n_iter=None, burn=None, thin=None, chains=None, kernels=None, kmax=None,
                 standardize=None, top=None, model=None, random_state=None, n_jobs=None, verbose=False,
                 keep_draws=False, options=None, na=None):
        self.model_prior = model_prior
        self.n_iter = n_iter
        self.burn = burn
        self.thin = thin
        self.chains = chains
        self.kernels = kernels
        self.kmax = kmax
        self.standardize = standardize
        self.top = top
        self.model = model
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose
        self.keep_draws = keep_draws
        self.options = options
        self.na = na

    def fit(self, X, y, progress=None):
        """Fit to X (n x p) and class labels y (any hashable labels whose
        str() differ). progress as in BayesianSelectionRegressor.fit."""
        self._forget()
        X, y = self._validate_data(X, y, dtype=np.float64, force_all_finite=self._finite())
        check_classification_targets(y)
        self._check_n_samples(X.shape[0])
        self.classes_, y_idx = np.unique(y, return_inverse=True)
        if len(self.classes_) < 2:
            raise ValueError("only one class is present in y (%r): a classifier needs at least 2 classes"
                             % (self.classes_[0],))
        labels = [str(c) for c in self.classes_]
        if len(set(labels)) != len(labels):
            raise ValueError("class labels %r are not distinct as text" % (labels,))
        self.input_names_ = self._input_names(X.shape[1])
        self.target_names_ = [_unique_name("class", set(self.input_names_))]
        data = _lib.Data(X, self.input_names_, source="X")
        data.add_labels(self.target_names_[0], [labels[i] for i in y_idx])
        settings = self._options("mixture")
        settings["target"] = self.target_names_[0]
        fit = self._run(data, settings, progress)
        self._set_fitted(fit)
        return self

    def predict_proba(self, X):
        """n x len(classes_) class probabilities, columns in classes_'s order."""
        check_is_fitted(self, "basel_fit_")
        X = self._validate_data(X, dtype=np.float64, reset=False, force_all_finite="allow-nan")  # NaN rows: NaN
        pred = self.basel_fit_.predict(self._data(X), self.model, 0.95)
        prob = pred.probabilities()
        out = np.zeros((prob.shape[0], len(self.classes_)))
        labels = [str(c) for c in self.classes_]
        for k, name in enumerate(pred.classes()):
            out[:, labels.index(name)] = prob[:, k]
        return out

    def predict(self, X):
        """The most probable class of each row of X (a ValueError when a row
        has a missing input: it has no class; predict_proba gives NaN)."""
        prob = self.predict_proba(X)
        gone = np.flatnonzero(np.isnan(prob).any(axis=1))
        if gone.size:
            raise ValueError("%d rows of X have a missing input (NaN), the first row %d: they have no class "
                             "(predict_proba gives NaN for them)" % (gone.size, gone[0]))
        return self.classes_[np.argmax(prob, axis=1)]

    def _more_tags(self):
        return {"binary_only": False}


class BayesianLogisticRegression(BayesianSelectionClassifier):
    """Logistic regression with Bayesian variable selection (basel fit
    --family binomial; docs/GLM.md): which inputs does P(y = 1 | x) need?
    Two classes: the second in sorted order is y = 1. Three or more:
    multinomial logistic regression (--family multinomial; "enumerate" up
    to 20 class-input pairs), classes_[0] the reference class and one subset of inputs per
    other class; pip_ is then per class and input (atom_names_ "k:input",
    k the class's index in classes_) and feature_importances_ /
    input_pip_ the probability that an input is in some class's subset.

    Parameters (None: the method's default): method ("rj", the Polya-Gamma
    sampler, exact; "bd" or "ssvs", the same model by birth and death or by
    Gibbs flips; or "enumerate", every subset's marginal likelihood by
    importance sampling, up to 24 inputs), prior ("normal:sd=S,intercept-sd=S0"
    on the standardised inputs; with two classes also BAS's g-type priors
    "g:g=G", "uip", "hyper-g/n", "robust", "eb-local", docs/GLM.md), model_prior, n_iter, burn, thin, chains,
    kmax, top, model ("bma", "hpm", "median", "prevalence"), random_state,
    n_jobs, verbose, keep_draws, options, na (see BayesianSelectionRegressor).

    Fitted attributes: classes_, pip_ = feature_importances_, model_size_,
    selected_, basel_fit_, document_, seed_, n_features_in_,
    feature_names_in_; coef_, intercept_ and coef_sd_, the model-averaged
    log-odds coefficients of the fit's coefficient table (on the inputs'
    scale, an excluded input's as 0), shaped as scikit-learn's
    LogisticRegression's: (1, p) and (1,) for two classes (the log-odds of
    classes_[1]); (len(classes_), p) and (len(classes_),) for three or
    more, against classes_[0], whose row is 0 (the reference class).
    predict_proba gives model-averaged class probabilities (docs/FIT.md),
    decision_function their log-odds.
    """

    def __init__(self, method="rj", prior=None, model_prior=None, n_iter=None, burn=None, thin=None, chains=None,
                 kmax=None, top=None, model=None, random_state=None, n_jobs=None, verbose=False, keep_draws=False,
                 options=None, na=None):
        self.method = method
        self.prior = prior
        self.model_prior = model_prior
        self.n_iter = n_iter
        self.burn = burn
        self.thin = thin
        self.chains = chains
        self.kmax = kmax
        self.top = top
        self.model = model
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose
        self.keep_draws = keep_draws
        self.options = options
        self.na = na

    def fit(self, X, y, progress=None):
        """Fit to X (n x p) and class labels y (2, or 3 and more for the
        multinomial model). progress as in BayesianSelectionRegressor.fit."""
        self._forget()
        X, y = self._validate_data(X, y, dtype=np.float64, force_all_finite=self._finite())
        check_classification_targets(y)
        self._check_n_samples(X.shape[0])
        self.classes_, y_idx = np.unique(y, return_inverse=True)
        if len(self.classes_) < 2:
            raise ValueError("logistic regression needs at least 2 classes in y, not %d (%r)"
                             % (len(self.classes_), list(self.classes_)[:5]))
        multi = len(self.classes_) > 2
        self.input_names_ = self._input_names(X.shape[1])
        self.target_names_ = [_unique_name("class", set(self.input_names_))]
        data = _lib.Data(X, self.input_names_, source="X")
        # as the classes' indices in text: the library sorts whole-number
        # levels numerically, so its level k is classes_[k]
        data.add_labels(self.target_names_[0], [str(i) for i in y_idx])
        settings = self._options(self.method)
        settings["target"] = self.target_names_[0]
        settings["family"] = "multinomial" if multi else "binomial"
        fit = self._run(data, settings, progress)
        self._set_fitted(fit)
        if multi:  # per input: P(input in some class's subset)
            self.input_pip_ = np.asarray(fit.document["input_pip"]["pip"], dtype=float)
            self.feature_importances_ = self.input_pip_
        self._set_coef(fit)
        return self

    def _set_coef(self, fit):
        """coef_, intercept_ and coef_sd_ from the library's coefficient table
        (basel_fit_coef), by term: "x" with two classes, "k:x" (k the
        class's index in classes_) with more; left unset when the terms are
        not the inputs (a kernel basis)."""
        table = fit.coefficients()
        if table is None:
            return
        terms, _, _, values, _ = table
        mean, sd = values[:, _lib.COEF_VALUES.index("mean")], values[:, _lib.COEF_VALUES.index("sd")]
        multi = len(self.classes_) > 2
        rows = len(self.classes_) if multi else 1
        coef, coef_sd, icpt = np.zeros((rows, len(self.input_names_))), np.zeros((rows, len(self.input_names_))), \
            np.zeros(rows)
        col = {a: j for j, a in enumerate(self.input_names_)}
        for term, m, s in zip(terms, mean, sd):
            k, name = term.split(":", 1) if multi else ("0", term)
            if name == "(Intercept)":
                icpt[int(k)] = m
            elif name in col:
                coef[int(k), col[name]], coef_sd[int(k), col[name]] = m, s
            else:  # a basis other than the inputs (options={"basis": "gauss"}): no coefficient per input
                return
        self.coef_source_ = "coefficients"
        self.coef_, self.coef_sd_, self.intercept_ = coef, coef_sd, icpt

    def predict_proba(self, X):
        """n x len(classes_) class probabilities, columns in classes_'s order."""
        check_is_fitted(self, "basel_fit_")
        X = self._validate_data(X, dtype=np.float64, reset=False, force_all_finite="allow-nan")
        pred = self.basel_fit_.predict(self._data(X), self.model, 0.95)
        prob = pred.probabilities()
        out = np.zeros((prob.shape[0], len(self.classes_)))
        for k, name in enumerate(pred.classes()):
            out[:, int(name)] = prob[:, k]
        return out

    def decision_function(self, X):
        """As LogisticRegression's: for two classes the log-odds of
        classes_[1], (n,); for more, each class's log-probability, (n, K).
        Of the model-averaged probabilities (predict_proba), so predict is
        the class of the largest score."""
        P = self.predict_proba(X)
        with np.errstate(divide="ignore"):
            return np.log(P[:, 1]) - np.log(P[:, 0]) if P.shape[1] == 2 else np.log(P)

    def _more_tags(self):
        return {"binary_only": False}
