#!/usr/bin/python3
"""The cost of bd's relevance moves next to plain bd (issue 16 item 2).

usage: bench/kernel/relevance_cost.py [--n 500,2000,8000] [--iter T] [--basel build/basel]

A simulated d = 5 problem: x ~ U[-2, 2]^5, y = sin(2 x1) + x2^2 / 2 + N(0, 0.2^2)
(x3, x4, x5 irrelevant), a Gaussian kernel (r = 1) at every row (m = n atoms),
one chain, one thread, T blocks (+ T/5 burn-in). For each n: CPU seconds of a
plain `basel fit --method bd`, of `--relevance select` with a move every 10
blocks (the default) and every block, the share of the time that the moves take
(the relevance fit is two runs, the joint chains and the refit under the selected
inputs, so its time minus the plain fit's is the joint chain's; minus the plain
fit's again is the moves'), and the inputs' PIPs. CPU time of the child process
(resource.getrusage), so other jobs on the machine do not count.
"""
import argparse, json, os, random, resource, subprocess, sys, tempfile, math

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def simulate(path, n, seed=1):
    rnd = random.Random(seed)
    with open(path, "w") as f:
        f.write("x1,x2,x3,x4,x5,y\n")
        for _ in range(n):
            x = [rnd.uniform(-2, 2) for _ in range(5)]
            y = math.sin(2 * x[0]) + x[1] ** 2 / 2 + rnd.gauss(0, 0.2)
            f.write(",".join("%.6f" % v for v in x + [y]) + "\n")


def cpu_of(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", default="500,2000,8000")
    ap.add_argument("--iter", type=int, default=2000)
    ap.add_argument("--basel", default=os.path.join(ROOT, "build", "basel"))
    args = ap.parse_args()
    print("bd on a simulated d = 5 problem, gauss:r=1 at every row, 1 chain, 1 thread, %d blocks; CPU seconds"
          % args.iter)
    print("%6s %9s %13s %13s %10s %10s  %s" % ("n", "plain", "select/10", "select/1", "moves/10", "moves/1",
                                               "input PIPs (select/10)"))
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(v) for v in args.n.split(",")):
            data, fit = os.path.join(tmp, "d.csv"), os.path.join(tmp, "f.json")
            simulate(data, n)
            base = [args.basel, "fit", data, "--target", "y", "--basis", "gauss:r=1", "--iter", str(args.iter),
                    "--chains", "1", "--threads", "1", "--seed", "1", "--quiet", "-o", fit]
            plain = cpu_of(base)
            sel10 = cpu_of(base + ["--relevance", "select"])
            pips = json.load(open(fit))["relevance"]["pip"]
            sel1 = cpu_of(base + ["--relevance", "select", "--relevance-every", "1"])
            # the joint chain costs (relevance fit - refit); the refit is a plain fit at the selected inputs,
            # about the plain fit's cost: moves = relevance fit - 2 x plain
            print("%6d %9.2f %13.2f %13.2f %10.2f %10.2f  %s" % (n, plain, sel10, sel1, sel10 - 2 * plain,
                                                            sel1 - 2 * plain, " ".join("%.2f" % p for p in pips)))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
