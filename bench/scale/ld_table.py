"""bench/scale/ld_table.py: one row of bench/scale/ld_run.sh's table.

Usage: ld_table.py NAME TIME FIT PIPS PREFIX REF.json
  TIME    /usr/bin/time -f "%e %U %S %M" of the whole process
  FIT     the R fit's CPU seconds (peers; "-" for basel)
  PIPS    one PIP a line, input j on line j; PIPS.cs the 95 % credible sets,
          one a line, 1-based inputs; PIPS.note a note
  PREFIX  the data (ld_gen.c): PREFIX.truth, PREFIX.ld
  REF     the long reference's FIT.json (absent: no error column)
Columns: CPU-s of the whole process (user + sys); the fit's own CPU (R's
proc.time); peak RSS; at PIP >= 0.5 and >= 0.95 the true and false
discoveries, exact identification asked (a SNP in LD with a causal one but
not it is false); of the false ones at 0.5, how many are within |r| > 0.9
of a causal SNP ("near", from PREFIX.ld); the 95 % credible sets: how many,
the share holding a causal SNP, how many causal SNPs some set holds ("c"),
and their sizes; max |PIP - reference| and where.
"""
import json
import os
import sys

name, tf, fit, pf, prefix, ref = sys.argv[1:]
truth = {int(l.strip()[1:]) - 1 for l in open(prefix + ".truth") if l.strip()}
near = set()  # SNPs at |r| > 0.9 of a causal one
for l in open(prefix + ".ld"):
    c, j, r = l.split()
    if abs(float(r)) > 0.9:
        near.add(int(j[1:]) - 1)
note = open(pf + ".note").read().strip() if os.path.exists(pf + ".note") else ""
try:
    _, u, s, kb = open(tf).read().split()[-4:]
    cpu, mib = "%.1f" % (float(u) + float(s)), "%.0f" % (int(kb) / 1024)
except (OSError, ValueError):
    cpu = mib = "-"
try:
    pip = [float(l) for l in open(pf)]
except (OSError, ValueError):
    print("%-9s %7s %9s %6s  %s" % (name, cpu, fit, mib, note or "no PIPs (failed)"))
    sys.exit(0)


def called(th):
    sel = {j for j, x in enumerate(pip) if x >= th}
    return sel & truth, sel - truth


t5, f5 = called(0.5)
t95, f95 = called(0.95)
err = "-"
if os.path.exists(ref):
    rp = json.load(open(ref))["pip"]
    d, j = max((abs(x - y), j) for j, (x, y) in enumerate(zip(pip, rp)))
    err = "%.3f x%d" % (d, j + 1)
cs = "-"
if os.path.exists(pf + ".cs"):
    sets = [[int(t) - 1 for t in l.split()] for l in open(pf + ".cs") if l.strip()]
    hit = sum(1 for c in sets if set(c) & truth)
    sizes = sorted(len(c) for c in sets)
    held = sum(1 for t in truth if any(t in c for c in sets))
    cs = "%d %d/%d c%d [%s]" % (len(sets), hit, len(sets), held, ",".join(map(str, sizes)))
print("%-9s %7s %9s %6s  %2d/%-2d %4d  %2d/%-2d  %-12s %-28s %s" % (
    name, cpu, fit, mib, len(t5), len(f5), len(f5 & near), len(t95), len(f95), err, cs, note))
