"""prism v4 design study (issue 26), offline, on the refit-free caches of prism-sim.py --backtest forward.

For each member pool and each v3-family design (origins, pool share, weight power, median share), scores
prism on every dataset given and reports, per design, each set's MASE and WQL relative to the best single
member of that pool on that set, their geometric means, and the worst set. The acceptance of issue 26:
geometric mean < 1.0 on both metrics and no set more than 2 % worse than its best member.

  runtime/.venv-core/bin/python eval/tools/prism-sim.py <sets> --origins 6 --members auto-ets,auto-theta,seasonal-naive,damped-ets,dyn-opt-theta,mstl --backtest forward   # the caches
  runtime/.venv-core/bin/python eval/tools/prism-v4-study.py tourism-yearly,m3-yearly,... [--pools ets+theta+snaive,...] [--top 15]
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
from pathlib import Path

import numpy as np

spec = importlib.util.spec_from_file_location("prism_sim", Path(__file__).with_name("prism-sim.py"))
ps = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ps)

SHORT = {"ets": "auto-ets", "theta": "auto-theta", "snaive": "seasonal-naive", "damped": "damped-ets", "dot": "dyn-opt-theta", "mstl": "mstl"}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("datasets")
    ap.add_argument("--pools", default="ets+theta+snaive,ets+theta+snaive+damped+dot,ets+theta+damped+dot,ets+theta+snaive+damped,theta+snaive+damped+dot")
    ap.add_argument("--origins", default="1,2,3,4,6")
    ap.add_argument("--pool-share", default="0,0.5,1")
    ap.add_argument("--power", default="1,4,8,16,inf")
    ap.add_argument("--alpha", default="0,0.25,0.5")
    ap.add_argument("--cache-origins", type=int, default=6)
    ap.add_argument("--top", type=int, default=12)
    ap.add_argument("--batch", type=int, default=64)
    a = ap.parse_args()
    keys = a.datasets.split(",")
    designs = list(itertools.product(
        [int(o) for o in a.origins.split(",")], [float(p) for p in a.pool_share.split(",")],
        [float(p) for p in a.power.split(",")], [float(x) for x in a.alpha.split(",")]))
    for pool in a.pools.split(","):
        members = [SHORT[m] for m in pool.split("+")]
        rel = {d: [] for d in designs}  # per design: [(set, rel MASE, rel WQL)]
        singles = {}
        for key in keys:
            cached = {m: ps.member_cache_forward(key, m, a.cache_origins) for m in members}
            study = ps.Study(key, members, cached, a.cache_origins)
            scores = [study.score(study.F[:, k]) for k in range(len(members))]
            best = (min(s[0] for s in scores), min(s[1] for s in scores))
            singles[key] = (best, scores)
            for d in designs:
                o, share, power, alpha = d
                mase, wql = study.score(study.v3(o, a.batch, alpha, power, share))
                rel[d].append((key, mase / best[0], wql / best[1], mase, wql))
        gm = lambda xs: float(np.exp(np.mean(np.log(xs))))
        rows = []
        for d, r in rel.items():
            m, w = [x[1] for x in r], [x[2] for x in r]
            rows.append((max(max(m), max(w)), gm(m), gm(w), d, r))
        rows.sort(key=lambda x: (x[0], x[1] + x[2]))
        print(f"## pool {pool}: best member per set " + ", ".join(f"{k} {singles[k][0][0]:.4f}/{singles[k][0][1]:.4f}" for k in keys))
        for worst, gmm, gmw, d, r in rows[: a.top]:
            print(f"  origins={d[0]} pool={d[1]:g} power={d[2]:g} alpha={d[3]:g}: worst {worst:.4f} geomean MASE {gmm:.4f} WQL {gmw:.4f} | "
                  + " ".join(f"{k.split('-')[0][:2]}{k.split('-')[1][0]} {x:.3f}/{y:.3f}" for k, x, y, _, _ in r), flush=True)


if __name__ == "__main__":
    main()
