"""The mixture classifier from the command line, with its defaults, over the
split files of data/classification, next to the peers of peers.py on the
same rows (issue 17 item 4: "the mixture: at or above the same model fitted
by EM (D = 3 / 6), and the inputs it keeps stated with their PIPs").

For each data set and split: the split's training and test rows are written
as CSV (raw values, the class column last; Ionosphere without its constant
V2, as bench_mixture.c and peers.py do), then

    build/basel fit train.csv --method mixture --target class --seed <1+split> --quiet -o fit.json
    build/basel predict fit.json test.csv          (model-averaged p_<class>)

with every other setting at its default (4 chains, 10000 sweeps after 5000
burn-in, 6 kernels), unless --fit-args adds `basel fit` arguments (e.g.
--fit-args "--kernels 3"; split as a shell would, appended to every fit and
recorded in the JSON as fit_args). Recorded: test accuracy and log-loss
(probabilities clipped at 1e-15, as peers.py), the mean number of inputs,
each input's PIP, the largest split R-hat of an input's indicator (FIT.json
diagnostics.rhat_pip; "inf" when chains hold different values, null when
every chain keeps one value throughout, which counts as 1 here), the
acceptance of add / remove / exchange (the engine block's accepted /
proposed), and the fit's CPU seconds (user + sys of the child). In the same
run, peers.py's own functions on the same rows and the same seeds as its
main (17 + split): EM of the shared-kernel model (paper 000 eq. 1) with
D = 3 and D = 6, and L1 logistic regression; --peers picks others among
peers.py's methods (e.g. "L1 logistic,GMM/class BIC", issue 33 item 2's bar)
or none.

Prints one line per split and method, then mean +- standard error over the
splits (split 0, when asked for, is printed but left out of the means when
other splits are present, as in PEERS.md), and the paired difference of
basel's accuracy and log-loss minus those of the better EM (the D whose mean
accuracy over the splits is higher), and minus those of each other peer.

usage: /usr/bin/python3 bench/mixture/cli_splits.py [--data pima,wine,ionosphere]
           [--splits 1-10] [--basel build/basel] [--dir data/classification]
           [--json OUT] [--keep DIR] [--fit-args "ARGS"] [--peers M1,M2|none]
Run from the source root; nice it on a shared machine (nice -n 10 ...).
"""
import argparse
import csv
import json
import math
import os
import resource
import shlex
import subprocess
import sys
import tempfile
import time
import warnings

import numpy as np

sys.dont_write_bytecode = True  # no __pycache__ beside peers.py in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peers  # noqa: E402  (its read, splits and run: the peers are not rewritten here)

SETS = {name: (f, sf, drop) for name, f, sf, drop in peers.SETS}
PEER_DEFAULT = ["EM D=3", "EM D=6", "L1 logistic"]
PEER_ALL = PEER_DEFAULT + ["SVC RBF", "GMM/class BIC"]  # peers.run's methods


def parse_splits(text):
    out = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


def read_raw(path, drop):
    """Header and rows as text, without the dropped column (the CLI gets the raw values)."""
    with open(path) as fh:
        rows = list(csv.reader(fh))
    keep = [j for j, name in enumerate(rows[0]) if name != drop]
    return [rows[0][j] for j in keep], [[r[j] for j in keep] for r in rows[1:]]


def write_csv(path, head, rows, idx):
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(head)
        for i in idx:
            w.writerow(rows[i])


def child_cpu():
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def rhat_value(v):
    if v is None:
        return 1.0  # every chain kept one value throughout (diag.c): they agree
    return math.inf if v == "inf" else float(v)


def find_counts(doc):
    """The mixture engine block's proposed / accepted (add, remove, exchange)."""
    stack = [doc]
    while stack:
        o = stack.pop()
        if isinstance(o, dict):
            if o.get("engine") == "mixture" and "proposed" in o and "accepted" in o:
                return o["proposed"], o["accepted"]
            stack.extend(o.values())
        elif isinstance(o, list):
            stack.extend(o)
    return None, None


def run_basel(basel, work, head, rows, tr, te, seed, extra):
    train, test, fit = (os.path.join(work, n) for n in ("train.csv", "test.csv", "fit.json"))
    write_csv(train, head, rows, tr)
    write_csv(test, head, rows, te)
    c0, t0 = child_cpu(), time.time()
    subprocess.run([basel, "fit", train, "--method", "mixture", "--target", "class", "--seed", str(seed),
                    "--quiet", "-o", fit] + extra, check=True)
    cpu, wall = child_cpu() - c0, time.time() - t0
    pred = subprocess.run([basel, "predict", fit, test], check=True, capture_output=True, text=True).stdout
    with open(fit) as fh:
        doc = json.load(fh)
    prow = list(csv.reader(pred.splitlines()))
    cols = {name: j for j, name in enumerate(prow[0]) if name.startswith("p_")}
    truth = [rows[i][-1] for i in te]
    loss, right = 0.0, 0
    for r, y in zip(prow[1:], truth):
        p = {name[2:]: float(r[j]) for name, j in cols.items()}
        right += max(p, key=p.get) == y
        loss -= math.log(min(max(p[y], 1e-15), 1.0))
    diag = doc["diagnostics"]
    prop, acc = find_counts(doc)
    rate = [100.0 * a / p if p else float("nan") for p, a in zip(prop, acc)] if prop else [float("nan")] * 3
    names = [a["name"] for a in doc["atoms"]]
    rh = [rhat_value(v) for v in diag.get("rhat_pip", [])]
    return {"acc": 100.0 * right / len(truth), "logloss": loss / len(truth), "inputs": diag["mean_inputs"],
            "pip": dict(zip(names, doc["pip"])), "rhat_max": max(rh) if rh else float("nan"),
            "rhat_worst": names[int(np.argmax(rh))] if rh else None,
            "accept_add": rate[0], "accept_remove": rate[1], "accept_exchange": rate[2],
            "cpu_s": cpu, "wall_s": wall, "warnings": diag.get("warnings", [])}


def mean_se(v):
    v = np.asarray(v, dtype=float)
    if len(v) < 2:
        return float(v.mean()), float("nan")
    return float(v.mean()), float(v.std(ddof=1) / math.sqrt(len(v)))


def fmt(v, nd=1):
    m, s = mean_se(v)
    return f"{m:.{nd}f} +- {s:.{nd}f}" if not math.isnan(s) else f"{m:.{nd}f}"


def summarise(name, res, splits, methods):
    used = [s for s in splits if s != 0] if any(s != 0 for s in splits) else splits
    label = f"splits {used[0]}-{used[-1]}" if len(used) > 1 else f"split {used[0]}"
    b = [res[s]["basel"] for s in used]
    print(f"\n{name}, {label} (mean +- se over {len(used)}):")
    print(f"  basel mixture  acc {fmt([r['acc'] for r in b])} %  log-loss {fmt([r['logloss'] for r in b], 3)}"
          f"  inputs {fmt([r['inputs'] for r in b], 2)}  largest R-hat median {np.median([r['rhat_max'] for r in b]):.3f}"
          f" (max {max(r['rhat_max'] for r in b):.3f})  add/remove/exchange "
          f"{np.mean([r['accept_add'] for r in b]):.1f} / {np.mean([r['accept_remove'] for r in b]):.1f} / "
          f"{np.mean([r['accept_exchange'] for r in b]):.2f} %  CPU s {fmt([r['cpu_s'] for r in b])}")
    out = {"splits": used}
    for m in methods:
        p = [res[s][m] for s in used]
        kept = [r["kept"] for r in p if r["kept"] is not None]
        tail = f"  inputs {fmt(kept, 2)}" if kept else ""
        print(f"  {m:<13}  acc {fmt([r['acc'] for r in p])} %  log-loss {fmt([r['logloss'] for r in p], 3)}{tail}")
    def paired(m):
        return ([res[s]["basel"]["acc"] - res[s][m]["acc"] for s in used],
                [res[s]["basel"]["logloss"] - res[s][m]["logloss"] for s in used])
    ems = [m for m in methods if m.startswith("EM")]
    if ems:
        em = max(ems, key=lambda m: np.mean([res[s][m]["acc"] for s in used]))
        da, dl = paired(em)
        print(f"  basel - {em} (the better EM), paired: acc {fmt(da)} points, log-loss {fmt(dl, 3)}")
        out.update({"better_em": em, "diff_acc": mean_se(da), "diff_logloss": mean_se(dl)})
    out["paired"] = {}
    for m in methods:
        da, dl = paired(m)
        out["paired"][m] = {"acc": mean_se(da), "logloss": mean_se(dl)}
        if not m.startswith("EM"):
            print(f"  basel - {m}, paired: acc {fmt(da)} points, log-loss {fmt(dl, 3)}")
    pips = {k: float(np.mean([r["pip"][k] for r in b])) for k in b[0]["pip"]}
    order = sorted(pips, key=lambda k: -pips[k])
    kept = {k: sum(r["pip"][k] >= 0.5 for r in b) for k in order}
    print("  mean PIP over the splits (splits with PIP >= 0.5): "
          + ", ".join(f"{k} {pips[k]:.2f} ({kept[k]})" for k in order))
    out.update({"mean_pip": pips, "splits_kept": kept,
                "basel_acc": mean_se([r["acc"] for r in b]), "basel_logloss": mean_se([r["logloss"] for r in b]),
                "basel_inputs": mean_se([r["inputs"] for r in b]), "basel_cpu_s": mean_se([r["cpu_s"] for r in b])})
    for m in methods:
        out[m] = {"acc": mean_se([res[s][m]["acc"] for s in used]),
                  "logloss": mean_se([res[s][m]["logloss"] for s in used])}
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default="pima,wine,ionosphere")
    ap.add_argument("--splits", default="1-10")
    ap.add_argument("--basel", default="build/basel")
    ap.add_argument("--dir", default=os.path.join(here, "..", "..", "data", "classification"))
    ap.add_argument("--json", help="write every split's numbers and the summaries here")
    ap.add_argument("--keep", help="keep each split's CSVs and FIT.json under this folder")
    ap.add_argument("--fit-args", default="", help='more `basel fit` arguments for every fit, e.g. "--kernels 3"')
    ap.add_argument("--peers", default=",".join(PEER_DEFAULT),
                    help=f"peers.py methods to run beside basel, comma-separated among {', '.join(PEER_ALL)}; "
                         "or none")
    a = ap.parse_args()
    warnings.filterwarnings("ignore")
    try:
        splits = parse_splits(a.splits)
    except ValueError:
        ap.error(f"--splits '{a.splits}': give splits as 1-10 or 0,3,5-7")
    try:
        extra = shlex.split(a.fit_args)
    except ValueError as e:
        ap.error(f"--fit-args '{a.fit_args}': {e}")
    methods = [] if a.peers == "none" else a.peers.split(",")
    for m in methods:
        if m not in PEER_ALL:
            ap.error(f"--peers: unknown method '{m}' ({', '.join(PEER_ALL)}, or none)")
    report = {"command": sys.argv, "basel": os.path.abspath(a.basel), "fit_args": extra, "peers": methods,
              "sets": {}}
    for name in a.data.split(","):  # every argument checked before the first fit
        if name not in SETS:
            ap.error(f"unknown data set '{name}' (pima, wine, ionosphere)")
        missing = set(splits) - set(peers.splits(os.path.join(a.dir, SETS[name][1])))
        if missing:
            ap.error(f"{SETS[name][1]} has no split {min(missing)}")
    for name in a.data.split(","):
        f, sf, drop = SETS[name]
        head, rows = read_raw(os.path.join(a.dir, f), drop)
        X, y = peers.read(os.path.join(a.dir, f), drop)
        sp = peers.splits(os.path.join(a.dir, sf))
        res = {}
        for s in splits:
            tr, te = sp[s]["train"], sp[s]["test"]
            work = os.path.join(a.keep, f"{name}_{s}") if a.keep else tempfile.mkdtemp(prefix="basel_mix_")
            os.makedirs(work, exist_ok=True)
            r = {"basel": run_basel(a.basel, work, head, rows, tr, te, 1 + s, extra)}
            b = r["basel"]
            top = ", ".join(f"{k} {v:.2f}" for k, v in sorted(b["pip"].items(), key=lambda kv: -kv[1]) if v >= 0.5)
            print(f"{name:<10} split {s:2d} basel: acc {b['acc']:5.1f}%  log-loss {b['logloss']:.3f}  inputs "
                  f"{b['inputs']:.2f}  R-hat max {b['rhat_max']:.3f} ({b['rhat_worst']})  add/rem/exch "
                  f"{b['accept_add']:.1f}/{b['accept_remove']:.1f}/{b['accept_exchange']:.2f}%  "
                  f"CPU {b['cpu_s']:.1f} s  wall {b['wall_s']:.1f} s  PIP >= 0.5: {top}", flush=True)
            for m in methods:
                acc, ll, kept, secs = peers.run(X, y, tr, te, m, 17 + s)
                r[m] = {"acc": acc, "logloss": ll, "kept": kept, "secs": secs}
                print(f"{name:<10} split {s:2d} {m:<13} acc {acc:5.1f}%  log-loss {ll:.3f}"
                      + (f"  inputs {kept}" if kept is not None else ""), flush=True)
            res[s] = r
            if not a.keep:
                for n in ("train.csv", "test.csv", "fit.json"):
                    os.remove(os.path.join(work, n))
                os.rmdir(work)
        summary = summarise(name, res, splits, methods)
        report["sets"][name] = {"splits": {str(s): v for s, v in res.items()}, "summary": summary}
        if a.json:  # after each data set, so a long run keeps what it has done
            with open(a.json, "w") as fh:
                json.dump(report, fh, indent=1, default=float)


if __name__ == "__main__":
    main()
