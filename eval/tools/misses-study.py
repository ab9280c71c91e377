"""Why prism v3 and model "auto" miss on Tourism yearly/quarterly (eval/README.md, "The four misses are in the
data, not the rules"). Reads the caches of prism-sim.py and auto-sim.py (it builds what is missing the same way):

  oracle  KEY MEMBERS   best FIXED convex weights of the members (0.1 grid) chosen on the TEST split itself: a bound
                        for any combiner with one set of weights (answers known, so not a design)
  rescale KEY           prism v3 (origins 2, pool 0.5, power 8, median share 0.5) with its levels' spread around the
                        median scaled by one factor for the whole set, factor chosen on the test split (also a bound)
  windows KEY W         set-wide WQL of auto-ets, auto-theta, seasonal-naive per cross-validation window (W windows,
                        step = horizon as POST /v1/cross-validation places them) beside the test split

  runtime/.venv-core/bin/python eval/tools/misses-study.py oracle tourism-yearly auto-ets,auto-theta,seasonal-naive
  runtime/.venv-core/bin/python eval/tools/misses-study.py rescale tourism-quarterly
  runtime/.venv-core/bin/python eval/tools/misses-study.py windows tourism-quarterly 6
"""

from __future__ import annotations

import importlib.util
import itertools
import sys
from pathlib import Path

import numpy as np


def _load(name: str, file: str):
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name(file))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ps = _load("prism_sim", "prism-sim.py")
STAT = ["auto-ets", "auto-theta", "seasonal-naive"]


def study(key: str, members: list[str]):
    return ps.Study(key, members, {m: ps.member_cache(key, m, 2) for m in members}, 2)


def oracle(key: str, members: list[str]) -> None:
    st = study(key, members)
    for k, m in enumerate(members):
        print(f"  {m:16s} MASE %.4f WQL %.4f" % st.score(st.F[:, k]))
    best_mase, best_wql = (np.inf, None, None), (np.inf, None, None)
    for grid in itertools.product(range(11), repeat=len(members)):
        if sum(grid) != 10:
            continue
        w = np.array(grid) / 10
        mase, wql = st.score(ps.anchored(np.einsum("k,nklh->nlh", w, st.F)))
        if mase < best_mase[0]:
            best_mase = (mase, w, wql)
        if wql < best_wql[0]:
            best_wql = (wql, w, mase)
    print(f"  oracle MASE {best_mase[0]:.4f} with weights {best_mase[1]} (WQL {best_mase[2]:.4f})")
    print(f"  oracle WQL  {best_wql[0]:.4f} with weights {best_wql[1]} (MASE {best_wql[2]:.4f})")


def rescale(key: str) -> None:
    st = study(key, STAT)
    P = st.v3(2, 64, 0.5, 8, 0.5)
    for factor in (0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2):
        mase, wql = st.score(P[:, 4:5] + factor * (P - P[:, 4:5]))
        print(f"  spread × {factor}: MASE {mase:.4f} WQL {wql:.4f}")


def windows(key: str, w: int) -> None:
    auto_sim = _load("auto_sim", "auto-sim.py")
    auto_sim.WINDOWS = w
    _, h, _, _ = ps.DATASETS[key]
    data = ps.load(key)
    cached = {m: auto_sim.cached(key, m)[0] for m in STAT}
    full = [s for s in range(len(data)) if all(len(cached[m][s][1]) == w for m in STAT)]
    print(f"  series with all {w} windows: {len(full)} of {len(data)}")

    def wql(pairs) -> float:
        num = den = 0.0
        for actual, p in pairs:
            num += sum(2 * ps.pinball(actual, p[i], q) for i, q in enumerate(ps.LEVELS)) / len(ps.LEVELS)
            den += np.abs(actual).sum()
        return num / den

    for k in range(w):
        row = []
        for m in STAT:
            pairs = []
            for s in full:
                cut, p = cached[m][s][1][k]
                pairs.append((data[s][0][cut:cut + h], p))
            row.append(f"{m} {wql(pairs):.4f}")
        print(f"  window {k + 1}: " + ", ".join(row))
    print("  test split: " + ", ".join(f"{m} {wql([(data[s][1], cached[m][s][0]) for s in full]):.4f}" for m in STAT))


if __name__ == "__main__":
    what, key, *rest = sys.argv[1:]
    print(f"## {what} {key} {' '.join(rest)}")
    {"oracle": lambda: oracle(key, rest[0].split(",")), "rescale": lambda: rescale(key),
     "windows": lambda: windows(key, int(rest[0]))}[what]()
