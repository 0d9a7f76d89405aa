#!/usr/bin/env python3
"""table.py DESIGN TRUTH METHOD=SETS[@CPU] ...: one row per method of the credible sets beside the truth.

TRUTH: the true signals, comma-separated groups of input names joined by '+' (a group is one signal that
any of its inputs stands for, e.g. near-copies of one variable). SETS: a basel FIT.json, or a text file of
susieR's sets, one a line 'names;coverage;purity' (tests/cli/credible_susie.R). CPU: a file holding
/usr/bin/time's '%U %S'. Prints: sets found; how many hold a true signal and that share ("coverage" in
the sense of fine-mapping benchmarks, as in SuSiE's paper: the fraction of reported sets that contain an
effect); the signals found (in some set) of all; mean size; least and median purity; CPU seconds.
"""
import json
import statistics
import sys


def sets_of(path):
    if path.endswith(".json"):
        doc = json.load(open(path))
        names = [a["name"] for a in doc["atoms"]]
        return [({names[j] for j in s["atoms"]}, s["purity"]) for s in doc.get("credible_sets", {}).get("sets", [])]
    out = []
    for line in open(path):
        if line.strip():
            n, _, pur = line.strip().split(";")
            out.append((set(n.split()), float(pur)))
    return out


def main():
    design, truth = sys.argv[1], [set(g.split("+")) for g in sys.argv[2].split(",")]
    for arg in sys.argv[3:]:
        method, rest = arg.split("=", 1)
        path, _, tf = rest.partition("@")
        try:
            sets = sets_of(path)
        except (OSError, ValueError) as e:
            print("%-12s %-16s failed: %s" % (design, method, e))
            continue
        cpu = "-"
        if tf:
            try:
                u, s = open(tf).read().split()[-2:]
                cpu = "%.2f" % (float(u) + float(s))
            except (OSError, ValueError):
                pass
        hold = sum(1 for s, _ in sets if any(s & g for g in truth))
        found = sum(1 for g in truth if any(s & g for s, _ in sets))
        pur = [p for _, p in sets]
        print("%-12s %-16s %4d %5d %6s %6s %6s %7s %7s %7s" % (
            design, method, len(sets), hold, "%.2f" % (hold / len(sets)) if sets else "-", "%d/%d" % (found, len(truth)),
            "%.1f" % (sum(len(s) for s, _ in sets) / len(sets)) if sets else "-",
            "%.3f" % min(pur) if pur else "-", "%.3f" % statistics.median(pur) if pur else "-", cpu))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--header"]:
        print("%-12s %-16s %4s %5s %6s %6s %6s %7s %7s %7s" % ("design", "method", "sets", "true", "cover", "found",
                                                             "size", "pur_min", "pur_med", "cpu_s"))
    else:
        main()
