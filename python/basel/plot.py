"""Figures of a basel fit with matplotlib, and the `basel plot` command.

Every function takes a fit in any form: a fitted estimator, a basel.Fit, the
document as a dict, or the path of a FIT.json; draws_ (keep_draws=True) or
a draws CSV (`basel fit --draws`) feed the traces. Each draws into ax (a new
figure when None) and returns the axes.

  pip(fit)          PIPs as bars, largest first, with Monte Carlo error bars
                    (+- 2 standard errors from the per-chain PIPs,
                    diagnostics.pip_chain) and the chains' own PIPs as dots
  model_size(fit)   the posterior of the model size, k_opt marked
  model_space(fit)  the top models x the atoms in them, coloured by log
                    posterior odds against the best (as BAS's image())
  trace(draws)      the model size along each chain
  fit1d(fit, X, y)  a 1-D kernel fit: the model-averaged mean with its 95%
                    band on a grid, the data, the selected centres, and the
                    centres' PIPs below
  overview(fit)     the panels that apply to the fit, on one figure

From the command line (python3 -m basel.plot, which `basel plot` runs):
  basel plot FIT.json -o fig.png [--kind overview|pip|size|models|trace|fit]
             [--draws DRAWS.csv] [--data TRAIN.csv] [--top N]
"""
import argparse
import json
import os
import sys

import numpy as np

__all__ = ["pip", "model_size", "model_space", "trace", "fit1d", "overview", "main"]

KINDS = ("overview", "pip", "size", "models", "trace", "fit")


# ------------------------------------------------------------------ inputs

def _document(fit):
    """FIT.json as a dict, from an estimator, a Fit, a dict or a path."""
    if isinstance(fit, dict):
        return fit
    if isinstance(fit, (str, bytes, os.PathLike)):
        with open(fit, encoding="utf-8") as f:
            return json.load(f)
    if hasattr(fit, "basel_fit_"):
        return fit.basel_fit_.document
    if hasattr(fit, "document"):
        return fit.document
    raise TypeError("expected a fitted basel estimator, a basel.Fit, a FIT.json dict or path; got %r" % type(fit))


def _fit_handle(fit):
    """A basel.Fit that can predict, from any form _document takes."""
    from ._lib import Fit
    if isinstance(fit, Fit):
        return fit
    if hasattr(fit, "basel_fit_"):
        return fit.basel_fit_
    if isinstance(fit, (str, bytes, os.PathLike)):
        return Fit.read_json(fit)
    return Fit.from_json(json.dumps(fit))


def read_draws(path):
    """A draws CSV (`basel fit --draws`) as a DataFrame, '#' lines skipped."""
    import pandas as pd
    return pd.read_csv(path, comment="#")


def _draws(draws):
    """The draws as a DataFrame, or None: from a DataFrame, a draws CSV
    path, an estimator (its draws_) or a basel.Fit (Fit.draws); a FIT.json
    (a path ending in .json, or its dict) holds none."""
    from ._lib import Fit
    if draws is None or isinstance(draws, dict):
        return None
    if isinstance(draws, (str, os.PathLike)):
        return None if os.fspath(draws).endswith(".json") else read_draws(draws)
    if isinstance(draws, Fit):
        return draws.draws()
    if hasattr(draws, "get_params"):  # an estimator, with draws_ if it kept them
        return getattr(draws, "draws_", None)
    return draws


def _axes(ax, size=(6, 4)):
    import matplotlib.pyplot as plt
    if ax is None:
        _, ax = plt.subplots(figsize=size, layout="constrained")
    return ax


def _atom_names(doc):
    return [a["name"] for a in doc.get("atoms", [])]


def _title(doc, what):
    return "%s (%s, n = %d)" % (what, doc["method"], doc["n"])


# ------------------------------------------------------------------ panels

def pip(fit, ax=None, top=25):
    """PIPs of the top atoms as horizontal bars, with +- 2 Monte Carlo
    standard errors from the per-chain PIPs where the fit has them."""
    doc = _document(fit)
    if "pip" not in doc:
        raise ValueError("a fit of method %s has no PIPs" % doc["method"])
    ax = _axes(ax, (6, 0.25 * min(top, len(doc["pip"])) + 1.2))
    p = np.asarray(doc["pip"], dtype=float)
    names = _atom_names(doc)
    order = np.argsort(-p, kind="stable")[:top]
    ypos = np.arange(len(order))[::-1]
    chains = doc.get("diagnostics", {}).get("pip_chain")
    xerr = None
    if chains is not None and len(chains) > len(p):
        pc = np.asarray(chains, dtype=float).reshape(-1, len(p))  # chains x atoms, row-major
        se = pc.std(axis=0, ddof=1) / np.sqrt(pc.shape[0])
        xerr = 2 * se[order]
        for c in range(pc.shape[0]):
            ax.plot(pc[c, order], ypos, "o", ms=2.5, color="0.25", alpha=0.6,
                    label="per chain" if c == 0 else None, zorder=3)
    ax.barh(ypos, p[order], xerr=xerr, color="#4477aa", ecolor="#cc3311", capsize=2,
            error_kw={"elinewidth": 1.2}, label="PIP" + (" +- 2 MC s.e." if xerr is not None else ""))
    ax.axvline(0.5, color="0.5", lw=0.8, ls="--")
    ax.set_yticks(ypos, [names[j] for j in order], fontsize=8)
    ax.set_xlim(0, 1.02)
    ax.set_xlabel("posterior inclusion probability")
    shown = "" if len(order) == len(p) else " (top %d of %d)" % (len(order), len(p))
    ax.set_title(_title(doc, "PIPs" + shown), fontsize=10)
    ax.legend(loc="lower right", fontsize=7)
    return ax


def model_size(fit, ax=None):
    """The posterior of the model size, the most probable size marked."""
    doc = _document(fit)
    ms = doc.get("model_size")
    if ms is None:
        raise ValueError("a fit of method %s has no model-size posterior" % doc["method"])
    ax = _axes(ax)
    k, prob = np.asarray(ms["k"]), np.asarray(ms["prob"], dtype=float)
    last = int(np.nonzero(prob > 1e-4)[0].max()) + 2 if np.any(prob > 1e-4) else len(k)
    k, prob = k[:last], prob[:last]
    colours = ["#cc3311" if kk == doc.get("k_opt") else "#4477aa" for kk in k]
    ax.bar(k, prob, color=colours, width=0.8)
    ax.set_xlabel("model size k" + (" (RBFs)" if doc["method"] == "rbf" else ""))
    ax.set_ylabel("posterior probability")
    if "k_opt" in doc:
        ax.text(0.98, 0.95, "k_opt = %d" % doc["k_opt"], transform=ax.transAxes, ha="right", va="top", fontsize=8,
                color="#cc3311")
    ax.set_title(_title(doc, "model size"), fontsize=10)
    return ax


def model_space(fit, ax=None, top=20):
    """The top models (columns, most probable first) x the atoms in any of
    them (rows, largest PIP first): a cell is coloured when the model has the
    atom, by the model's log posterior odds against the best model."""
    doc = _document(fit)
    models = doc.get("models")
    if not models:
        raise ValueError("a fit of method %s lists no models" % doc["method"])
    ax = _axes(ax)
    models = models[:top]
    names = _atom_names(doc)
    p = np.asarray(doc.get("pip", np.zeros(len(names))), dtype=float)
    used = sorted({a for m in models for a in m["atoms"]}, key=lambda a: (-p[a], a))
    hidden = len(used) - top
    used = used[:top]  # rows: at most top atoms, the largest PIPs
    row = {a: i for i, a in enumerate(used)}
    prob = np.array([m["prob"] for m in models], dtype=float)
    odds = np.log(np.maximum(prob, 1e-300) / prob.max())
    img = np.full((max(len(used), 1), len(models)), np.nan)
    for c, m in enumerate(models):
        for a in m["atoms"]:
            if a in row:
                img[row[a], c] = odds[c]
    import matplotlib.pyplot as plt
    cmap = plt.get_cmap("viridis").copy()
    cmap.set_bad("0.93")
    lo = min(odds.min(), -1e-9)
    im = ax.imshow(img, aspect="auto", cmap=cmap, vmin=lo, vmax=0, interpolation="nearest")
    ax.set_yticks(range(len(used)), [names[a] for a in used], fontsize=8)
    ax.set_xticks(range(len(models)), [str(i + 1) for i in range(len(models))], fontsize=7)
    ax.set_xlabel("model rank (posterior probability: best %.3g)" % prob.max())
    ax.set_xticks(np.arange(-0.5, len(models)), minor=True)
    ax.set_yticks(np.arange(-0.5, len(used)), minor=True)
    ax.grid(which="minor", color="white", lw=0.6)
    ax.tick_params(which="minor", length=0)
    ax.figure.colorbar(im, ax=ax, label="log posterior odds vs best", shrink=0.9)
    more = "; %d rarer atoms not shown" % hidden if hidden > 0 else ""
    ax.set_title(_title(doc, "model space: top %d models%s" % (len(models), more)), fontsize=10)
    return ax


def trace(draws, ax=None):
    """The model size along each chain, from draws (a DataFrame with chain
    and size columns, a draws CSV path, an estimator fitted with
    keep_draws=True, or its basel.Fit)."""
    d = _draws(draws)
    if d is None or len(d) == 0:
        raise ValueError("no draws: fit with keep_draws=True (or `basel fit --draws DRAWS.csv`)")
    ax = _axes(ax, (7, 3))
    import matplotlib.pyplot as plt
    colours = plt.get_cmap("tab10")
    width = 1
    for i, (c, g) in enumerate(d.groupby("chain", sort=True)):
        size = g["size"].to_numpy(dtype=float)
        t = np.arange(len(size))
        ax.plot(t, size, lw=0.4, alpha=0.25, color=colours(i % 10), drawstyle="steps-post")
        width = max(1, len(size) // 50)
        run = np.convolve(size, np.ones(width) / width, mode="valid")
        ax.plot(t[width - 1:], run, lw=1.6, color=colours(i % 10), label="chain %d" % c)
    ax.set_xlabel("kept draw")
    ax.set_ylabel("model size")
    ax.set_title("model size trace, %d draws (bold: running means)" % len(d), fontsize=10)
    ax.legend(fontsize=7, ncol=min(4, d["chain"].nunique()), loc="upper right")
    return ax


def _centres(handle, doc):
    """(atom centres, network centres) of a fit of one input (handle: its
    basel.Fit), in the input's units, from the library (basel_fit_centres):
    the first when the centres are the atoms' (aligned with the PIPs), the
    second when they are the kernels of kept networks (rbf, anneal); None
    for what the fit has not."""
    c = handle.centres()
    if c is None or c.shape[1] != 1:
        return None, None
    c = c[:, 0]
    return (c, None) if "pip" in doc and len(doc["pip"]) == len(c) else (None, c)


def fit1d(fit, X=None, y=None, ax=None, model=None, grid=400, which="prevalence"):
    """A fit of one input: the predictive mean (the model-averaged one by
    default) with its 95% band for a new observation on a grid, the data
    (X, y) when given, the centres of the selected model (which: "hpm",
    "median", "prevalence"; anneal's network; rbf's centres as a rug), and
    below, where the fit has PIPs, each centre's PIP."""
    import matplotlib.pyplot as plt
    from ._lib import Data, method_models
    doc = _document(fit)
    if len(doc["inputs"]) != 1:
        raise ValueError("fit1d draws fits of one input; this one has %d" % len(doc["inputs"]))
    handle = _fit_handle(fit)
    centres, nc = _centres(handle, doc)
    if X is not None:
        x = np.asarray(X, dtype=float).reshape(-1)
        lo, hi = x.min(), x.max()
    elif centres is not None:
        lo, hi = centres.min(), centres.max()
    else:
        if nc is None or len(nc) == 0:
            raise ValueError("give X: the fit does not say where its input lies")
        lo, hi = np.percentile(nc, [1, 99])
    pad = 0.02 * (hi - lo or 1)
    g = np.linspace(lo - pad, hi + pad, grid)
    mean, lower, upper = handle.predict(Data(g[:, None], doc["inputs"], "<grid>"), model, 0.95).intervals(1)
    has_pip = "pip" in doc and centres is not None
    if ax is None:
        if has_pip:
            fig, (ax, ax2) = plt.subplots(2, 1, figsize=(7, 5), sharex=True, height_ratios=[3, 1],
                                          layout="constrained")
        else:
            fig, ax = plt.subplots(figsize=(7, 4), layout="constrained")
            ax2 = None
    else:
        ax2 = None
    if X is not None and y is not None:
        ax.plot(x, np.asarray(y, dtype=float).reshape(len(x), -1)[:, 0], ".", ms=2, color="0.6", alpha=0.5,
                label="data", zorder=1)
    ax.fill_between(g, lower[:, 0], upper[:, 0], color="#4477aa", alpha=0.25, lw=0, label="95% predictive band")
    name = model or method_models(doc["method"])[0]
    ax.plot(g, mean[:, 0], color="#4477aa", lw=1.6,
            label="model-averaged mean" if name == "bma" else "mean (%s model)" % name)
    sel = doc.get("selected", {}).get(which)
    if sel is not None and centres is not None and len(sel):
        # kernels at training points: replicated inputs share a centre
        cx, times = np.unique(centres[np.asarray(sel, dtype=int)], return_counts=True)
        cy = np.interp(cx, g, mean[:, 0])
        ax.plot(cx, cy, "v", color="#cc3311", ms=6, label="%s model's centres (%d)" % (which, len(sel)), zorder=4)
        for xx, yy, t in zip(cx, cy, times):
            if t > 1:
                ax.annotate("x%d" % t, (xx, yy), textcoords="offset points", xytext=(5, 4), fontsize=7,
                            color="#cc3311")
    elif nc is not None and len(nc):
        if name == "map":  # one network (anneal's optimum): its centres on the curve
            ax.plot(nc, np.interp(nc, g, mean[:, 0]), "v", color="#cc3311", ms=6,
                    label="centres (%d)" % len(nc), zorder=4)
        else:
            ymin = ax.get_ylim()[0]
            ax.plot(nc, np.full(len(nc), ymin), "|", color="#cc3311", ms=10, alpha=0.05,
                    label="centres of the kept networks")
    ax.set_ylabel(doc["targets"][0])
    ax.legend(fontsize=7, loc="best")
    ax.set_title(_title(doc, "fit of %s" % doc["targets"][0]), fontsize=10)
    if ax2 is not None:
        p = np.asarray(doc["pip"], dtype=float)
        at, inv = np.unique(centres, return_inverse=True)
        if len(at) < len(centres):  # replicated inputs: the expected number of kernels at each centre
            ax2.vlines(at, 0, np.bincount(inv, weights=p), color="#4477aa", lw=1.2)
            ax2.set_ylabel("sum of PIPs\nat the centre", fontsize=8)
        else:
            ax2.vlines(centres, 0, p, color="#4477aa", lw=0.8)
            ax2.set_ylim(0, 1.02)
            ax2.set_ylabel("PIP")
        ax2.set_xlabel(doc["inputs"][0] + " (kernel centre)")
    else:
        ax.set_xlabel(doc["inputs"][0])
    return ax


def _is_1d_kernel(handle, doc):
    """A fit of one input with kernels (the library knows their centres)."""
    return len(doc["inputs"]) == 1 and handle.centres() is not None


def overview(fit, draws=None, X=None, y=None, top=20):
    """One figure with the panels that apply to the fit: PIPs, model size,
    model space, the size trace (with draws), and the 1-D fit."""
    import matplotlib.pyplot as plt
    doc = _document(fit)
    draws = _draws(draws if draws is not None else (fit if hasattr(fit, "draws_") else None))
    panels = []
    if "pip" in doc:
        panels.append(lambda a: pip(doc, a, top=top))
    if "model_size" in doc:
        panels.append(lambda a: model_size(doc, a))
    if doc.get("models"):
        panels.append(lambda a: model_space(doc, a, top=top))
    if draws is not None and len(draws):
        panels.append(lambda a: trace(draws, a))
    if len(doc["inputs"]) == 1:  # the library loads the fit once, for the test and the panel
        handle = _fit_handle(fit)
        if _is_1d_kernel(handle, doc):
            panels.append(lambda a: fit1d(handle, X, y, ax=a))
    if not panels:
        raise ValueError("nothing to plot for a fit of method %s" % doc["method"])
    cols = 1 if len(panels) == 1 else 2
    rows = (len(panels) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(6.2 * cols, 4.2 * rows), layout="constrained", squeeze=False)
    for a, draw in zip(axes.flat, panels):
        draw(a)
    for a in list(axes.flat)[len(panels):]:
        a.set_visible(False)
    return fig


# ------------------------------------------------------------ command line

def _read_data(path, doc):
    import pandas as pd
    df = pd.read_csv(path)
    missing = [c for c in doc["inputs"] + doc["targets"][:1] if c not in df.columns]
    if missing:
        raise ValueError("%s has no column %s" % (path, ", ".join(repr(c) for c in missing)))
    return df[doc["inputs"]].to_numpy(dtype=float), df[doc["targets"][0]].to_numpy()


def main(argv=None):
    """`basel plot`: draw a figure of FIT.json into a PNG, PDF or SVG file."""
    ap = argparse.ArgumentParser(prog="basel plot", description="Draw a figure of a basel fit (FIT.json).")
    ap.add_argument("fit", metavar="FIT.json")
    ap.add_argument("-o", "--output", required=True, metavar="FIG.png",
                    help="the figure file; its extension picks the format (png, pdf, svg)")
    ap.add_argument("--kind", choices=KINDS, default="overview",
                    help="overview (default: every panel that applies), pip, size, models, trace, fit")
    ap.add_argument("--draws", metavar="DRAWS.csv", help="draws from `basel fit --draws` (for trace)")
    ap.add_argument("--data", metavar="TRAIN.csv", help="training data to show in the 1-D fit")
    ap.add_argument("--top", type=int, default=20, help="atoms and models shown (default 20)")
    ap.add_argument("--dpi", type=int, default=110)
    args = ap.parse_args(argv)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from ._lib import BaselError, Fit
    try:
        fit = Fit.read_json(args.fit)  # the library's checks and messages
        doc = fit.document
        X = y = None
        if args.data:
            X, y = _read_data(args.data, doc)
        draws = read_draws(args.draws) if args.draws else None
        if args.kind == "overview":
            fig = overview(fit, draws, X, y, top=args.top)
        else:
            ax = {"pip": lambda: pip(doc, top=args.top), "size": lambda: model_size(doc),
                  "models": lambda: model_space(doc, top=args.top), "trace": lambda: trace(draws),
                  "fit": lambda: fit1d(fit, X, y)}[args.kind]()
            fig = ax.figure
        fig.savefig(args.output, dpi=args.dpi)
        plt.close(fig)
    except OSError as e:
        print("basel plot: %s: %s" % (e.filename or args.output, e.strerror or e), file=sys.stderr)
        return 2
    except (ValueError, KeyError, BaselError) as e:
        msg = str(e) if not isinstance(e, KeyError) else "%s: not a basel fit (no key %s)" % (args.fit, e)
        print("basel plot: %s" % msg, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
