#!/usr/bin/python3
"""bench/glm/run.py: logistic regression with variable selection (basel
--family binomial, rj by default or --method bd | ssvs, default settings) next to glmnet (L1, lambda by CV),
scikit-learn's L1 logistic regression (C by CV) and, for the model
probabilities, BAS's bas.glm, in the same run, on Pima and Ionosphere
(data/classification, split files: split 0 and splits 1..N); Wine's three
classes by multinomial logistic regression (basel --family multinomial,
glmnet family "multinomial", scikit-learn's multinomial L1; bas.glm has no
multinomial family).

    bench/glm/run.py [--splits N] [--data pima,ionosphere,wine] [--no-bas] [--method rj|bd|ssvs] [--prior SPEC]

Per split: test accuracy, log-loss, inputs kept (basel: PIP >= 0.5, for
Wine the input's PIP of being in some class's subset; L1: a nonzero
coefficient), CPU seconds; basel's largest split R-hat of an indicator
(an input's, for Wine a class's input's) over its 4 chains; split 0: every
input's PIP (basel, BAS).
"""
import argparse, csv, json, math, os, resource, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BASEL = os.path.join(ROOT, "build", "basel")
DATA = {  # file, split file, inputs left out (Ionosphere's V2 is constant)
    "pima": ("pima.csv", "pima_splits_200_332.csv", []),
    "ionosphere": ("ionosphere.csv", "ionosphere_splits_175_176.csv", ["V2"]),
    "wine": ("wine.csv", "wine_splits_62_63.csv", []),
}
PRIOR = []  # --prior for basel (main: --prior), else its default


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def read(name):
    path, spath, drop = DATA[name]
    rows = list(csv.reader(open(os.path.join(ROOT, "data/classification", path))))
    head, body = rows[0], rows[1:]
    keep = [i for i, h in enumerate(head) if h not in drop]
    splits = {}
    for r in csv.DictReader(open(os.path.join(ROOT, "data/classification", spath))):
        splits.setdefault(int(r["split"]), {}).setdefault(r["role"], []).append(int(r["row"]) - 1)
    return [head[i] for i in keep], [[b[i] for i in keep] for b in body], splits


def write(path, head, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(head)
        w.writerows(rows)


def scores(p1, truth, pos):
    acc = sum((p > 0.5) == (t == pos) for p, t in zip(p1, truth)) / len(truth)
    eps = 1e-15
    ll = -sum(math.log(max(p, eps) if t == pos else max(1 - p, eps)) for p, t in zip(p1, truth)) / len(truth)
    return 100 * acc, ll


def scores_multi(P, truth, lev):
    """Accuracy (%) and log-loss of class probabilities P (rows of len(lev))."""
    acc = sum(lev[max(range(len(lev)), key=lambda k: p[k])] == t for p, t in zip(P, truth)) / len(truth)
    ll = -sum(math.log(max(p[lev.index(t)], 1e-15)) for p, t in zip(P, truth)) / len(truth)
    return 100 * acc, ll


def sklearn_l1_multi(tr, te, lev):
    import numpy as np
    from sklearn.linear_model import LogisticRegressionCV
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    X = np.array([[float(v) for v in r[:-1]] for r in tr]); Xt = np.array([[float(v) for v in r[:-1]] for r in te])
    y = np.array([lev.index(r[-1]) for r in tr])
    t0 = time.process_time()
    m = make_pipeline(StandardScaler(), LogisticRegressionCV(Cs=20, cv=10, penalty="l1", solver="saga",
                                                             multi_class="multinomial", max_iter=20000, random_state=0))
    m.fit(X, y)
    P = m.predict_proba(Xt)
    cpu = time.process_time() - t0
    kept = int(np.sum(np.any(m[-1].coef_ != 0, axis=0)))
    return [list(p) for p in P], cpu, kept


def run_split_multi(name, head, rows, sp, split, tmp):
    """Three or more classes: multinomial logistic regression."""
    tr = [rows[i] for i in sp["train"]]; te = [rows[i] for i in sp["test"]]
    trf, tef = os.path.join(tmp, "train.csv"), os.path.join(tmp, "test.csv")
    write(trf, head, tr); write(tef, head, te)
    target = head[-1]
    lev = sorted(set(r[-1] for r in tr), key=lambda v: (float(v), v) if v.replace(".", "", 1).isdigit() else (0, v))
    truth = [r[-1] for r in te]
    out = {}
    fit, pred = os.path.join(tmp, "fit.json"), os.path.join(tmp, "pred.csv")
    c0, w0 = child_cpu(), time.time()
    subprocess.run([BASEL, "fit", trf, "--target", target, "--family", "multinomial", "--method", "rj",
                    "--seed", str(1 + split), "--quiet", "-o", fit] + PRIOR, check=True)
    subprocess.run([BASEL, "predict", fit, tef, "-o", pred], check=True)
    cpu, wall = child_cpu() - c0, time.time() - w0
    doc = json.load(open(fit))
    P = [[float(r["p_" + l]) for l in lev] for r in csv.DictReader(open(pred))]
    acc, ll = scores_multi(P, truth, lev)
    rh = [x for x in doc["diagnostics"].get("rhat_pip", []) if isinstance(x, (int, float))]
    ipip = doc["input_pip"]["pip"]
    out["basel"] = dict(acc=acc, ll=ll, kept=sum(p >= 0.5 for p in ipip), cpu=cpu, wall=wall,
                        rhat=max(rh) if rh else float("nan"), pip=ipip, class_pip=doc["pip"],
                        atoms=doc["atoms"] if "atoms" in doc else None, note=doc["diagnostics"]["note"])
    rout = os.path.join(tmp, "r.txt")
    env = dict(os.environ, R_LIBS="/work/peers/Rlib")
    subprocess.run(["Rscript", os.path.join(ROOT, "bench/glm/peers.R"), trf, tef, target, rout],
                   check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    kv = {l.split(" ", 1)[0]: l.split(" ", 1)[1] if " " in l else "" for l in open(rout).read().splitlines()}
    g = [float(v) for v in kv["glmnet_p"].split()]
    K = len(lev)
    glev = kv["glmnet_levels"].split()
    G = [[g[i * K + glev.index(l)] for l in lev] for i in range(len(te))]
    acc, ll = scores_multi(G, truth, lev)
    out["glmnet"] = dict(acc=acc, ll=ll, kept=int(kv["glmnet_kept"]), cpu=float(kv["glmnet_cpu"]))
    P, cpu, kept = sklearn_l1_multi(tr, te, lev)
    acc, ll = scores_multi(P, truth, lev)
    out["sklearn_l1"] = dict(acc=acc, ll=ll, kept=kept, cpu=cpu)
    return out


def sklearn_l1(tr, te, head):
    import numpy as np
    from sklearn.linear_model import LogisticRegressionCV
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    X = np.array([[float(v) for v in r[:-1]] for r in tr]); Xt = np.array([[float(v) for v in r[:-1]] for r in te])
    lev = sorted(set(r[-1] for r in tr))
    y = np.array([r[-1] == lev[1] for r in tr], dtype=int)
    t0 = time.process_time()
    m = make_pipeline(StandardScaler(), LogisticRegressionCV(Cs=20, cv=10, penalty="l1", solver="saga",
                                                             max_iter=20000, random_state=0))
    m.fit(X, y)
    p = m.predict_proba(Xt)[:, 1]
    cpu = time.process_time() - t0
    kept = int(np.sum(m[-1].coef_ != 0))
    return list(p), cpu, kept


def run_split(name, head, rows, sp, split, tmp, bas, method="rj"):
    if len(set(r[-1] for r in rows)) > 2:  # multinomial: rj (bd and ssvs have no multinomial model)
        return run_split_multi(name, head, rows, sp, split, tmp)
    tr = [rows[i] for i in sp["train"]]; te = [rows[i] for i in sp["test"]]
    trf, tef = os.path.join(tmp, "train.csv"), os.path.join(tmp, "test.csv")
    write(trf, head, tr); write(tef, head, te)
    target = head[-1]
    lev = sorted(set(r[-1] for r in tr))
    truth = [r[-1] for r in te]
    out = {}
    # basel
    fit, pred = os.path.join(tmp, "fit.json"), os.path.join(tmp, "pred.csv")
    c0, w0 = child_cpu(), time.time()
    subprocess.run([BASEL, "fit", trf, "--target", target, "--family", "binomial", "--method", method,
                    "--seed", str(1 + split), "--quiet", "-o", fit] + PRIOR, check=True)
    subprocess.run([BASEL, "predict", fit, tef, "-o", pred], check=True)
    cpu, wall = child_cpu() - c0, time.time() - w0
    doc = json.load(open(fit))
    p1 = [float(r["p_" + lev[1]]) for r in csv.DictReader(open(pred))]
    acc, ll = scores(p1, truth, lev[1])
    rh = [x for x in doc["diagnostics"].get("rhat_pip", []) if isinstance(x, (int, float))]
    out["basel"] = dict(acc=acc, ll=ll, kept=sum(p >= 0.5 for p in doc["pip"]), cpu=cpu, wall=wall,
                        rhat=max(rh) if rh else float("nan"), pip=doc["pip"], note=doc["diagnostics"]["note"])
    # R peers
    rout = os.path.join(tmp, "r.txt")
    c0 = child_cpu()
    env = dict(os.environ, R_LIBS="/work/peers/Rlib")
    subprocess.run(["Rscript", os.path.join(ROOT, "bench/glm/peers.R"), trf, tef, target, rout] + (["bas"] if bas else []),
                   check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    kv = {l.split(" ", 1)[0]: l.split(" ", 1)[1] if " " in l else "" for l in open(rout).read().splitlines()}
    g = [float(v) for v in kv["glmnet_p"].split()]
    acc, ll = scores(g, truth, lev[1])
    out["glmnet"] = dict(acc=acc, ll=ll, kept=int(kv["glmnet_kept"]), cpu=float(kv["glmnet_cpu"]))
    if bas:
        b = [float(v) for v in kv["bas_p"].split()]
        acc, ll = scores(b, truth, lev[1])
        out["bas"] = dict(acc=acc, ll=ll, cpu=float(kv["bas_cpu"]), pip=[float(v) for v in kv["bas_pip"].split()],
                          method=kv["bas_method"], kept=sum(float(v) >= 0.5 for v in kv["bas_pip"].split()))
    p, cpu, kept = sklearn_l1(tr, te, head)
    acc, ll = scores(p, truth, lev[1])
    out["sklearn_l1"] = dict(acc=acc, ll=ll, kept=kept, cpu=cpu)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--splits", type=int, default=0, help="also splits 1..N (default 0: split 0 only)")
    ap.add_argument("--data", default="pima,ionosphere,wine")
    ap.add_argument("--no-bas", action="store_true")
    ap.add_argument("--json", default="", help="also write every number to PREFIX_<data>.json")
    ap.add_argument("--method", default="rj", choices=["rj", "bd", "ssvs"], help="basel's sampler (default rj; Wine: rj)")
    ap.add_argument("--prior", default="", help="basel's --prior (default: its own, normal:sd=1,intercept-sd=10)")
    a = ap.parse_args()
    if a.prior:
        PRIOR[:] = ["--prior", a.prior]
    for name in a.data.split(","):
        head, rows, splits = read(name)
        inputs = head[:-1]
        res = {}
        with tempfile.TemporaryDirectory() as tmp:
            for s in range(0, a.splits + 1):
                res[s] = run_split(name, head, rows, splits[s], s, tmp, bas=not a.no_bas and s == 0, method=a.method)
                print("%s split %d done" % (name, s), file=sys.stderr)
        print("\n## %s (%d inputs; basel --method %s)\n" % (name, len(inputs), a.method))
        if a.json:
            with open("%s_%s.json" % (a.json, name), "w") as f:
                json.dump(res, f)
        print("| method | split 0: accuracy %%, log-loss, inputs kept, CPU s | splits 1-%d: accuracy %%, log-loss (mean ± sd) |"
              % a.splits if a.splits else "| method | split 0: accuracy %, log-loss, inputs kept, CPU s | |")
        print("|---|---|---|")
        for m in ["basel", "bas", "glmnet", "sklearn_l1"]:
            if m not in res[0]:
                continue
            r0 = res[0][m]
            rest = ""
            if a.splits:
                acc = [res[s][m]["acc"] for s in range(1, a.splits + 1) if m in res[s]]
                ll = [res[s][m]["ll"] for s in range(1, a.splits + 1) if m in res[s]]
                if acc:
                    def msd(v):
                        mu = sum(v) / len(v)
                        return mu, math.sqrt(sum((x - mu) ** 2 for x in v) / max(len(v) - 1, 1))
                    rest = "%.1f ± %.1f, %.3f ± %.3f" % (msd(acc) + msd(ll))
            print("| %s | %.1f, %.3f, %d, %.1f | %s |" % (m, r0["acc"], r0["ll"], r0["kept"], r0["cpu"], rest))
        b = res[0]["basel"]
        print("\nbasel split 0: largest split R-hat of an input's indicator %.3f; wall %.1f s; %s" % (b["rhat"], b["wall"], b["note"]))
        if a.splits:
            print("basel splits 1-%d: largest R-hat %.3f" % (a.splits, max(res[s]["basel"]["rhat"] for s in range(1, a.splits + 1))))
        print("\n| input | basel PIP | BAS PIP |\n|---|---|---|")
        for j, x in enumerate(inputs):
            bp = res[0]["bas"]["pip"][j] if "bas" in res[0] else float("nan")
            print("| %s | %.3f | %.3f |" % (x, b["pip"][j], bp))
        if "class_pip" in b:
            m = len(inputs)
            print("\nbasel split 0, per class (classes after the reference): " +
                  "; ".join("%s %s" % (x, " ".join("%.3f" % b["class_pip"][c * m + j] for c in range(len(b["class_pip"]) // m)))
                            for j, x in enumerate(inputs)))


if __name__ == "__main__":
    main()
