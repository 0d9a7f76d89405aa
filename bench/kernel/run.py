#!/usr/bin/python3
"""Kernel regression on real data, basel next to the peers on the same splits
(issue 16 items 4 and 6).

usage: bench/kernel/run.py DATASET [--splits N] [--basel build/basel] [--no-peers]
       [--peers rvm,svr,gp-ard,gp-iso] [--basis SPEC] [--iter T]
       [--extra "more basel options"] [--relevance none,select,grid,ml]
  DATASET: mcycle (MASS, 100/33), diabetes (scikit-learn, 342/100),
           boston (481/25, PEERS.md), sinc (Tipping, 100 points, RMSE vs f)

basel: `fit --method bd` with the defaults (a multi-scale Gaussian dictionary,
gauss:r=auto, inputs standardised by --standardize auto) plus --basis/--iter
given here; test error of the model average (bma), of the prevalence model,
the highest-probability model and the projection model (the fewest atoms whose
least-squares fit reproduces the average's fitted values, --projection-tol),
their numbers of atoms, the fit's CPU seconds (peers: wall seconds). --relevance runs basel once per mode listed
(bd --relevance: the inputs' relevance inside the kernel sampled with the
atoms, issue 16 item 2; ml: a scale per input by the type-II maximum likelihood of an
ARD Gaussian process, fixed before the run) and prints the inputs' mean PIP (or scale) over the splits.
Peers (--peers, comma-separated; default rvm,svr,gp-ard; Debian's r-cran-kernlab
and python3-sklearn): rvm, kernlab rvm (automatic width); svr, scikit-learn SVR
(RBF; C, gamma, epsilon by 5-fold CV); gp-ard, GaussianProcessRegressor with an
ARD RBF kernel times a constant plus white noise (ML-II, 3 restarts); gp-iso,
the same with one isotropic length scale (ML-II, no restarts: the "scikit-learn
GP (ML-II)" row of PEERS.md, 8.86 on Boston's 100 splits; 3 restarts give the same). Inputs standardised
on each training part for the peers, targets by normalize_y for the GPs.
Errors: mean +- standard error over the splits (MSE; sinc: RMSE against the
noise-free function); then, for each basel run and peer, the paired difference
per split, basel's model average minus the peer (mean +- se): with few test
rows per split the splits' own variation dominates the means' standard errors,
and the paired difference removes it.
"""
import argparse, csv, json, math, os, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "data", "regression")
SETS = {
    "mcycle": ("mcycle.csv", "mcycle_splits.csv", "accel"),
    "diabetes": ("diabetes.csv", "diabetes_splits.csv", "y"),
    "boston": ("boston.csv", "boston_splits_481_25.csv", "medv"),
}
PEERS = ("rvm", "svr", "gp-ard", "gp-iso")
GP_ISO_RESTARTS = 0  # PEERS.md's "scikit-learn GP (ML-II)" on Boston's 100 splits: 8.855 (8.86), as with 3


def read_csv(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def write_csv(path, header, rows):
    with open(path, "w") as f:
        f.write(",".join(header) + "\n")
        for r in rows:
            f.write(",".join(str(v) for v in r) + "\n")


def mean(v):
    return sum(v) / len(v)


def se(v):
    m = mean(v)
    return math.sqrt(sum((x - m) ** 2 for x in v) / (len(v) - 1) / len(v)) if len(v) > 1 else float("nan")


def show(name, err, atoms, secs, unit, what="fit s"):
    print("%-34s %s %8.4g +- %-7.3g  atoms %6.1f  %s %6.2f" % (name, unit, mean(err), se(err), mean(atoms), what, mean(secs)))


def split_sets(name, nsplit):
    """[(train rows, test rows, test y, truth or None)] and the header."""
    if name == "sinc":
        test = read_csv(os.path.join(DATA, "sinc_test.csv"))
        truth = [float(r["y"]) for r in test]
        by = {}
        for r in read_csv(os.path.join(DATA, "sinc_tipping_gauss_train.csv")):
            by.setdefault(int(r["rep"]), []).append([r["x"], r["y"]])
        tx = [[r["x"], r["y"]] for r in test]
        return ["x", "y"], "y", [(by[k], tx, truth) for k in sorted(by)[:nsplit]]
    data, spl, target = SETS[name]
    rows = read_csv(os.path.join(DATA, data))
    header = list(rows[0].keys())
    roles = {}
    for r in read_csv(os.path.join(DATA, spl)):
        roles.setdefault(int(r["split"]), {})[int(r["row"]) - 1] = r["role"]
    out = []
    for s in sorted(roles)[:nsplit]:
        tr = [[rows[i][h] for h in header] for i in range(len(rows)) if roles[s][i] == "train"]
        te = [[rows[i][h] for h in header] for i in range(len(rows)) if roles[s][i] == "test"]
        out.append((tr, te, [float(r[header.index(target)]) for r in te]))
    return header, target, out


def err_of(pred, truth, rmse):
    e = sum((a - b) ** 2 for a, b in zip(pred, truth)) / len(truth)
    return math.sqrt(e) if rmse else e


def run_basel(args, header, target, sets, rmse, tmp, relevance="none"):
    res = {"bma": [], "prevalence": [], "hpm": [], "projection": [], "k": [], "k_hpm": [], "k_proj": [], "s": [],
           "pip": []}
    for i, (tr, te, truth) in enumerate(sets):
        train, test, fit = (os.path.join(tmp, f) for f in ("train.csv", "test.csv", "fit.json"))
        write_csv(train, header, tr)
        write_csv(test, header, te)
        opts = ["--target", target, "--seed", str(i + 1), "--iter", str(args.iter)]
        if args.basis:
            opts += ["--basis", args.basis]
        opts += args.extra.split()
        if relevance != "none":
            opts += ["--relevance", relevance]
        c0 = os.times()
        subprocess.run([args.basel, "fit", train, "--quiet", "-o", fit] + opts, check=True)
        c1 = os.times()  # CPU seconds of the fit (user + system of the child): the machine may be loaded
        res["s"].append(c1.children_user + c1.children_system - c0.children_user - c0.children_system)
        doc = json.load(open(fit))
        for m in ("bma", "prevalence", "hpm", "projection"):
            out = os.path.join(tmp, "pred.csv")
            subprocess.run([args.basel, "predict", fit, test, "--model", m, "-o", out], check=True)
            res[m].append(err_of([float(r[target + "_mean"]) for r in read_csv(out)], truth, rmse))
        res["k"].append(len(doc["selected"]["prevalence"]))
        res["k_hpm"].append(len(doc["selected"]["hpm"]))
        res["k_proj"].append(len(doc["selected"]["projection"]))
        print("  split %d: bma %.4g prevalence %.4g (%d) hpm %.4g (%d) projection %.4g (%d)" % (
            i + 1, res["bma"][-1], res["prevalence"][-1], res["k"][-1], res["hpm"][-1], res["k_hpm"][-1],
            res["projection"][-1], res["k_proj"][-1]), file=sys.stderr, flush=True)
        if "relevance" in doc:  # select|grid: the inputs' PIPs; ml: their scales
            rel = doc["relevance"]
            res["inputs"] = rel["inputs"]
            res["pip"].append(rel["pip"] if "pip" in rel else rel["selected_scale"])
            res["what"] = "PIPs" if "pip" in rel else "scales (ml)"
    return res


def run_rvm(name, header, target, sets, tmp):
    """kernlab rvm through bench/kernel/rvm.R on the same splits."""
    rows, spl = [], []
    for s, (tr, te, _) in enumerate(sets, 1):
        for r in tr:
            spl.append([s, len(rows) + 1, "train"]), rows.append(r)
        for r in te:
            spl.append([s, len(rows) + 1, "test"]), rows.append(r)
    # rows repeat across splits; the script indexes rows, so give each split its own copy
    write_csv(os.path.join(tmp, "all.csv"), header, rows)
    write_csv(os.path.join(tmp, "all_splits.csv"), ["split", "row", "role"], spl)
    out = subprocess.run(["Rscript", os.path.join(ROOT, "bench", "kernel", "rvm.R"), os.path.join(tmp, "all.csv"),
                          os.path.join(tmp, "all_splits.csv"), target, str(len(sets))],
                         check=True, capture_output=True, text=True).stdout
    lines = [l for l in out.splitlines() if l.startswith("split,") or l[:1].isdigit()]  # kernlab prints notes
    return [(float(r["mse"]), int(r["vectors"]), float(r["seconds"])) for r in csv.DictReader(lines)]


def standardised(ti, tr, te):
    """Inputs and target of a split as arrays, inputs standardised on the training part."""
    import numpy as np
    A, B = np.array(tr, float), np.array(te, float)
    Xtr, ytr, Xte = np.delete(A, ti, 1), A[:, ti], np.delete(B, ti, 1)
    mu, sd = Xtr.mean(0), Xtr.std(0, ddof=1)
    return (Xtr - mu) / sd, ytr, (Xte - mu) / sd


def run_svr(header, target, sets, rmse):
    from sklearn.model_selection import GridSearchCV
    from sklearn.svm import SVR
    out = {"e": [], "k": [], "s": []}
    for s, (tr, te, truth) in enumerate(sets, 1):
        Xtr, ytr, Xte = standardised(header.index(target), tr, te)
        ym, ys = ytr.mean(), ytr.std()
        t0 = time.time()
        grid = {"C": [0.1, 1, 10, 100, 1000], "gamma": [0.01, 0.03, 0.1, 0.3, 1, 3], "epsilon": [0.01, 0.1, 0.3]}
        cv = GridSearchCV(SVR(kernel="rbf"), grid, cv=5).fit(Xtr, (ytr - ym) / ys)
        out["s"].append(time.time() - t0)
        out["e"].append(err_of(cv.predict(Xte) * ys + ym, truth, rmse))
        out["k"].append(len(cv.best_estimator_.support_))
        print("  svr split %d: %.4g" % (s, out["e"][-1]), file=sys.stderr, flush=True)
    return out


def run_gp(header, target, sets, rmse, ard):
    """GP ML-II: constant * RBF + white noise; ard: a length scale per input (3 restarts),
    else one length scale (GP_ISO_RESTARTS)."""
    import warnings
    import numpy as np
    warnings.filterwarnings("ignore")  # ML-II's length scales at their bound: irrelevant inputs
    from sklearn.gaussian_process import GaussianProcessRegressor
    from sklearn.gaussian_process.kernels import RBF, WhiteKernel, ConstantKernel
    out = {"e": [], "k": [], "s": []}
    for s, (tr, te, truth) in enumerate(sets, 1):
        Xtr, ytr, Xte = standardised(header.index(target), tr, te)
        if ard:
            rbf = RBF(length_scale=np.ones(Xtr.shape[1]), length_scale_bounds=(1e-2, 1e3))
        else:
            rbf = RBF(length_scale=1.0)
        t0 = time.time()
        g = GaussianProcessRegressor(ConstantKernel(1.0) * rbf + WhiteKernel(0.1), normalize_y=True,
                                     n_restarts_optimizer=3 if ard else GP_ISO_RESTARTS, random_state=s).fit(Xtr, ytr)
        out["s"].append(time.time() - t0)
        out["e"].append(err_of(g.predict(Xte), truth, rmse))
        out["k"].append(len(ytr))
        print("  gp-%s split %d: %.4g" % ("ard" if ard else "iso", s, out["e"][-1]), file=sys.stderr, flush=True)
    return out


def run_peer(peer, name, header, target, sets, rmse, tmp):
    """{"e": per-split errors, "k": vectors, "s": wall seconds} and the peer's label."""
    if peer == "rvm":
        rv = run_rvm(name, header, target, sets, tmp)
        e = [r[0] for r in rv]
        if rmse:  # rvm.R reports MSE against the test column, here the noise-free f
            e = [math.sqrt(x) for x in e]
        return {"e": e, "k": [r[1] for r in rv], "s": [r[2] for r in rv]}, "kernlab rvm (automatic width)"
    if peer == "svr":
        return run_svr(header, target, sets, rmse), "scikit-learn SVR (C, gamma, eps by CV)"
    if peer == "gp-ard":
        return run_gp(header, target, sets, rmse, True), "scikit-learn GP, ARD (ML-II)"
    return run_gp(header, target, sets, rmse, False), "scikit-learn GP, isotropic (ML-II)"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dataset", choices=sorted(SETS) + ["sinc"])
    ap.add_argument("--splits", type=int, default=20)
    ap.add_argument("--basel", default=os.path.join(ROOT, "build", "basel"))
    ap.add_argument("--basis", default="gauss")
    ap.add_argument("--iter", type=int, default=5000)
    ap.add_argument("--extra", default="")
    ap.add_argument("--no-peers", action="store_true")
    ap.add_argument("--peers", default="rvm,svr,gp-ard", help="comma-separated from " + ",".join(PEERS))
    ap.add_argument("--relevance", default="none", help="comma-separated bd --relevance modes to run")
    args = ap.parse_args()
    peers = [] if args.no_peers else args.peers.split(",")
    for p in peers:
        if p not in PEERS:
            ap.error("--peers: unknown peer %r (choose from %s)" % (p, ",".join(PEERS)))
    header, target, sets = split_sets(args.dataset, args.splits)
    rmse = args.dataset == "sinc"
    unit = "RMSE vs f" if rmse else "MSE"
    print("== %s: %d splits, %d train / %d test rows ==" % (args.dataset, len(sets), len(sets[0][0]), len(sets[0][1])))
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        for mode in args.relevance.split(","):
            b = run_basel(args, header, target, sets, rmse, tmp, mode)
            label = "basel bd %s" % (args.basis or "(default basis)")
            if args.extra:
                label += " " + args.extra
            label += "" if mode == "none" else " --relevance " + mode
            runs.append((label, b))
            print(label)
            show("  basel bd, model average", b["bma"], b["k"], b["s"], unit, "fit cpu s")
            show("  basel bd, prevalence model", b["prevalence"], b["k"], b["s"], unit, "fit cpu s")
            show("  basel bd, highest-probability model", b["hpm"], b["k_hpm"], b["s"], unit, "fit cpu s")
            show("  basel bd, projection model", b["projection"], b["k_proj"], b["s"], unit, "fit cpu s")
            if b["pip"]:
                pips = [mean([p[a] for p in b["pip"]]) for a in range(len(b["inputs"]))]
                print("  input %s (mean over splits): " % b["what"] +
                      " ".join("%s %.2f" % (n, p) for n, p in zip(b["inputs"], pips)))
            sys.stdout.flush()
        for p in peers:
            r, name = run_peer(p, args.dataset, header, target, sets, rmse, tmp)
            show("  " + name, r["e"], r["k"], r["s"], unit)
            for label, b in runs:  # paired by split: the same test rows, so their own difficulty cancels
                d = [x - y for x, y in zip(b["bma"], r["e"])]
                print("  paired, %s model average minus %s: %s %+.4g +- %.3g" % (label, p, unit, mean(d), se(d)))
            sys.stdout.flush()

if __name__ == "__main__":
    main()
