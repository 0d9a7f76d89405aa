#!/usr/bin/env python3
"""compare.py SUSIE.json BASEL_ROWS.json BASEL_STATS.json: the credible sets side by side."""
import json
import sys

TRUE = {10, 60, 130, 160, 175}  # 0-based, make_data.py
su = json.load(open(sys.argv[1]))
rows, stats = (json.load(open(p)) for p in sys.argv[2:4])
print("max |PIP(basel rows) - PIP(basel LD stats)| = %.3g" % max(abs(a - b) for a, b in zip(rows["pip"], stats["pip"])))
def show(name, sets, pip):
    hits = sorted({j for s in sets for j in s["atoms"]} & TRUE)
    print("%-22s %d sets; true effects in a set: %s; at PIP >= 0.5: %d true, %d false" % (
        name, len(sets), ",".join("x%d" % (j + 1) for j in hits) or "none",
        sum(1 for j, p in enumerate(pip) if p >= 0.5 and j in TRUE), sum(1 for j, p in enumerate(pip) if p >= 0.5 and j not in TRUE)))
    for s in sets:
        a = s["atoms"]
        b = s.get("coverage_bounds")
        print("    size %3d coverage %.3f%s purity %.3f  %s%s" % (len(a), s["coverage"], " [%.3f, %.3f]" % tuple(b) if b else "", s["purity"],
              ",".join("x%d" % (j + 1) for j in a[:8]), " ..." if len(a) > 8 else "") +
              ("  (holds %s)" % ",".join("x%d" % (j + 1) for j in sorted(set(a) & TRUE)) if set(a) & TRUE else "  (no true effect)"))
show("susieR (rows)", su["susie"]["sets"], su["susie"]["pip"])
show("susie_rss (R, z, n)", su["susie_rss"]["sets"], su["susie_rss"]["pip"])
show("basel rj (rows)", rows["credible_sets"]["sets"], rows["pip"])
show("basel rj (R, z, n)", stats["credible_sets"]["sets"], stats["pip"])
