"""prism guard study (issue 26), offline, on the refit-free caches of prism-sim.py --backtest forward --origins 6.

prism v4 blends its members with weights learned on 2 validation origins. On two sets it ends > 2 % worse
than its best member (Tourism yearly MASE, Tourism quarterly WQL). A guard: per request, score the blend
itself on validation windows, cross-fitted (the blend at window j uses weights learned on the two most
recent windows other than j, as v4 learns them), against each member on the same windows; where a member's
pooled loss is below r × the blend's, the request gets that member's forecast instead of the blend.

  runtime/.venv-core/bin/python eval/tools/prism-sim.py <sets> --origins 6 --members auto-ets,auto-theta,seasonal-naive --backtest forward   # the caches
  runtime/.venv-core/bin/python eval/tools/prism-guard-study.py <sets> [--guard-windows 2,3,4,6] [--ratio 1,0.95,0.9]

Prints per design each set's MASE and WQL relative to its best member, their geometric means and the worst.
"""

from __future__ import annotations

import argparse
import importlib.util
from pathlib import Path

import numpy as np

spec = importlib.util.spec_from_file_location("prism_sim", Path(__file__).with_name("prism-sim.py"))
ps = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ps)
MID = ps.LEVELS.index(0.5)
pinball = ps.window_pinball  # (L,) pinball loss of one window at each level


class SetData:
    def __init__(self, key: str, members: list[str], origins: int, backtest: str = "forward"):
        self.key = key
        cache = ps.member_cache_forward if backtest == "forward" else ps.member_cache
        cached = {m: cache(key, m, origins)[0] for m in members}
        data = ps.load(key)
        self.n, self.K = len(data), len(members)
        self.finals = [np.stack([cached[m][s][0] for m in members]) for s in range(self.n)]  # (K, L, h)
        self.wins = []  # per series: list over windows j (0 = latest) of (actual, (K, L, w) forecasts)
        for s in range(self.n):
            J = len(cached[members[0]][s][1])
            self.wins.append([(cached[members[0]][s][1][j][0], np.stack([cached[m][s][1][j][1] for m in members])) for j in range(J)])
        # per series, window: member pinball (K, L) and Σ|actual|
        self.pin = [[np.stack([pinball(a, f[k]) for k in range(self.K)]) for a, f in w] for w in self.wins]
        self.abs = [[np.abs(a).sum() for a, _ in w] for w in self.wins]
        self.singles = [ps.score(key, [self.finals[s][k] for s in range(self.n)]) for k in range(self.K)]


def weights(d: SetData, batch: list[int], windows_of, pool: float, power: float) -> dict[int, np.ndarray]:
    """v3/v4 weights (K, L) per series of the batch from the windows windows_of(s) (None: equal weights)."""
    own = {}
    for s in batch:
        js = windows_of(s)
        if js:
            own[s] = sum(d.pin[s][j] for j in js) / max(sum(d.abs[s][j] for j in js), 1e-9)
    out = {}
    pooled = np.mean([own[s] for s in own], 0) if own else None
    for s in batch:
        if pooled is None:
            out[s] = np.full((d.K, len(ps.LEVELS)), 1 / d.K)
            continue
        mix = pool * pooled + (1 - pool) * own[s] if s in own else pooled
        m = np.maximum(mix, mix.max(0, keepdims=True) * 1e-6 + 1e-12)
        r = (m.min(0, keepdims=True) / m) ** power if np.isfinite(power) else (m == m.min(0, keepdims=True)).astype(float)
        out[s] = r / r.sum(0, keepdims=True)
    return out


def blend(F: np.ndarray, w: np.ndarray, alpha: float) -> np.ndarray:
    """(K, L, h) members, (K, L) weights -> (L, h)."""
    return ps.anchored((alpha * np.median(F, 0) + (1 - alpha) * np.einsum("kl,klh->lh", w, F))[None])[0]


def prism(d: SetData, batch_size: int, origins: int, pool: float, power: float, alpha: float,
          guard_windows: int = 0, ratio: float = 1.0, metric: str = "wql") -> tuple[list[np.ndarray], dict]:
    preds = [None] * d.n
    picks = {"blend": 0, **{k: 0 for k in range(d.K)}}
    for batch in ps.batches_of(d.key, batch_size):
        recent = lambda s: list(range(min(origins, len(d.wins[s]))))
        w = weights(d, batch, recent, pool, power)
        for s in batch:
            preds[s] = blend(d.finals[s], w[s], alpha)
        if not guard_windows:
            continue
        # cross-fitted blend at each guard window j: weights from the `origins` most recent windows other than j
        blend_loss, member_loss, scale = 0.0, np.zeros(d.K), 0.0
        for j in range(guard_windows):
            has = [s for s in batch if len(d.wins[s]) > j]
            others = lambda s, j=j: [i for i in range(len(d.wins[s])) if i != j][:origins]
            wj = weights(d, has, others, pool, power)
            for s in has:
                actual, F = d.wins[s][j]
                pb = pinball(actual, blend(F, wj[s], alpha))
                if metric == "wql":
                    blend_loss += pb.sum()
                    member_loss += d.pin[s][j].sum(1)
                    scale += d.abs[s][j]
                else:  # MASE-like: |error of the median| ÷ the series' mean |difference|
                    sc = max(float(np.mean(np.abs(np.diff(np.concatenate([w_[0] for w_ in d.wins[s]]))))), 1e-9)
                    med = blend(F, wj[s], alpha)[MID]
                    blend_loss += np.abs(actual - med).mean() / sc
                    member_loss += np.array([np.abs(actual - F[k, MID]).mean() / sc for k in range(d.K)])
                    scale += 1
        if scale == 0:
            picks["blend"] += len(batch)
            continue
        best = int(np.argmin(member_loss))
        if member_loss[best] < ratio * blend_loss:
            for s in batch:
                preds[s] = d.finals[s][best]
            picks[best] += len(batch)
        else:
            picks["blend"] += len(batch)
    return preds, picks


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("datasets")
    ap.add_argument("--members", default="auto-ets,auto-theta,seasonal-naive")
    ap.add_argument("--cache-origins", type=int, default=6)
    ap.add_argument("--design", default="2:0.5:8:0.5", help="v4's origins:pool:power:alpha")
    ap.add_argument("--guard-windows", default="0,2,3,4,6")
    ap.add_argument("--ratio", default="1,0.95,0.9")
    ap.add_argument("--metric", default="wql,mase")
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--backtest", default="forward", choices=("forward", "refit"),
                    help="validation windows from one fit + forward() (v4) or refitted at each origin (v3; honest)")
    a = ap.parse_args()
    members = a.members.split(",")
    o, pool, power, alpha = a.design.split(":")
    o, pool, power, alpha = int(o), float(pool), float(power), float(alpha)
    sets = [SetData(k, members, a.cache_origins, a.backtest) for k in a.datasets.split(",")]
    gm = lambda xs: float(np.exp(np.mean(np.log(xs))))
    designs = [(0, 1.0, "wql")] + [(g, r, m) for g in map(int, a.guard_windows.split(",")) if g
                                   for r in map(float, a.ratio.split(",")) for m in a.metric.split(",")]
    for g, r, metric in designs:
        rel, picks = [], []
        for d in sets:
            preds, p = prism(d, a.batch, o, pool, power, alpha, g, r, metric)
            mase, wql = ps.score(d.key, preds)
            best = (min(x[0] for x in d.singles), min(x[1] for x in d.singles))
            rel.append((d.key, mase / best[0], wql / best[1]))
            picks.append(p)
        m, w = [x[1] for x in rel], [x[2] for x in rel]
        label = "v4 (no guard)" if not g else f"guard windows={g} ratio={r:g} metric={metric}"
        print(f"{label:42s} worst {max(max(m), max(w)):.3f} geomean {gm(m):.3f}/{gm(w):.3f} | "
              + " ".join(f"{k}: {x:.3f}/{y:.3f}" for k, x, y in rel), flush=True)
        if g:
            print("    requests' picks (series): " + "; ".join(f"{d.key} " + ",".join(f"{('blend' if k == 'blend' else members[k])}={v}" for k, v in p.items() if v) for d, p in zip(sets, picks)))


if __name__ == "__main__":
    main()
