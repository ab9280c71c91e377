"""Offline design study for model "auto" (src/forecasting/auto.ts; not the service, used to choose its defaults).

Fits each candidate with statsforecast as the runtime adapters do (eval/tools/prism-sim.py's `forecast`,
`load` and `score`: same seasons, fallbacks and metrics), once for the official test horizon and once per
cross-validation window as POST /v1/cross-validation places them (window w: cutoff n - h - w*h, h values
forecast), caches the forecasts under /tmp/auto-sim/cache/, then scores selection rules:

- request scope: per request (batches of --batch series, in file order, like eval/run.ts) the candidate
  with the best pooled CV score (WQL pooled over windows and series, or mean MASE), for every series;
- series scope: each series' own CV winner when its score is below r * the request winner's on that
  series (r = 1: always its own winner; r = 0: request scope), for r in 1, 0.9, 0.8, 0.7;
- with 1, 2 or 3 windows and metric wql, mase or "both" (sum of the two, each relative to the best).

The API run reproduces these numbers (model auto, default settings = request scope, mase, 2 windows:
M3 yearly 2.6330 / 0.1281 and Tourism yearly 2.9905 / 0.1587 in both).

  runtime/.venv-core/bin/python eval/tools/auto-sim.py m3-yearly,tourism-yearly [--candidates auto-ets,auto-theta,seasonal-naive] [--batch 64]
"""

from __future__ import annotations

import argparse
import importlib.util
import pickle
import time
from pathlib import Path

import numpy as np

spec = importlib.util.spec_from_file_location("prism_sim", Path(__file__).with_name("prism-sim.py"))
ps = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ps)
L = ps.LEVELS
CACHE = Path("/tmp/auto-sim/cache")
WINDOWS = 3


def cached(key: str, member: str):
    CACHE.mkdir(parents=True, exist_ok=True)
    f = CACHE / f"{key}.{member}.{WINDOWS}.pkl"
    if f.exists():
        return pickle.loads(f.read_bytes())
    _, h, _, season = ps.DATASETS[key]
    t0 = time.time()
    res = []
    for y, _ in ps.load(key):
        final = ps.forecast(member, y, h, season)
        wins = []
        for w in range(WINDOWS):
            c = y.size - h - w * h
            if c < 1:
                break
            wins.append((c, ps.forecast(member, y[:c], h, season)))
        res.append((final, wins))
    out = (res, time.time() - t0)
    f.write_bytes(pickle.dumps(out))
    return out


def _forward_chunk(args):
    """In a pool process: the runtime's predict_series with the CV windows (window h, step h: cutoff
    n - h - w*h for w = 0..WINDOWS-1) as a backtest — refit-free (mode "forward", what auto asks with
    HORIZON_AUTO_REFIT=0) or refitting the whole-history fit's form (mode "form") — or (mode "refit")
    as forecasts of their own, each fitted on the history before its cutoff (auto's refit default)."""
    key, member, windows, indices, mode = args
    from dataclasses import replace
    from horizon_runtime.adapters.statistical import FitSpec, predict_series
    from horizon_runtime.catalog import load_catalog

    catalog = load_catalog()
    _, h, _, season = ps.DATASETS[key]
    freq = ps.FREQ_OF_SEASON[season]
    spec = FitSpec(catalog.models[member].adapter, member, h, tuple(L), season,
                   tuple(catalog.mstl_season_lengths.get(freq, (season,))))
    data = ps.load(key)
    out = []
    for i in indices:
        y = data[i][0]
        k = 0
        while k < windows and y.size - h - k * h >= 1:
            k += 1
        if mode == "refit":
            p = predict_series(spec, y)
            cutoffs = [y.size - h - w * h for w in range(k)]
            out.append((p.quantiles, [(c, predict_series(replace(spec, horizon=h), y[:c]).quantiles) for c in cutoffs]))
            continue
        p = predict_series(spec, y, ((h, k, h, "form") if mode == "form" else (h, k, h)) if k else None)
        out.append((p.quantiles, [(y.size - h - w * h, q) for w, (_, q) in enumerate(p.backtest)]))
    return out


def cached_runtime(key: str, member: str, mode: str):
    CACHE.mkdir(parents=True, exist_ok=True)
    f = CACHE / f"{key}.{member}.{WINDOWS}.{ {'forward': 'fwd'}.get(mode, mode) }.pkl"
    if f.exists():
        return pickle.loads(f.read_bytes())
    import multiprocessing

    t0 = time.time()
    n = len(ps.load(key))
    chunks = [list(range(i, min(i + 8, n))) for i in range(0, n, 8)]
    with multiprocessing.get_context("fork").Pool(2) as pool:
        parts = pool.map(_forward_chunk, [(key, member, WINDOWS, c, mode) for c in chunks], chunksize=1)
    out = ([r for part in parts for r in part], time.time() - t0)
    f.write_bytes(pickle.dumps(out))
    return out


def window_mase(a, p, train, m):
    mm = m if train.size > m else 1
    if train.size <= mm:
        return np.nan
    scale = np.mean(np.abs(train[mm:] - train[:-mm]))
    return float(np.mean(np.abs(a - p[4])) / scale) if scale > 0 else np.nan


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("datasets")
    ap.add_argument("--candidates", default="auto-ets,auto-theta,seasonal-naive")
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--windows", type=int, default=3, help="CV windows cached (rules try 1, 2, 3, ... up to it)")
    ap.add_argument("--metrics", default="wql,mase,both")
    ap.add_argument("--backtest", default="refit", choices=("refit", "forward", "form", "runtime-refit"),
                    help="CV windows refitted (prism-sim's forecast, in this process), from one fit + forward() (auto's refit false), "
                         "refitting the whole-history fit's form, or refitted through the runtime's predict_series (pooled)")
    ap.add_argument("--spread", action="store_true",
                    help="also the request-scope pick with its spread scaled by one factor per request, fitted on the pick's "
                         "windows (prism's spreadFactor: ⅓-3, ties to the factor nearest 1)")
    a = ap.parse_args()
    global WINDOWS
    WINDOWS = a.windows
    members = a.candidates.split(",")
    for key in a.datasets.split(","):
        _, h, _, season = ps.DATASETS[key]
        data = ps.load(key)
        n = len(data)
        C = {mb: cached(key, mb) if a.backtest == "refit" else cached_runtime(key, mb, a.backtest.replace("runtime-", "")) for mb in members}
        singles = {mb: ps.score(key, [C[mb][0][s][0] for s in range(n)]) for mb in members}
        bm = min(v[0] for v in singles.values())
        bw = min(v[1] for v in singles.values())
        print(f"## {key} (fit s: {', '.join(f'{mb} {C[mb][1]:.0f}' for mb in members)}); batch {a.batch}")
        for mb in members:
            print(f"  {mb:16s} MASE {singles[mb][0]:.4f} WQL {singles[mb][1]:.4f}")
        # st[s][k]: per window (pinball numerator, sum |actual|, MASE)
        st = [[[] for _ in members] for _ in range(n)]
        for s in range(n):
            y = data[s][0]
            for k, mb in enumerate(members):
                for c, p in C[mb][0][s][1]:
                    act = y[c:c + h]
                    st[s][k].append((np.mean([2 * ps.pinball(act, p[i], q) for i, q in enumerate(L)]), np.abs(act).sum(), window_mase(act, p, y[:c], season)))

        def agg(rows):
            num = sum(r[0] for r in rows)
            den = sum(r[1] for r in rows)
            ms = [r[2] for r in rows if np.isfinite(r[2])]
            return (num / den if den > 0 else np.inf, np.mean(ms) if ms else np.inf)

        for nw in sorted({1, 2, 3, WINDOWS} & set(range(1, WINDOWS + 1))):
            for metric in a.metrics.split(","):
                def val(v, ref):
                    if metric == "wql":
                        return (v[0], v[1])
                    if metric == "mase":
                        return (v[1], v[0])
                    return (v[0] / ref[0] + v[1] / ref[1], 0)
                for r in (1.0, 0.9, 0.8, 0.7, 0.0):
                    preds = []
                    for b0 in range(0, n, a.batch):
                        idx = list(range(b0, min(n, b0 + a.batch)))
                        pooled = [agg([x for s in idx for x in st[s][k][:nw]]) for k in range(len(members))]
                        ref = tuple(x if np.isfinite(x) and x > 0 else 1 for x in (min(p[0] for p in pooled), min(p[1] for p in pooled)))
                        g = min(range(len(members)), key=lambda k: val(pooled[k], ref))
                        for s in idx:
                            if not st[s][0][:nw]:
                                preds.append(C[members[g]][0][s][0])
                                continue
                            sc = [agg(st[s][k][:nw]) for k in range(len(members))]
                            sref = tuple(x if np.isfinite(x) and x > 0 else 1 for x in (min(x[0] for x in sc), min(x[1] for x in sc)))
                            own = min(range(len(members)), key=lambda k: val(sc[k], sref))
                            mine, theirs = val(sc[own], sref)[0], val(sc[g], sref)[0]
                            preds.append(C[members[own if (np.isfinite(mine) and mine < r * theirs) else g]][0][s][0])
                    m_, w_ = ps.score(key, preds)
                    label = "request" if r == 0.0 else f"series r={r}"
                    print(f"  windows={nw} metric={metric:4s} {label:14s} MASE {m_:.4f} ({100 * (m_ / bm - 1):+.1f}%) WQL {w_:.4f} ({100 * (w_ / bw - 1):+.1f}%)", flush=True)
                    if a.spread and r == 0.0:
                        m_, w_ = ps.score(key, spread_scaled(data, C, members, preds, nw, h, a.batch))
                        print(f"  windows={nw} metric={metric:4s} {'request+spread':14s} MASE {m_:.4f} ({100 * (m_ / bm - 1):+.1f}%) WQL {w_:.4f} ({100 * (w_ / bw - 1):+.1f}%)", flush=True)


GRID = ps.spread_grid()


def spread_scaled(data, C, members, preds, nw, h, batch):
    """The request-scope picks (preds), each request's spread around the 0.5 level scaled by the factor that minimises
    the picked model's pinball loss on its first nw windows (each series ÷ its windows' Σ|actual|), as prism does."""
    q = np.array(L)[:, None]
    out = [np.array(p, dtype=float) for p in preds]
    for b0 in range(0, len(preds), batch):
        idx = list(range(b0, min(len(preds), b0 + batch)))
        loss = np.zeros(GRID.size)
        for s in idx:
            y = data[s][0]
            pick = next(mb for mb in members if C[mb][0][s][0] is preds[s])
            wins = C[pick][0][s][1][:nw]
            scale = max(sum(np.abs(y[c:c + h]).sum() for c, _ in wins), 1e-9)
            for c, p in wins:
                p = np.asarray(p, dtype=float)
                act = y[c:c + h]
                for g, f in enumerate(GRID):
                    d = act[None] - (p[4] + f * (p - p[4]))
                    loss[g] += np.maximum(q * d, (q - 1) * d).sum() / scale
        f = ps.least_loss_factor(GRID, loss)
        for s in idx:
            out[s] = out[s][4] + f * (out[s] - out[s][4])
    return out


if __name__ == "__main__":
    main()
